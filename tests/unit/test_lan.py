"""``server.http.lan`` (issue 38): the address phones use, found "WITHOUT sending any packet to it or
anywhere", and the QR code a terminal shows."""

from __future__ import annotations

import ipaddress
import socket
from typing import Any, ClassVar, Self

import pytest
import segno

from server.http import lan


class Recorder:
    """A socket that notes every call made of it; sending anything fails the test."""

    calls: ClassVar[list[tuple[str, tuple[Any, ...]]]] = []
    address = "192.168.1.20"
    refuse: OSError | None = None

    def __init__(self, family: int, kind: int, *rest: Any) -> None:
        Recorder.calls.append(("socket", (family, kind)))

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        Recorder.calls.append(("close", ()))

    def connect(self, address: tuple[str, int]) -> None:
        Recorder.calls.append(("connect", (address,)))
        if Recorder.refuse is not None:
            raise Recorder.refuse

    def getsockname(self) -> tuple[str, int]:
        Recorder.calls.append(("getsockname", ()))
        return (Recorder.address, 40000)

    def __getattr__(self, name: str) -> Any:  # send, sendto, sendall, sendmsg, bind, ...
        pytest.fail(f"lan_address called socket.{name}: it must send nothing")


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> type[Recorder]:
    Recorder.calls, Recorder.address, Recorder.refuse = [], "192.168.1.20", None
    monkeypatch.setattr(lan.socket, "socket", Recorder)
    return Recorder


def test_the_address_is_a_route_look_up_that_sends_nothing(recorder: type[Recorder]) -> None:
    """A UDP socket's connect() only chooses the route (no datagram); getsockname() tells the
    interface's address; the socket is closed; nothing else is asked of it."""
    assert lan.lan_address() == "192.168.1.20"
    assert [name for name, _ in recorder.calls] == ["socket", "connect", "getsockname", "close"]
    assert recorder.calls[0][1] == (socket.AF_INET, socket.SOCK_DGRAM)  # UDP: no handshake, unlike TCP
    (host, _), = recorder.calls[1][1]
    assert ipaddress.IPv4Address(host) in ipaddress.IPv4Network("198.51.100.0/24")  # RFC 5737: documentation only


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.1.1", "0.0.0.0"])
def test_loopback_is_no_address_for_phones(recorder: type[Recorder], address: str) -> None:
    recorder.address = address
    assert lan.lan_address() is None


def test_no_route_no_address(recorder: type[Recorder]) -> None:
    recorder.refuse = OSError(101, "Network is unreachable")
    assert lan.lan_address() is None


def test_the_real_look_up_gives_one_of_this_machines_addresses_or_none() -> None:
    found = lan.lan_address()
    assert found is None or not ipaddress.IPv4Address(found).is_loopback


def modules(drawn: str, light: str, dark: str, per_line: int) -> list[list[bool]]:
    """The dark modules of a drawn QR code, its quiet zone of 4 cut away."""
    rows = []
    for line in drawn.splitlines():
        cells = [line[i:i + per_line] for i in range(0, len(line), per_line)]
        assert set(cells) <= {light, dark}, line
        rows.append([cell == dark for cell in cells])
    return [row[4:-4] for row in rows[4:-4]]


def test_a_terminal_without_blocks_gets_the_code_in_ascii() -> None:
    url = "http://192.168.1.20:8000/"
    drawn = lan.terminal_qr(url, "ascii")
    drawn.encode("ascii")
    want = [[bool(m) for m in row] for row in segno.make(url, error="m", micro=False).matrix]
    assert modules(drawn, "##", "  ", 2) == want
    assert "\u2588" in lan.terminal_qr(url, "utf-8")  # half blocks where the terminal has them


@pytest.mark.parametrize(("given", "used"), [("https://fracas.example.org/", "https://fracas.example.org"),
                                             (" http://192.168.1.20:8000 ", "http://192.168.1.20:8000"),
                                             ("https://example.org/table//", "https://example.org/table")])
def test_a_public_url_is_used_without_its_trailing_slash(given: str, used: str) -> None:
    assert lan.check_public_url(given) == used


def test_the_links_put_the_token_in_the_fragment() -> None:
    assert lan.console_link("http://h:1", "e", "frc_a-b_c") == "http://h:1/#enc=e&token=frc_a-b_c"
    assert lan.player_link("http://h:1", "e", ["m", "n"], "t/+") == "http://h:1/play#enc=e&me=m&token=t%2F%2B"
    assert lan.spectator_link("http://h:1", "e", "t") == "http://h:1/watch#enc=e&token=t"


def test_the_timelines_query_token_is_its_own_rate_limit_bucket_as_a_live_streams() -> None:
    """"The same checks as the live stream's ?token=": the rate limit counts it against the token."""
    from server.auth.tokens import hash_secret
    from server.auth.limits import bucket_of
    from tests.unit.test_rate_limit import _scope

    assert bucket_of(_scope("/encounters/e/timeline.svg", query=b"token=frc_valid")) == hash_secret("frc_valid")
    assert bucket_of(_scope("/encounters/e/timeline.svg", query=b"token=frc_random")) == b"addr:192.0.2.1"
