"""Realms' fold tries its commonest events first (domain/realms/folding.py ``evolve_action``): that is
a speed-up only as long as no event type matches two of its cases, which this checks."""

from __future__ import annotations

import ast
import inspect
import textwrap

from domain.realms import folding
from domain.rulesets import default_registry


def test_each_event_type_matches_one_case_at_most() -> None:
    tree = ast.parse(textwrap.dedent(inspect.getsource(folding.Folding.evolve_action)))
    match = next(n for n in ast.walk(tree) if isinstance(n, ast.Match))
    cases = []
    for case in match.cases:
        patterns = case.pattern.patterns if isinstance(case.pattern, ast.MatchOr) else [case.pattern]
        assert all(isinstance(p, ast.MatchClass) for p in patterns), ast.unparse(case.pattern)
        cases.append(tuple(eval(ast.unparse(p.cls), vars(folding)) for p in patterns))  # the class names, in the module
    realms = default_registry().get("realms")
    for kind in realms.event_types:
        matched = [i for i, classes in enumerate(cases) if issubclass(kind, classes)]
        assert len(matched) <= 1, (kind, matched)
