"""``fracas regen`` (issue 41): one command rewrites every generated file, and ``--check`` says when
one is stale, so adding a command or an event never needs two commands remembered by hand."""

from __future__ import annotations

from pathlib import Path

from server.cli import main

REPO = Path(__file__).resolve().parents[2]
FILES = (Path("openapi") / "openapi.json", Path("server") / "web" / "fracas-api.d.ts")


def test_regen_writes_what_is_committed_and_check_finds_a_stale_file(tmp_path: Path) -> None:
    assert main(["regen", "--root", str(tmp_path)]) == 0
    for name in FILES:
        assert (tmp_path / name).read_text(encoding="utf-8") == (REPO / name).read_text(encoding="utf-8"), name
    assert main(["regen", "--root", str(tmp_path), "--check"]) == 0
    (tmp_path / FILES[1]).write_text("// edited by hand\n", encoding="utf-8")
    assert main(["regen", "--root", str(tmp_path), "--check"]) == 1
    assert (tmp_path / FILES[1]).read_text(encoding="utf-8") == "// edited by hand\n"  # --check writes nothing
