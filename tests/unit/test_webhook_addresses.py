"""Issue 40, "Webhook addresses": an IPv6 address that carries an IPv4 address is refused as the
IPv4 address it carries would be, and accepted where that one is public."""

from __future__ import annotations

import asyncio
import ipaddress

import pytest

from server.webhooks.delivery import carried_ipv4, resolve


@pytest.mark.parametrize(("v6", "v4"), [
    ("::127.0.0.1", "127.0.0.1"),  # IPv4-compatible
    ("::ffff:127.0.0.1", "127.0.0.1"),  # IPv4-mapped
    ("64:ff9b::7f00:1", "127.0.0.1"),  # NAT64, RFC 6052's well-known prefix
    ("2002:7f00:1::1", "127.0.0.1"),  # 6to4
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "192.0.2.45"),  # Teredo: its client (and server)
])
def test_the_ipv4_address_an_ipv6_one_carries_is_found(v6: str, v4: str) -> None:
    assert ipaddress.IPv4Address(v4) in carried_ipv4(ipaddress.ip_address(v6))


def test_an_ordinary_ipv6_address_carries_none() -> None:
    assert carried_ipv4(ipaddress.ip_address("2606:4700::6810:84e5")) == []
    assert carried_ipv4(ipaddress.ip_address("::1")) == []  # loopback itself, refused as such


@pytest.mark.parametrize("url", ["http://[::127.0.0.1]/", "http://[64:ff9b::a00:1]/", "http://[2002:c0a8:101::1]/",
                                 "http://[::ffff:169.254.169.254]/"])
def test_each_is_refused_as_the_ipv4_address_it_carries(url: str) -> None:
    refused = asyncio.run(resolve(url, allow_private=False)).refused
    assert refused is not None and "private, loopback, link-local or reserved" in refused


@pytest.mark.parametrize("url", ["http://[64:ff9b::5db8:d822]/", "http://[2002:5db8:d822::1]/"])
def test_one_carrying_a_public_ipv4_address_is_accepted(url: str) -> None:
    address = asyncio.run(resolve(url, allow_private=False))
    assert address.refused is None and address.ip == url.split("[", 1)[1].split("]", 1)[0]
