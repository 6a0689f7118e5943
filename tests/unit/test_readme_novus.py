""""Novus in play" (docs/rulesets/novus.md) names only commands the Novus ruleset takes (it is kept true as
commands come and go)."""

from __future__ import annotations

import re
from pathlib import Path

from domain.novus.ruleset import Novus

README = Path(__file__).resolve().parents[2] / "docs" / "rulesets" / "novus.md"


def test_every_command_the_novus_section_names_is_one_of_novus() -> None:
    section = README.read_text(encoding="utf-8")
    named = set(re.findall(r"`([A-Z][A-Za-z]+)`", section))
    tags = {t.__struct_config__.tag for t in Novus().command_types}
    assert len(named) > 10, "the section names the commands"
    assert named <= tags, f"not commands of Novus: {sorted(named - tags)}"
