"""The web table (issue 22) in a real browser: Debian's Chromium driven by Playwright against a
real ``fracas serve``. A GM opens a Places of Power encounter, adds two player characters and a
hidden NPC, hands out links; the players and a spectator open them in their own browser
contexts; the hidden NPC is nowhere on their pages (text and DOM) until the GM reveals it; the
fight is run by clicks and every page follows it live."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e import chromium
from tests.e2e.test_cli import serving

pytestmark = pytest.mark.skipif(
    not chromium.installed(),
    reason=f"Chromium is not installed ({chromium.CHROMIUM}): `apt-get install -y chromium` (.ci/run does)",
)

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / ".test-artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def env(database_url: str) -> dict[str, str]:
    # the server serves this checkout's pages (not those of wherever the `fracas` script was installed from)
    return {**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(ROOT)}


AXE = Path(__file__).resolve().parent / "vendor" / "axe-core-4.14.1" / "axe.min.js"  # tests/e2e/vendor/README.md
AXE_RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


def accessible(page, name: str) -> None:
    """Issue 22, "Accessible: keyboard use, labels, contrast": axe-core (vendored, injected here
    only) finds no violation of WCAG 2.1 A and AA or of its best practices on the page as it is."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        "(tags) => axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })",
        AXE_RULES)
    found = [f"{v['id']} ({v['impact']}): {v['help']}: "
             + "; ".join(f"{n['target']} {n.get('failureSummary', '')!r}" for n in v["nodes"][:4])
             for v in result["violations"]]
    assert not found, f"{name}:\n" + "\n".join(found)


class Relay:
    """The page's live stream through the test: held back on demand (a phone whose updates
    are late), then let through."""

    def __init__(self) -> None:
        self.holding = False
        self.held: list[Any] = []
        self.page_side = None

    def route(self, ws) -> None:
        self.page_side = ws
        server = ws.connect_to_server()

        def down(message) -> None:
            if self.holding:
                self.held.append(message)
            else:
                ws.send(message)

        server.on_message(down)
        ws.on_message(lambda message: server.send(message))

    def release(self) -> None:
        self.holding = False
        for message in self.held:
            self.page_side.send(message)
        self.held.clear()


def shoot(page, name: str) -> None:
    """Each page at phone and desktop widths, kept by the test run (git-ignored), and checked
    for accessibility at each width."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)
        accessible(page, f"{name} at {label} width")
    page.set_viewport_size(DESKTOP)


def add(gm, name: str, side: str, controller: str, hidden: bool = False, example: int | None = None,
        **sheet: str) -> None:
    """Add a combatant by the form; ``example``: started from the ruleset's example of that number
    ("Start from"); ``sheet``: fields of the form built from the sheet schema."""
    if example is not None:
        gm.select_option("#add-from", f"example:{example}")
    if sheet and gm.locator("#sheet-box").get_attribute("open") is None:
        gm.click("#sheet-box summary")
    for field, value in sheet.items():
        gm.fill(f"#sheet-{field}", value)
    gm.fill("#add-name", name)
    gm.fill("#add-side", side)
    gm.select_option("#add-controller", controller)
    gm.set_checked("#add-hidden", hidden)
    gm.click("#add-form button[type=submit]")
    gm.locator("#table").get_by_text(name, exact=True).wait_for()


def command(gm, type_: str, **fields: str) -> None:
    """Send a command from the console's "Every command" form (one click away: opened first)."""
    if gm.locator("#every").get_attribute("open") is None:
        gm.click("#every summary")
    gm.select_option("#command-type", type_)
    for name, value in fields.items():
        control = gm.locator(f"#cmd-{type_}-{name}")
        if control.evaluate("e => e.tagName") == "SELECT":
            control.select_option(label=value) if not value.startswith('"') else control.select_option(value=value)
        else:
            control.fill(value)
    # wait for the server's answer: the next command is sent only once this one is decided
    with gm.expect_response(lambda r: r.url.endswith("/commands") and r.request.method == "POST") as answer:
        gm.click("#command-form button[type=submit]")
    if answer.value.ok:
        from playwright.sync_api import expect

        expect(gm.locator("#command-said")).to_be_hidden()
        # and for the console to draw it (its state and next moves): the live update re-lays the page out,
        # and a tap sent meanwhile may land where the button was (a CI run sent no StartEncounter so)
        version = answer.value.json()["version"]
        gm.wait_for_function("v => Number(document.querySelector('#fight').dataset.version) >= v"
                             " && Number(document.querySelector('#fight').dataset.moves) >= v", arg=version)


def test_a_fight_at_the_web_table(env: dict[str, str]) -> None:
    from playwright.sync_api import expect, sync_playwright

    with serving(env) as (base, _), sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium.CHROMIUM, args=ARGS)
        gm = browser.new_context(viewport=DESKTOP).new_page()
        gm.goto(base + "/")
        expect(gm.locator("#open-dice option")).not_to_have_count(0)
        accessible(gm, "the GM's console before a fight")
        gm.select_option("#open-ruleset", "places-of-power")
        gm.fill("#open-name", "Ambush at the ford")
        gm.select_option("#open-dice", "mixed")  # the server rolls, but the attack below reports its dice (a d4 and a d8: 1 + 8)
        gm.click("#open-form button[type=submit]")
        expect(gm.locator("#fight-title")).to_contain_text("Ambush at the ford")
        add(gm, "Mira", "party", "player", skills='{"Brawling": "D8"}')
        add(gm, "Bram", "party", "player", skills='{"Brawling": "D8"}')
        add(gm, "Orc Ambusher", "enemies", "gm", hidden=True)

        gm.get_by_role("button", name="Make Mira's player link").click()
        gm.get_by_role("button", name="Make Bram's player link").click()
        gm.get_by_role("button", name="Make a spectator link").click()
        gm.locator("#links a[href*='/watch#']").wait_for()
        expect(gm.locator("#links a[href*='/play#']")).to_have_count(2)
        expect(gm.locator("#links figure.qr-code svg")).to_have_count(3)  # each link also as a QR code
        hrefs = gm.locator("#links a").evaluate_all("as => as.map(a => a.href)")
        mira_link = next(h for h in hrefs if "/play#" in h and h == hrefs[0])
        bram_link = next(h for h in hrefs if "/play#" in h and h != mira_link)
        watch_link = next(h for h in hrefs if "/watch#" in h)
        assert all("#" in h and "token=" in h.split("#", 1)[1] for h in hrefs)  # never in the path or query

        mira = browser.new_context(viewport=PHONE).new_page()
        mira_stream = Relay()  # her live updates, held back below (a phone a little late)
        mira.route_web_socket(re.compile(r"/live\?"), mira_stream.route)
        mira.goto(mira_link)
        bram_ctx = browser.new_context(viewport=PHONE)
        bram = bram_ctx.new_page()
        bram.goto(bram_link)
        watch = browser.new_context(viewport=DESKTOP).new_page()
        watch.goto(watch_link)
        for page in (mira, bram, watch):
            expect(page.locator("#table")).to_contain_text("Mira")
            expect(page.locator("#table")).to_contain_text("Bram")
            expect(page.locator("#live-status")).to_contain_text("open")
        expect(watch.locator("#log")).to_contain_text("Bram joins")

        def orc_nowhere() -> None:
            for page in (mira, bram, watch):
                assert "Orc" not in page.inner_text("body")
                assert "Orc" not in page.content()

        orc_nowhere()
        command(gm, "RollInitiative", dice="[12, 2, 1]")  # reported: Mira, then Bram, then the Orc (a known order)
        command(gm, "StartEncounter")
        expect(watch.locator("#table .round")).to_contain_text("Round 1")
        expect(mira.locator("#table .round")).to_contain_text("Round 1")
        orc_nowhere()
        # the GM has whoever's turn it is attack the other player: the defender's player is prompted
        expect(gm.locator("#table li[aria-current=true]")).to_contain_text("Mira")  # the page shows her turn first
        attacker, defender, defender_page = "Mira", "Bram", bram
        command(gm, "Attack", combatant_id=attacker, target=defender, attack='"LightMelee"', band='"Melee"',
                dice="[1, 8]")  # 9 against Normal: a Partial Success, the defender decides
        expect(gm.locator("#problem")).to_be_hidden()
        prompt = defender_page.locator("#prompts .prompt")
        expect(prompt).to_be_visible()
        expect(prompt).to_contain_text("AP")  # each choice with its cost
        expect(defender_page.locator("#banner-h")).to_have_text("Your turn")  # the fight waits on him
        choices = prompt.get_by_role("button")
        assert choices.count() >= 2
        shoot(defender_page, "player-prompt")
        choices.first.press("Enter")  # one key answers, as one tap does (the button focused, then Enter)
        expect(defender_page.locator("#prompts .prompt")).to_have_count(0)  # answered: gone
        expect(defender_page.locator("#decisions")).to_be_hidden()
        expect(watch.locator("#log")).to_contain_text(defender)
        # the timeline follows live: the attack is marked, in round 1, on the spectator's and players' pages
        for page in (watch, defender_page):
            expect(page.locator("#timeline g.mark.attack").first).to_be_attached()
            expect(page.locator("#timeline")).to_contain_text("Round 1")
        orc_nowhere()
        shoot(gm, "gm-console")
        shoot(mira, "player")
        shoot(watch, "spectator")

        # Bram drops off; the fight moves on; he catches up when back
        bram_ctx.set_offline(True)
        orc_row = gm.locator("#table li", has_text="Orc Ambusher")
        orc_row.get_by_role("button", name="Reveal Orc Ambusher").click()
        expect(watch.locator("#table")).to_contain_text("Orc Ambusher")
        expect(mira.locator("#table")).to_contain_text("Orc Ambusher")
        expect(watch.locator("#timeline")).to_contain_text("Orc Ambusher")  # its row, once revealed
        bram_ctx.set_offline(False)
        expect(bram.locator("#table")).to_contain_text("Orc Ambusher", timeout=15000)

        # his buttons are his next moves, no more: each an action the server offers his token,
        # of a command a player may send (as the ruleset lists them), for his own combatant
        bram_token = bram_link.split("token=", 1)[1]
        enc = bram_link.split("enc=", 1)[1].split("&", 1)[0]
        moves = httpx.get(f"{base}/encounters/{enc}/actions", headers={"Authorization": f"Bearer {bram_token}"}).json()
        shown = bram.locator("button[data-action]").evaluate_all("bs => bs.map(b => [b.dataset.action, b.textContent])")
        assert sorted(shown) == sorted([a["id"], a["label"]] for a in moves["actions"])
        listed = httpx.get(f"{base}/rulesets/places-of-power").json()["commands"]
        may = {c["type"] for c in listed if "player" in c["senders"]}
        assert all(a["command"]["type"] in may and a["kind"] in ("decision", "move") for a in moves["actions"])
        assert not bram.locator("select, textarea").count()  # no list of commands, no JSON to type

        # a refusal is explained with the server's message, under the button tapped: Mira's page is
        # a little late (her live updates held back) when the GM ends her turn, and she taps End the turn
        end = mira.get_by_role("button", name="End the turn")
        expect(end).to_be_visible()
        mira_stream.holding = True
        command(gm, "EndTurn", combatant_id="Mira")
        expect(gm.locator("#problem")).to_be_hidden()
        end.click()
        refusal = mira.locator(".act-item", has=end).locator(".refusal")
        expect(refusal).to_be_visible()
        expect(refusal).to_contain_text("turn")
        accessible(mira, "a player's page showing a refusal")
        mira_stream.release()
        expect(mira.get_by_role("button", name="End the turn")).to_have_count(0)
        expect(mira.locator("#banner-h")).to_have_text("Waiting for Bram")
        browser.close()


SHEETS = {"novus": {"example": 0}}  # a ruleset that requires sheet fields: its example's


@pytest.mark.parametrize("ruleset", ["health-trauma", "realms", "novus"])
def test_each_page_follows_a_short_fight_of_every_other_ruleset(env: dict[str, str], ruleset: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with serving(env) as (base, _), sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium.CHROMIUM, args=ARGS)
        gm = browser.new_context(viewport=DESKTOP).new_page()
        gm.goto(base + "/")
        gm.select_option("#open-ruleset", ruleset)
        gm.fill("#open-name", f"A {ruleset} skirmish")
        gm.click("#open-form button[type=submit]")
        expect(gm.locator("#fight-title")).to_contain_text(ruleset.split("-")[0], ignore_case=True)
        sheet = SHEETS.get(ruleset, {})
        add(gm, "Ash", "party", "player", **sheet)
        add(gm, "Raider", "enemies", "gm", **sheet)
        gm.get_by_role("button", name="Make Ash's player link").click()
        gm.get_by_role("button", name="Make a spectator link").click()
        gm.locator("#links a[href*='/watch#']").wait_for()
        gm.locator("#links a[href*='/play#']").wait_for()
        hrefs = gm.locator("#links a").evaluate_all("as => as.map(a => a.href)")
        player = browser.new_context(viewport=PHONE).new_page()
        player.goto(next(h for h in hrefs if "/play#" in h))
        watch = browser.new_context(viewport=DESKTOP).new_page()
        watch.goto(next(h for h in hrefs if "/watch#" in h))
        command(gm, "RollInitiative")
        command(gm, "StartEncounter")
        expect(gm.locator("#problem")).to_be_hidden()
        expect(gm.locator("#round")).to_contain_text("Round 1")
        for page in (gm, player, watch):
            expect(page.locator("#round, #table .round").first).to_contain_text("Round 1")
            expect(page.locator("#table")).to_contain_text("Raider")
        expect(watch.locator("#log")).to_contain_text("Raider")
        shoot(gm, f"{ruleset}-gm-console")
        shoot(player, f"{ruleset}-player")
        shoot(watch, f"{ruleset}-spectator")
        browser.close()


def test_the_gm_retcons_from_the_log_and_reveals_a_secret_roll_live_on_the_players_page(env: dict[str, str]) -> None:
    """Issue 22: "Retcon from the log; reveal hidden combatants and secret rolls": the GM's
    clicks, and the player's page following them live (the undone entry struck through and its
    effect gone; the GM's secret initiative roll shown once revealed)."""
    from playwright.sync_api import expect, sync_playwright

    with serving(env) as (base, _), sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium.CHROMIUM, args=ARGS)
        gm = browser.new_context(viewport=DESKTOP).new_page()
        gm.goto(base + "/")
        gm.select_option("#open-ruleset", "places-of-power")
        gm.fill("#open-name", "The toll bridge")
        gm.select_option("#open-dice", "mixed")
        gm.click("#open-form button[type=submit]")
        expect(gm.locator("#fight-title")).to_contain_text("The toll bridge")
        add(gm, "Mira", "party", "player")
        add(gm, "Toll Keeper", "enemies", "gm")
        gm.get_by_role("button", name="Make Mira's player link").click()
        mira = browser.new_context(viewport=PHONE).new_page()
        mira.goto(gm.locator("#links a[href*='/play#']").get_attribute("href"))
        expect(mira.locator("#live-status")).to_contain_text("open")
        expect(mira.locator("#log")).to_contain_text("Toll Keeper joins")

        # the GM rolls initiative in secret: Mira's page tells her the NPCs rolled, not what
        gm.click("#every summary")
        gm.select_option("#command-type", "RollInitiative")
        gm.set_checked("#cmd-RollInitiative-secret", True)
        gm.fill("#cmd-RollInitiative-dice", "[9, 3]")  # reported: Mira's die, then the GM's one die for the NPCs
        with gm.expect_response(lambda r: r.url.endswith("/commands") and r.request.method == "POST"):
            gm.click("#command-form button[type=submit]")
        secret_line = mira.locator("#log li", has_text="Initiative")
        expect(secret_line).to_contain_text("in secret")
        reveal = gm.locator("#secret-rolls").get_by_role("button", name=re.compile("Reveal the secret roll"))
        expect(reveal).to_have_count(1)
        reveal.click()
        expect(mira.locator("#log")).to_contain_text("The GM reveals the secret roll")
        expect(secret_line).not_to_contain_text("in secret")  # the same entry, read again: the roll is shown
        expect(secret_line).to_contain_text("3")
        expect(gm.locator("#secret-rolls button")).to_have_count(0)

        # the GM sets Mira's Hits by mistake, and retcons it from the log
        command(gm, "SetHits", combatant_id="Mira", hits="3")
        mira_card = mira.locator("#table li", has_text="Mira")
        expect(mira_card).to_contain_text("hits 3")
        wrong = gm.locator("#log li", has_text="Hits").last
        expect(wrong).to_be_visible()
        gm.once("dialog", lambda dialog: dialog.accept())  # "Undo everything from version N on?"
        with gm.expect_response(lambda r: r.url.endswith("/commands") and r.request.method == "POST"):
            wrong.get_by_role("button", name=re.compile("Retcon version")).click()
        expect(gm.locator("#problem")).to_be_hidden()
        expect(mira_card).to_contain_text("hits 0")  # the retconned event is gone from her state
        undone = mira.locator("#log li.undone")
        expect(undone).to_have_count(1)
        expect(undone).to_contain_text("Hits")
        expect(mira.locator("#log li").last).to_contain_text("The GM undid event")
        accessible(mira, "a player's page with a retconned entry")
        accessible(gm, "the GM's console after a retcon")
        browser.close()


def test_the_accessibility_check_finds_an_unlabelled_control_and_poor_contrast(env: dict[str, str]) -> None:
    """The check above is no formality: on a page of the table, a control without a label and
    grey text on the dark panel are each reported."""
    from playwright.sync_api import sync_playwright

    with serving(env) as (base, _), sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium.CHROMIUM, args=ARGS)
        page = browser.new_context(viewport=DESKTOP).new_page()
        page.goto(base + "/watch")  # without a link: the page says it needs one
        page.locator("#problem").wait_for()
        accessible(page, "the spectator view without a link")
        page.evaluate("""() => {
            const s = document.querySelector("section");
            s.append(Object.assign(document.createElement("input"), { type: "text" }));
            s.append(Object.assign(document.createElement("p"), { textContent: "faint", style: "color: #333b44" }));
        }""")
        with pytest.raises(AssertionError) as found:
            accessible(page, "a spoilt page")
        assert "label" in str(found.value) and "color-contrast" in str(found.value)
        browser.close()


def test_a_live_update_keeps_the_gms_keyboard_focus_on_a_reveal_button(env: dict[str, str]) -> None:
    """Issue 22, "Accessible: keyboard use": the table is drawn again on each live update; the GM
    tabbing to "Reveal ..." keeps the focus there when the fight moves on under it."""
    from playwright.sync_api import expect, sync_playwright

    with serving(env) as (base, _), sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium.CHROMIUM, args=ARGS)
        gm = browser.new_context(viewport=DESKTOP).new_page()
        gm.goto(base + "/")
        expect(gm.locator("#open-dice option")).not_to_have_count(0)
        gm.select_option("#open-ruleset", "places-of-power")
        gm.fill("#open-name", "Focus kept")
        gm.click("#open-form button[type=submit]")
        expect(gm.locator("#fight-title")).to_contain_text("Focus kept")
        add(gm, "Orc Ambusher", "enemies", "gm", hidden=True)
        reveal = gm.get_by_role("button", name="Reveal Orc Ambusher")
        reveal.focus()
        enc = gm.evaluate("new URLSearchParams(location.hash.slice(1)).get('enc')")
        token = gm.evaluate(f"localStorage.getItem('fracas-gm-{enc}')")
        r = httpx.post(f"{base}/encounters/{enc}/commands", headers={"Authorization": f"Bearer {token}"},
                       json={"type": "AddCombatant", "name": "Mira", "side": "party", "controller": "player"})
        assert r.status_code == 200, r.text
        gm.locator("#table").get_by_text("Mira", exact=True).wait_for()  # the live update drew the table again
        focused = gm.evaluate("document.activeElement && document.activeElement.textContent")
        assert focused == "Reveal Orc Ambusher"
        gm.keyboard.press("Enter")
        expect(gm.get_by_role("button", name="Reveal Orc Ambusher")).to_have_count(0)
        browser.close()
