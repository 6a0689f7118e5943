"""The coverage table names what the gap file leaves to the GM: dying past helpless (U-N4, "Make them GM
settings") and how Snag Points are earned (U-N7, "the threshold below the TN: not found"), each with its
setting and default, where a GM reading GET /rulesets/novus looks for them."""

from __future__ import annotations

from domain.novus.coverage import SECTIONS
from domain.novus.data import DEFAULT_DATA


def _said(words: str) -> list[str]:
    return [s.heading for s in SECTIONS if any(words in x for x in (s.how, *s.readings))]


def test_dying_past_helpless_is_the_gms_setting_with_its_default() -> None:
    """N22: "At 0 to -10 hit points a character is helpless and can do nothing but try to stabilise himself
    with First Aid (TN 25)"; U-N4: "Dying: whether a helpless character keeps losing hits, the death
    threshold (below -10?), and what others' First Aid does: not retrieved. Make them GM settings"."""
    assert DEFAULT_DATA.death_below is None
    assert _said("death_below (SetNovusRules). Default (ours): none") == ["Simple & Complex Actions"]
    assert _said("can do nothing but try to stabilise himself with First Aid") == ["Simple & Complex Actions"]


def test_the_snag_points_threshold_is_the_gms_setting_with_its_default() -> None:
    """N4: "Snag Points come from very low (imploding) rolls and are spent on the Snag table"; U-N7: "how
    Snag Points are earned exactly (the threshold below the TN): not found"."""
    assert DEFAULT_DATA.snag_step == 10
    assert _said("snag_step (SetNovusRules). Default (ours): 1 Snag Point for every full 10") == ["Called Shots"]
