"""The GM's settings documents take a JSON Merge Patch (RFC 7396) of the current one (issue 37:
"Changing X no longer resets the GM's chart")."""

from __future__ import annotations

import pytest

from domain.core.errors import RuleViolation
from domain.core.settings import merge_patch, merged
from domain.health_trauma.data import DEFAULT_DATA, HealthTraumaData


# RFC 7396, Appendix A: each example's target, patch and result
RFC_EXAMPLES = [
    ({"a": "b"}, {"a": "c"}, {"a": "c"}),
    ({"a": "b"}, {"b": "c"}, {"a": "b", "b": "c"}),
    ({"a": "b"}, {"a": None}, {}),
    ({"a": "b", "b": "c"}, {"a": None}, {"b": "c"}),
    ({"a": ["b"]}, {"a": "c"}, {"a": "c"}),
    ({"a": "c"}, {"a": ["b"]}, {"a": ["b"]}),
    ({"a": {"b": "c"}}, {"a": {"b": "d", "c": None}}, {"a": {"b": "d"}}),
    ({"a": [{"b": "c"}]}, {"a": [1]}, {"a": [1]}),
    (["a", "b"], ["c", "d"], ["c", "d"]),
    ({"a": "b"}, ["c"], ["c"]),
    ({"a": "foo"}, None, None),
    ({"a": "foo"}, "bar", "bar"),
    ({"e": None}, {"a": 1}, {"e": None, "a": 1}),
    ([1, 2], {"a": "b", "c": None}, {"a": "b"}),
    ({}, {"a": {"bb": {"ccc": None}}}, {"a": {"bb": {}}}),
]


@pytest.mark.parametrize(("target", "patch", "result"), RFC_EXAMPLES)
def test_merge_patch_follows_rfc_7396s_examples(target, patch, result) -> None:
    assert merge_patch(target, patch) == result


def test_a_patch_changes_what_it_names_and_keeps_the_rest() -> None:
    changed = merged(DEFAULT_DATA, {"initiative_die": 12}, HealthTraumaData, "The data")
    assert changed.initiative_die == 12
    assert changed.injury_chart == DEFAULT_DATA.injury_chart  # the GM's chart is not reset
    back = merged(changed, {"initiative_die": None}, HealthTraumaData, "The data")
    assert back.initiative_die == DEFAULT_DATA.initiative_die  # null: the default again


def test_a_patch_that_leaves_an_invalid_document_is_refused() -> None:
    with pytest.raises(RuleViolation) as refused:
        merged(DEFAULT_DATA, {"initiative_die": "twelve"}, HealthTraumaData, "The Health/Trauma data")
    assert refused.value.code == "invalid_settings"
