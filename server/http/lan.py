"""Players join from their phones (issue 38): the address a phone on the same network uses, the
links a page needs, and the console's address as a QR code in the terminal.

``lan_address()`` asks the kernel which of this machine's IPv4 addresses it would send from,
without sending anything: ``connect()`` on a UDP socket only looks the route up and fixes the
socket's peer (no datagram, no ARP: those come with the first ``send``, and this socket never
sends); ``getsockname()`` then gives the interface's address. The destination asked about is a
documentation address (RFC 5737), never a host that could answer. Not ``gethostbyname(
gethostname())``: it may ask a DNS server, and often answers 127.0.1.1.
"""

from __future__ import annotations

import io
import ipaddress
import socket
from urllib.parse import quote, urlsplit

# RFC 5737's TEST-NET-2 (198.51.100.0/24): for documentation, routed nowhere; only looked up
ROUTE_PROBE = ("198.51.100.1", 9)


def lan_address() -> str | None:
    """This machine's IPv4 address on the network its default route leads to (what a phone on the
    same Wi-Fi reaches), or None when there is no such route (no network) or only loopback.
    Sends nothing (see the module's docstring)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(ROUTE_PROBE)  # a route look-up: UDP's connect() sends no packet
            address = probe.getsockname()[0]
    except OSError:  # no route to any network
        return None
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return None
    if ip.is_loopback or ip.is_unspecified:
        return None
    return str(ip)


def check_public_url(value: str) -> str:
    """``FRACAS_PUBLIC_URL`` as links use it (no trailing slash); ValueError when it is not an
    http(s) address without query or fragment, such as ``https://fracas.example.org`` or
    ``http://192.168.1.20:8000/table``."""
    text = value.strip()
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment \
            or "#" in text or "?" in text:
        raise ValueError(f"FRACAS_PUBLIC_URL must be an http:// or https:// address without ? or #, such as "
                         f"https://fracas.example.org: not {value!r}")
    return text.rstrip("/")


def console_link(base: str, encounter_id: str, token: str) -> str:
    """The GM's console on an encounter, signed in with its GM token (``server/web/gm.js`` reads
    the fragment, which a browser never sends to a server)."""
    return f"{base}/#enc={encounter_id}&token={quote(token, safe='')}"


def player_link(base: str, encounter_id: str, combatant_ids: list[str], token: str) -> str:
    """A player's page (``server/web/play.js``): ``me`` is the first combatant the token acts for."""
    me = f"&me={combatant_ids[0]}" if combatant_ids else ""
    return f"{base}/play#enc={encounter_id}{me}&token={quote(token, safe='')}"


def spectator_link(base: str, encounter_id: str, token: str) -> str:
    """The spectator view (``server/web/watch.js``)."""
    return f"{base}/watch#enc={encounter_id}&token={quote(token, safe='')}"


def terminal_qr(text: str, encoding: str | None = "utf-8") -> str:
    """``text`` as a QR code for a terminal: Unicode half blocks, two rows of modules a line, light
    modules drawn (a dark terminal's light text), dark ones left blank, with the quiet zone; where
    the terminal's ``encoding`` has no blocks, ``##`` for a light module and two spaces for a dark."""
    import segno  # only `fracas serve --lan` draws one

    qr = segno.make(text, error="m", micro=False)
    out = io.StringIO()
    qr.terminal(out=out, compact=True)
    drawn = out.getvalue()
    try:
        drawn.encode(encoding or "utf-8")
        return drawn
    except (UnicodeEncodeError, LookupError):
        rows = qr.matrix
        border = 4
        size = len(rows) + 2 * border

        def light(y: int, x: int) -> bool:
            y, x = y - border, x - border
            return not (0 <= y < len(rows) and 0 <= x < len(rows) and rows[y][x])

        return "".join("".join("##" if light(y, x) else "  " for x in range(size)) + "\n" for y in range(size))
