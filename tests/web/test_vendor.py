"""The web table's vendored scripts are the pinned releases server/web/vendor/README.md names:
each file's SHA-256 as SHA256SUMS records it, and every file there is listed."""

from __future__ import annotations

import hashlib
from pathlib import Path

VENDOR = Path(__file__).resolve().parents[2] / "server" / "web" / "vendor"


def test_every_vendored_file_is_the_pinned_one() -> None:
    sums = dict(reversed(line.split("  ", 1)) for line in (VENDOR / "SHA256SUMS").read_text().splitlines() if line)
    files = {str(p.relative_to(VENDOR)) for p in VENDOR.rglob("*") if p.is_file()} - {"SHA256SUMS", "README.md"}
    assert files == set(sums)
    for name, digest in sums.items():
        assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == digest, name
