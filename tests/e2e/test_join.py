"""Players join from their phones (issue 38), as a user runs it: ``fracas serve --lan`` listens on
every interface and prints the address phones on the same network open, with the GM's console as a
QR code; the links the server hands out carry that address (or FRACAS_PUBLIC_URL); the GM copies a
link on plain http, where a browser has no ``navigator.clipboard``; the pages open the timeline
in a tab with ``?token=``.

No test sends anything to this machine's network address: the server is reached on 127.0.0.1
(``--lan`` listens on 0.0.0.0, which 127.0.0.1 is part of); that it listens on every interface is
read from the kernel's socket table, and the printed address is checked against the kernel's
interface table, neither of which sends a packet.
"""

from __future__ import annotations

import fcntl
import ipaddress
import os
import re
import socket
import struct
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from server.http.lan import lan_address
from tests.e2e import chromium
from tests.e2e.test_cli import serving

QR_CHARS = set(" \u2580\u2584\u2588")  # segno's terminal blocks: the QR code's lines are made of these alone
SIOCGIFADDR = 0x8915
SHOTS = Path(__file__).resolve().parents[2] / ".test-artifacts" / "screenshots"  # git-ignored; docs/screenshots keeps some


@pytest.fixture
def env(database_url: str) -> dict[str, str]:
    served = {k: v for k, v in os.environ.items() if k not in ("FRACAS_GC_THRESHOLD", "FRACAS_PUBLIC_URL")}
    return {**served, "DATABASE_URL": database_url}


def interface_addresses() -> set[str]:
    """Every IPv4 address of this machine's interfaces, from the kernel (an ioctl: nothing sent)."""
    found = set()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(s.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:  # an interface without an IPv4 address
                continue
            found.add(socket.inet_ntoa(packed[20:24]))
    return found


def listening_on(port: int) -> set[str]:
    """The IPv4 addresses a socket listens on at ``port``, from the kernel's table (/proc/net/tcp)."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        address, hex_port = local.split(":")
        if state == "0A" and int(hex_port, 16) == port:  # 0A: LISTEN
            found.add(socket.inet_ntoa(struct.pack("<I", int(address, 16))))
    return found


def printed_address(out: str) -> str:
    found = re.findall(r"Phones on the same network join at (\S+)", out)
    assert len(found) == 1, out
    return found[0]


def read_qr(out: str) -> str:
    """The QR code printed in the terminal, decoded as a phone's camera would (zxing-cpp): each
    character is two modules, top and bottom; a block is light, a blank dark (the terminal's own)."""
    import zxingcpp

    lines = [line for line in out.splitlines() if len(line) >= 21 and set(line) <= QR_CHARS]
    assert lines, out
    width = len(lines[0])
    assert all(len(line) == width for line in lines), "the QR code's lines are all as wide"
    top = {" ": True, "\u2584": True, "\u2580": False, "\u2588": False}  # dark module above?
    bottom = {" ": True, "\u2580": True, "\u2584": False, "\u2588": False}
    modules = [row for line in lines for row in ([top[c] for c in line], [bottom[c] for c in line])]
    scale = 4
    pixels = bytearray()
    for row in modules:
        line = b"".join((b"\x00" if dark else b"\xff") * scale for dark in row)
        pixels += line * scale
    image = memoryview(bytes(pixels)).cast("B", (len(modules) * scale, width * scale))
    decoded = zxingcpp.read_barcodes(image)
    assert len(decoded) == 1, "one QR code, readable"
    return decoded[0].text


def fragment(link: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(link).fragment).items()}


def test_serve_lan_prints_the_address_phones_open_and_its_qr_code(env: dict[str, str]) -> None:
    """"`fracas serve --lan`: bind to all interfaces (0.0.0.0) and print the address phones on the
    same network use ..., with a QR code of the GM console URL in the terminal"; the links carry it."""
    expected = lan_address()
    if expected is None:
        pytest.skip("this machine has no network route: no address for phones to find")
    with serving(env, "--lan", "--access-log") as (base, proc):
        port = urlsplit(base).port
        assert listening_on(port) == {"0.0.0.0"}  # every interface: phones on the network reach it
        play = httpx.get(base + "/play")  # on 127.0.0.1 only: never on the printed address
        assert play.status_code == 200 and "<title>" in play.text
        opened = httpx.post(base + "/encounters", json={"ruleset": "places-of-power", "name": "From the sofa"}).json()
        enc, gm = opened["encounter_id"], opened["gm_token"]
        headers = {"Authorization": f"Bearer {gm['token']}"}
        mira = httpx.post(f"{base}/encounters/{enc}/combatants", headers=headers,
                          json={"name": "Mira", "side": "party", "controller": "player"}).json()
        mira_id = mira["events"][0]["data"]["combatant_id"]
        player = httpx.post(f"{base}/encounters/{enc}/tokens", headers=headers,
                            json={"role": "player", "combatant_ids": [mira_id]}).json()
        tab = httpx.get(f"{base}/encounters/{enc}/timeline.svg", params={"token": player["token"]})
        assert tab.status_code == 200 and tab.headers["content-type"].startswith("image/svg+xml")
    out = proc.stdout.read() if proc.stdout else ""

    console = printed_address(out)
    parts = urlsplit(console)
    assert (parts.scheme, parts.port, parts.path, parts.query, parts.fragment) == ("http", port, "/", "", "")
    address = ipaddress.IPv4Address(parts.hostname)  # well-formed: a dotted IPv4 address
    assert not (address.is_loopback or address.is_unspecified or address.is_multicast)
    assert str(address) == expected and str(address) in interface_addresses()  # this machine's own
    assert read_qr(out) == console  # the QR code is the console's address
    assert "listen on http://0.0.0.0:" in out
    # the links carry the printed address, the GM's console as a phone opens it
    assert gm["link"] == f"{console}#enc={enc}&token={gm['token']}"
    assert player["link"].startswith(f"{console}play#enc={enc}&me={mira_id}&token=")
    # the timeline's ?token= reached no log line (its request is logged, the secret redacted)
    assert f"/encounters/{enc}/timeline.svg?token=[redacted]" in out
    assert player["token"] not in out and player["token"].removeprefix("frc_") not in out
    assert gm["token"].removeprefix("frc_") not in out


def test_fracas_public_url_is_the_printed_and_linked_address(env: dict[str, str]) -> None:
    """A server behind a proxy: FRACAS_PUBLIC_URL overrides the address --lan finds, in the terminal
    (and its QR code) and in every link."""
    public = "https://fracas.example.org/table"
    with serving({**env, "FRACAS_PUBLIC_URL": public + "/"}, "--lan") as (base, proc):
        opened = httpx.post(base + "/encounters", json={"ruleset": "places-of-power", "name": "Proxied"}).json()
        headers = {"Authorization": f"Bearer {opened['gm_token']['token']}"}
        spectator = httpx.post(f"{base}/encounters/{opened['encounter_id']}/tokens", headers=headers,
                               json={"role": "spectator"}).json()
    out = proc.stdout.read() if proc.stdout else ""
    assert printed_address(out) == public + "/"
    assert read_qr(out) == public + "/"
    assert opened["gm_token"]["link"].startswith(public + "/#enc=")
    assert spectator["link"].startswith(public + "/watch#enc=")


def test_without_lan_nothing_changes(env: dict[str, str]) -> None:
    with serving(env) as (base, proc):
        port = urlsplit(base).port
        assert listening_on(port) == {"127.0.0.1"}
        opened = httpx.post(base + "/encounters", json={"ruleset": "places-of-power", "name": "At home"}).json()
    out = proc.stdout.read() if proc.stdout else ""
    assert "Phones on the same network" not in out and not any(set(line) <= QR_CHARS and len(line) > 20
                                                                for line in out.splitlines())
    assert opened["gm_token"]["link"].startswith(f"http://127.0.0.1:{port}/#enc=")  # the request's own address


def test_a_public_url_that_is_no_address_stops_serve_at_once(env: dict[str, str]) -> None:
    import subprocess

    from tests.e2e.test_cli import FRACAS

    done = subprocess.run([FRACAS, "serve", "--lan", "--port", "1"], env={**env, "FRACAS_PUBLIC_URL": "fracas.lan"},
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "FRACAS_PUBLIC_URL" in done.stderr


# ------------------------------------------------------------------------------------ in a browser

pytest_browser = pytest.mark.skipif(
    not chromium.installed(),
    reason=f"Chromium is not installed ({chromium.CHROMIUM}): `apt-get install -y chromium` (.ci/run does)")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# a page on plain http over the network: no navigator.clipboard (a secure origin's only); each
# execCommand("copy") noted with what was selected when it ran
NOT_SECURE = """
Object.defineProperty(Navigator.prototype, "clipboard", { get: () => undefined, configurable: true });
window.__copies = [];
const execCommand = Document.prototype.execCommand;
Document.prototype.execCommand = function (name, ...rest) {
  window.__copies.push([name, String(window.getSelection())]);
  return execCommand.call(this, name, ...rest);
};
"""


@pytest_browser
def test_the_gm_copies_links_on_plain_http_and_the_pages_open_the_timeline_in_a_tab(env: dict[str, str]) -> None:
    """"Copy-the-link on plain http: `navigator.clipboard` is missing on a non-secure origin; fall
    back to selecting the text of the link (and `document.execCommand("copy")` where it works)."
    The links are the server's: FRACAS_PUBLIC_URL here names the server as ``localhost`` while the
    GM's page is on 127.0.0.1, so a link made by the page itself would show. The console's own link
    opens the fight in a fresh browser, and each page links to its timeline with ``?token=``."""
    from playwright.sync_api import expect, sync_playwright

    from tests.e2e.test_cli import free_port
    from tests.e2e.test_web_table import accessible, add

    port = free_port()
    public = f"http://localhost:{port}"
    with serving({**env, "FRACAS_PUBLIC_URL": public}, port=port) as (base, _), sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium.CHROMIUM, args=ARGS)
        context = browser.new_context(viewport=DESKTOP)
        context.add_init_script(NOT_SECURE)
        gm = context.new_page()
        gm.goto(base + "/")
        expect(gm.locator("#open-dice option")).not_to_have_count(0)
        gm.fill("#open-name", "Copied on plain http")
        with gm.expect_response(lambda r: r.url.endswith("/encounters") and r.request.method == "POST") as answer:
            gm.click("#open-form button[type=submit]")
        opened = answer.value.json()
        expect(gm.locator("#fight-title")).to_contain_text("Copied on plain http")
        assert gm.evaluate("location.hash") == f"#enc={opened['encounter_id']}"
        add(gm, "Mira", "party", "player")
        with gm.expect_response(lambda r: r.url.endswith("/tokens") and r.request.method == "POST") as minted:
            gm.get_by_role("button", name="Make Mira's player link").click()
        link = minted.value.json()["link"]
        anchor = gm.locator("#links a[href*='/play#']")
        expect(anchor).to_have_attribute("href", link)  # the server's link, with its public address
        assert link.startswith(f"{public}/play#enc=")

        assert gm.evaluate("navigator.clipboard") is None and gm.evaluate("window.__copies") == []
        gm.get_by_role("button", name="Copy the link for Mira").click()
        said = gm.locator("#links [role=status]")
        expect(said).to_have_text(re.compile(r"^(Copied\.|The link is selected: copy it .*)$"))
        assert gm.evaluate("String(window.getSelection())") == link  # the link's text, selected
        assert gm.evaluate("window.__copies") == [["copy", link]]  # and copied where the browser lets it
        SHOTS.mkdir(parents=True, exist_ok=True)
        links = gm.locator("section[aria-labelledby=links-h]")
        links.screenshot(path=str(SHOTS / "join-links-desktop.png"))
        accessible(gm, "the GM's console with a copied link")

        # the console's own link, in a browser that has never seen this encounter: the fight opens
        console = gm.locator("#console-link a").get_attribute("href")
        assert console == opened["gm_token"]["link"] == \
            f"{public}/#enc={opened['encounter_id']}&token={opened['gm_token']['token']}"
        phone = browser.new_context(viewport=PHONE).new_page()
        phone.goto(console)
        expect(phone.locator("#fight-title")).to_contain_text("Copied on plain http")
        assert phone.evaluate("location.hash") == f"#enc={opened['encounter_id']}"  # the token left the address bar
        expect(phone.locator("#links a[href*='/play#']")).to_have_count(0)  # links are shown once, where made
        phone.locator("#console-link summary").click()
        phone.locator("#console-link figure.qr-code svg").wait_for()
        phone.locator("section[aria-labelledby=links-h]").screenshot(path=str(SHOTS / "join-console-link-phone.png"))
        accessible(phone, "the GM's console opened from its link, at phone width")

        # the pages link to the timeline with ?token=: it opens alone in a tab (a tab sends no header)
        player = browser.new_context(viewport=PHONE).new_page()
        player.goto(link)
        expect(player.locator("#live-status")).to_contain_text("open")
        for page, token in ((gm, opened["gm_token"]["token"]), (player, fragment(link)["token"])):
            tab_link = page.locator("a.timeline-tab")
            expect(tab_link).to_have_count(1)
            if page is player:
                page.locator("section[aria-labelledby=tl-h]").screenshot(path=str(SHOTS / "join-timeline-link-phone.png"))
                accessible(page, "a player's page with the timeline's link")
            href = tab_link.get_attribute("href")
            assert href == f"/encounters/{opened['encounter_id']}/timeline.svg?token={token}"
            with page.context.expect_page() as opening:
                tab_link.click()
            tab = opening.value
            tab.wait_for_load_state()
            assert tab.evaluate("document.documentElement.nodeName") == "svg"
            assert tab.evaluate("document.querySelector('title').textContent") == "Timeline: Copied on plain http"
            tab.close()
        browser.close()
