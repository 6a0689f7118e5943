"""The player's phone page (issue 38) in Debian's Chromium at 390x844, for each of the four
rulesets: a short fight with reported dice, the GM moving by the next moves over HTTP
(`GET /encounters/{id}/actions`, each action sent as offered) and the player only by tapping
the page. The banner says whose turn it is, an offered action is tapped and taken, a refusal
shows right under what was tapped (a die out of range; a stale button, tapped while the live
stream is held back and the GM has moved on), a decision answered from the phone vanishes, the
dice entry sends the faces typed (and the one more die a `dice_missing` answer asks for), the
banner and the actions are on the first screen, and no id is shown anywhere.

Screenshots (390x844) go to `.test-artifacts/screenshots/`; with `FRACAS_DOCS_SCREENSHOTS=1`
also to `docs/screenshots/` (the ones the docs show)."""

from __future__ import annotations

import os
import re
from typing import Any

import httpx
import pytest

from tests.e2e import chromium
from tests.e2e.test_cli import serving
from tests.e2e.test_web_table import ARGS, PHONE, ROOT, SHOTS, Relay, accessible

pytestmark = pytest.mark.skipif(
    not chromium.installed(),
    reason=f"Chromium is not installed ({chromium.CHROMIUM}): `apt-get install -y chromium` (.ci/run does)",
)

DOCS = ROOT / "docs" / "screenshots"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)


@pytest.fixture
def env(database_url: str) -> dict[str, str]:
    # the server serves this checkout's pages (not those of wherever the `fracas` script was installed from)
    return {**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(ROOT)}


class Table:
    """The GM at the table, over HTTP: opens a reported fight of the ruleset's first two
    examples (a player's character, an NPC) and plays the next moves as offered."""

    def __init__(self, base: str, ruleset: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=30)
        info = self.http.get(f"/rulesets/{ruleset}").json()
        opened = self.http.post("/encounters", json={"ruleset": ruleset, "name": f"A {ruleset} brawl",
                                                     "dice_policy": "reported"}).json()
        self.enc = opened["encounter_id"]
        self.gm = opened["gm_token"]["token"]
        ids = []
        for example in info["examples"][:2]:
            r = self.http.post(f"/encounters/{self.enc}/combatants", headers=self.auth(self.gm), json=example["body"])
            assert r.status_code == 201, r.text
            ids.append(r.json()["events"][0]["data"]["combatant_id"])
        self.me, self.npc = ids
        self.player = self.http.post(f"/encounters/{self.enc}/tokens", headers=self.auth(self.gm), json={
            "role": "player", "combatant_ids": [self.me], "label": "phone"}).json()["token"]
        self.name = self.state()["combatants"][self.me]["name"]
        self.npc_name = self.state()["combatants"][self.npc]["name"]

    @staticmethod
    def auth(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}

    def link(self, base: str) -> str:
        return f"{base}/play#enc={self.enc}&me={self.me}&token={self.player}"

    def state(self) -> dict[str, Any]:
        return self.http.get(f"/encounters/{self.enc}", headers=self.auth(self.gm)).json()

    def actions(self, token: str | None = None) -> dict[str, Any]:
        return self.http.get(f"/encounters/{self.enc}/actions", headers=self.auth(token or self.gm)).json()

    def offered(self, pick, token: str | None = None) -> dict[str, Any] | None:
        return next((a for a in self.actions(token)["actions"] if pick(a)), None)

    def do(self, pick, faces=None, token: str | None = None) -> None:
        """Send the first offered action ``pick`` takes, with ``faces(die)`` for each listed die
        (and a middling face for each one more a ``dice_missing`` asks for)."""
        action = self.offered(pick, token)
        assert action is not None, [a["label"] for a in self.actions(token)["actions"]]
        body = dict(action["command"])
        if action["dice"]:
            body["dice"] = [(faces or (lambda d: (d["sides"] + 1) // 2))(d) for d in action["dice"] for _ in range(d["count"])]
        for _ in range(8):
            r = self.http.post(f"/encounters/{self.enc}/commands", headers=self.auth(token or self.gm), json=body)
            problem = r.json() if r.status_code >= 400 else {}
            if problem.get("code") != "dice_missing":
                break
            body.setdefault("dice", []).append((problem["details"]["needed_sides"] + 1) // 2)
        assert r.status_code == 200, r.text

    def start(self, player_first: bool) -> None:
        """Initiative with reported faces that put the player first or last, then the start."""
        def face(d: dict[str, Any]) -> int:
            mine = d["by"] == self.me
            high = mine == player_first
            return (d["sides"] - 1 if d["open"] else d["sides"]) if high else 2
        self.do(lambda a: a["command"]["type"] == "RollInitiative", face)
        self.do(lambda a: a["command"]["type"] == "StartEncounter")

    def gm_moves_on(self, until) -> None:
        """The GM answers its own decisions (the first choice) until ``until()``."""
        for _ in range(12):
            if until():
                return
            self.do(lambda a: a["kind"] == "decision"
                    or (a["kind"] == "move" and a["combatant_id"] == self.npc and a["command"]["type"] == "EndTurn"))
        assert until(), (self.actions()["waiting_on"], [a["label"] for a in self.actions(self.player)["actions"]])


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))
    if os.environ.get("FRACAS_DOCS_SCREENSHOTS"):
        DOCS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(DOCS / f"{name}.png"))


def nothing_shown_but_words(page) -> None:
    """No id, uuid or JSON anywhere on the page (labels and names only)."""
    text = page.inner_text("body")
    assert not UUID.search(text), UUID.search(text).group(0)
    assert '{"' not in text and '":' not in text
    ids = page.locator("[data-action]").evaluate_all("bs => bs.map(b => b.dataset.action)")
    assert not [i for i in ids if i in text]


def on_first_screen(page) -> None:
    """At 390x844 the banner and the first offered action are in the first screen."""
    page.evaluate("window.scrollTo(0, 0)")
    for sel in ("#banner", "button.act"):
        box = page.locator(sel).first.bounding_box()
        assert box is not None and box["y"] + min(box["height"], 60) <= PHONE["height"], (sel, box)


def next_to(page, refusal, button) -> None:
    """The refusal is drawn right under the button that was tapped."""
    r, b = refusal.bounding_box(), button.bounding_box()
    assert r is not None and b is not None
    assert 0 <= r["y"] - (b["y"] + b["height"]) <= 40, (r, b)


def type_dice(page, entry, faces: list[int]) -> None:
    fields = entry.locator("input[data-die=face]")
    assert fields.count() == len(faces), fields.count()
    for i, face in enumerate(faces):
        fields.nth(i).fill(str(face))


def send_dice(page, entry, more: int) -> None:
    """Send the dice typed; each one more die the server asks for (`dice_missing`) appears in the
    same entry, labelled with what it is for: typed, and sent again."""
    for _ in range(6):
        asked = entry.locator("input[data-die=face]").count()
        with page.expect_response(lambda r: r.url.endswith("/commands") and r.request.method == "POST") as answer:
            entry.get_by_role("button", name="Send these dice").click()
        if answer.value.status == 200:
            return
        assert answer.value.json()["code"] == "dice_missing", answer.value.json()
        extra = entry.locator("input[data-die=face]")
        from playwright.sync_api import expect
        expect(extra).to_have_count(asked + 1)
        expect(extra.last).to_be_focused()
        assert "One more die" in entry.locator("label").last.inner_text()
        extra.last.fill(str(more))
    raise AssertionError("the dice were never taken")


@pytest.mark.parametrize("ruleset", ["places-of-power", "health-trauma", "realms", "novus"])
def test_a_player_follows_a_short_fight_on_the_phone(env: dict[str, str], ruleset: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with serving(env) as (base, _), sync_playwright() as pw:
        info = httpx.get(f"{base}/rulesets/{ruleset}").json()
        assert len(info["examples"]) >= 2, f"{ruleset} offers no example combatants to seat"
        table = Table(base, ruleset)
        browser = pw.chromium.launch(executable_path=chromium.CHROMIUM, args=ARGS)
        page = browser.new_context(viewport=PHONE).new_page()
        relay = Relay()
        page.route_web_socket(re.compile(r"/live\?"), relay.route)
        page.goto(table.link(base))
        banner = page.locator("#banner-h")
        expect(page.locator("#live-status")).to_contain_text("open")
        # the GM sets the fight up (Health/Trauma: the player may make their Initiative Test first)
        first = table.actions(table.player)["waiting_on"][0]
        expect(banner).to_have_text("Your turn" if first["combatant_id"] == table.me else "Waiting for the GM")
        expect(page.locator("#me")).to_contain_text(table.name)
        expect(page.locator("#decisions")).to_be_hidden()
        nothing_shown_but_words(page)

        if ruleset == "novus":
            declaration_round(page, table, banner)
        else:
            exchange_round(page, table, banner, ruleset)

        # a stale button: the phone's live updates are held back while the GM ends the turn; the
        # tap is refused, and the server's words are shown under the button tapped
        table.gm_moves_on(lambda: table.offered(lambda a: a["command"]["type"] == "EndTurn", table.player) is not None)
        end = table.offered(lambda a: a["command"]["type"] == "EndTurn", table.player)
        relay.holding = True
        r = table.http.post(f"/encounters/{table.enc}/commands", headers=table.auth(table.gm), json=end["command"])
        assert r.status_code == 200, r.text  # the GM may end a player's turn
        button = page.locator(f"button[data-action='{end['id']}']")
        with page.expect_response(lambda r: r.url.endswith("/commands") and r.request.method == "POST") as answer:
            button.click()
        assert answer.value.status == 422, answer.value.text()
        refusal = page.locator(".act-item", has=button).locator(".refusal")
        expect(refusal).to_have_text(answer.value.json()["detail"])
        next_to(page, refusal, button)
        shot(page, f"play-{ruleset}-refused")
        accessible(page, f"the {ruleset} player's page with a refusal")
        relay.release()
        expect(page.locator(f"button[data-action='{end['id']}']")).to_have_count(0)  # the page catches up
        moves = table.actions(table.player)  # the turn has passed (Novus: a new round, declared from the lowest IP)
        first = moves["waiting_on"][0]
        expect(banner).to_have_text("Your turn" if first["combatant_id"] == table.me and moves["actions"]
                                    else "Waiting for the GM")
        nothing_shown_but_words(page)
        browser.close()


def exchange_round(page, table: Table, banner, ruleset: str) -> None:
    """Places of Power, Health/Trauma, Realms: the NPC attacks first, the player decides (with
    dice), then it is the player's turn and they act."""
    from playwright.sync_api import expect

    table.start(player_first=False)
    expect(banner).to_have_text("Waiting for the GM")
    expect(page.locator("#banner-what")).to_contain_text(table.npc_name)
    expect(page.locator("#moves")).to_contain_text("Nothing to do now")
    # the NPC attacks the player (faces that leave the defender a choice)
    rolled = iter({"places-of-power": [4, 5]}.get(ruleset, []))
    table.do(lambda a: a["kind"] == "move" and a["combatant_id"] == table.npc and table.name in a["label"]
             and "ttack" in a["label"], lambda d: next(rolled, (d["sides"] + 1) // 2))
    expect(banner).to_have_text("Your turn")  # the fight waits on the player's decision
    prompt = page.locator("#prompts .prompt")
    expect(prompt).to_have_count(1)
    on_first_screen(page)
    choices = prompt.locator("button.act.decision")
    answered = set(choices.evaluate_all("bs => bs.map(b => b.dataset.action)"))
    choice = next(a for a in table.actions(table.player)["actions"] if a["kind"] == "decision" and a["dice"])
    button = page.locator(f"button[data-action='{choice['id']}']")
    button.click()
    entry = page.locator(".act-item", has=button).locator("form.dice-entry")
    expect(entry).to_be_visible()
    faces = [d for d in choice["dice"] for _ in range(d["count"])]
    labels = entry.locator("label").all_inner_texts()
    for die, label in zip(faces, labels):
        assert die["for"] in label and f"d{die['sides']}" in label
    expect(entry.locator("input").first).to_be_focused()
    # a die out of range: the server's refusal, under the Send button tapped
    type_dice(page, entry, [faces[0]["sides"] + 1] + [1] * (len(faces) - 1))
    with page.expect_response(lambda r: r.url.endswith("/commands") and r.request.method == "POST") as answer:
        entry.get_by_role("button", name="Send these dice").click()
    assert answer.value.status == 422 and answer.value.json()["code"] == "die_face_out_of_range", answer.value.text()
    refusal = entry.locator(".refusal")
    expect(refusal).to_have_text(answer.value.json()["detail"])
    next_to(page, refusal, entry.get_by_role("button", name="Send these dice"))
    refusal.scroll_into_view_if_needed()
    shot(page, f"play-{ruleset}-decide")
    accessible(page, f"the {ruleset} player's dice entry")
    # the faces as rolled: the first die at its top (a hit, so the damage is asked for where it hangs on it)
    type_dice(page, entry, [faces[0]["sides"]] + [1] * (len(faces) - 1))
    send_dice(page, entry, more=2)
    for action_id in answered:  # the prompt answered from the phone is gone
        expect(page.locator(f"button[data-action='{action_id}']")).to_have_count(0)
    expect(page.locator("#log")).to_contain_text(table.name)
    # the GM finishes the NPC's turn: the player's turn, the banner says so
    table.gm_moves_on(lambda: any(w["combatant_id"] == table.me for w in table.actions()["waiting_on"]
                                  if w["what"].endswith("turn")))
    expect(banner).to_have_text("Your turn")
    expect(page.locator("#banner")).to_have_class(re.compile("yours"))
    on_first_screen(page)
    nothing_shown_but_words(page)
    shot(page, f"play-{ruleset}-turn")
    accessible(page, f"the {ruleset} player's turn")
    # an offered move with a cost and no dice: tapped, taken; what it spent shows on the page
    move = next(a for a in table.actions(table.player)["actions"]
                if a["kind"] == "move" and a["cost"] and not a["dice"] and "target" not in a["command"])
    pills = page.locator("#me-line").inner_text()
    with page.expect_response(lambda r: r.url.endswith("/commands") and r.request.method == "POST") as answer:
        page.locator(f"button[data-action='{move['id']}']").click()
    assert answer.value.status == 200, answer.value.text()
    expect(page.locator("#done")).to_have_text(f"Done: {move['label']}")
    expect(page.locator("#me-line")).not_to_have_text(pills)  # its cost is spent


def declaration_round(page, table: Table, banner) -> None:
    """Novus: the round opens with declarations (the lowest Initiative Point first: the player),
    resolved from the highest (the NPC) down; the player's resolution rolls an open 2d10."""
    from playwright.sync_api import expect

    table.start(player_first=False)  # the player's IP lowest: they declare first, resolve last
    expect(banner).to_have_text("Your turn")
    on_first_screen(page)
    nothing_shown_but_words(page)
    shot(page, "play-novus-turn")
    accessible(page, "the novus player's declaration")
    declare = next(a for a in table.actions(table.player)["actions"]
                   if a["kind"] == "decision" and a["command"]["type"] == "NovusDeclare" and a["cost"] and "ttack" in a["label"])
    answered = {a["id"] for a in table.actions(table.player)["actions"] if a["decision"] == declare["decision"]}
    pills = page.locator("#me-line").inner_text()
    with page.expect_response(lambda r: r.url.endswith("/commands") and r.request.method == "POST") as answer:
        page.locator(f"button[data-action='{declare['id']}']").click()
    assert answer.value.status == 200, answer.value.text()
    expect(page.locator("#done")).to_have_text(f"Done: {declare['label']}")
    for action_id in answered:  # the declaration answered from the phone is gone
        expect(page.locator(f"button[data-action='{action_id}']")).to_have_count(0)
    expect(banner).to_have_text("Waiting for the GM")
    expect(page.locator("#log")).to_contain_text("declares")
    # the NPC declares, resolves (the highest IP) and ends its turn: the player resolves
    table.do(lambda a: a["kind"] == "decision" and a["combatant_id"] == table.npc
             and a["command"]["type"] == "NovusDeclare" and "ttack" in a["label"])
    table.do(lambda a: a["combatant_id"] == table.npc and a["command"]["type"] == "NovusResolve")
    table.gm_moves_on(lambda: table.offered(lambda a: a["command"]["type"] == "NovusResolve", table.player) is not None)
    expect(banner).to_have_text("Your turn")
    resolve = table.offered(lambda a: a["command"]["type"] == "NovusResolve", table.player)
    assert [(d["count"], d["open"]) for d in resolve["dice"]] == [(2, True)]  # one open roll of 2d10
    button = page.locator(f"button[data-action='{resolve['id']}']")
    button.click()
    entry = page.locator(".act-item", has=button).locator("form.dice-entry")
    expect(entry).to_contain_text("open roll")  # the extra dice rule in a line, and a button to add one
    expect(entry.get_by_role("button", name="Add a d10")).to_be_visible()
    type_dice(page, entry, [11, 5])
    with page.expect_response(lambda r: r.url.endswith("/commands") and r.request.method == "POST") as answer:
        entry.get_by_role("button", name="Send these dice").click()
    assert answer.value.status == 422 and answer.value.json()["code"] == "die_face_out_of_range", answer.value.text()
    refusal = entry.locator(".refusal")
    expect(refusal).to_have_text(answer.value.json()["detail"])
    next_to(page, refusal, entry.get_by_role("button", name="Send these dice"))
    refusal.scroll_into_view_if_needed()
    shot(page, "play-novus-decide")
    accessible(page, "the novus player's dice entry")
    # a 1 opens the roll (downwards, a miss: the fight goes on): the player adds the die it rolls
    # again (a 4) by the button
    type_dice(page, entry, [1, 5])
    entry.get_by_role("button", name="Add a d10").click()
    extra = entry.locator("input[data-die=extra]")
    expect(extra).to_be_focused()
    extra.fill("4")
    send_dice(page, entry, more=3)
    expect(page.locator("#done")).to_have_text(f"Done: {resolve['label']}")
    expect(page.locator("#me-line")).not_to_have_text(pills)  # the declared attack's AP are spent
