"""RealmsRPG's coverage table (``GET /rulesets/realms``): a row for every rule realms-combat.txt gives
a heading or a bold lead-in, and no row left partial: what the engine does not enforce is the RM's."""

from __future__ import annotations

import re


from domain.realms.coverage import SECTIONS
from domain.realms.ruleset import Realms
from tests.contract.rulesets import rule_text



def _text() -> str:
    return rule_text(Realms(), "combat").read_text(encoding="utf-8")  # where the game says (skips if absent)


def lead_ins(text: str) -> list[tuple[str, str]]:
    """(heading, lead-in) of each paragraph opening with a short phrase and a full stop, colon or "!"
    ("Surprise. If certain parties..."), bullets left out: they belong to the lead-in above them."""
    heads = [x.strip() for x in text.splitlines()]
    headings = {x for x in heads if 0 < len(x) < 45 and not x.startswith("•") and not x.endswith(".")}
    out, current = [], ""
    for line in heads:
        if line in headings:
            current = line
            continue
        m = re.match(r"([A-Z0-9][^.:!,•]{0,40}?)[.:!](\s|$)", line)
        if m and len(m.group(1).split()) <= 6:
            out.append((current, m.group(1)))
    return out


def test_every_rule_with_a_bold_lead_in_has_a_row_of_its_own_under_its_heading() -> None:
    """The issue's list first: "Surprise, Rounds, Companions, Turns, 0 AP Actions, the End-of-Turn
    Overcome, the Multiple Action Penalty, Non-Lethal Damage, Coup de Grâce, Dual Wielding, Quick
    Attacks"; then every lead-in of the chapter, in its order."""
    rows = [(s.part_of, s.heading) for s in SECTIONS if s.part_of is not None]
    named = {heading for _, heading in rows}
    assert {"Surprise", "Rounds", "Companions", "Turns", "0 AP Actions", "End-of-Turn Overcome Action",
            "Multiple Action Penalty", "Non-Lethal Damage", "Coup De Grâce", "Dual Wielding", "Quick Attacks"} <= named
    assert rows == lead_ins(_text())
    assert all(s.how for s in SECTIONS)


def test_no_row_is_left_partial() -> None:
    """What the engine does not enforce becomes the RM's command: each row is enforced or the RM's."""
    assert {s.support for s in SECTIONS} <= {"enforced", "gm"}
    headings = {s.heading: s.support for s in SECTIONS if s.part_of is None}
    assert headings["Actions"] == headings["Grapple (2 AP)"] == "enforced"
    assert headings["Improvised Weapons & Unarmed Prowess"] == "enforced" and headings["Attacking"] == "gm"
