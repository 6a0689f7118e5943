"""The vendored scripts are the pinned releases each folder's README.md names: the web table's
(server/web/vendor, served) and the browser tests' (tests/e2e/vendor, axe-core): each file's
SHA-256 as SHA256SUMS records it, and every file there is listed."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VENDORS = [ROOT / "server" / "web" / "vendor", ROOT / "tests" / "e2e" / "vendor"]


@pytest.mark.parametrize("vendor", VENDORS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_vendored_file_is_the_pinned_one(vendor: Path) -> None:
    sums = dict(reversed(line.split("  ", 1)) for line in (vendor / "SHA256SUMS").read_text().splitlines() if line)
    files = {str(p.relative_to(vendor)) for p in vendor.rglob("*") if p.is_file()} - {"SHA256SUMS", "README.md"}
    assert files == set(sums)
    for name, digest in sums.items():
        assert hashlib.sha256((vendor / name).read_bytes()).hexdigest() == digest, name
