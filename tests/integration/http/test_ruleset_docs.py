"""What `GET /rulesets/{id}` tells a GM about each command: a summary that is a whole
sentence, in plain words (issue 17: "A summary is a whole sentence a GM understands")."""

from __future__ import annotations

import inspect

from domain.core.summaries import plain
from domain.rulesets import default_registry


def _first_paragraph(kind: type) -> str:
    return plain(inspect.cleandoc(kind.__dict__.get("__doc__") or "").split("\n\n", 1)[0])


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += (ch in "([{") - (ch in ")]}")
        if depth < 0:
            return False
    return depth == 0 and text.count('"') % 2 == 0


async def test_every_command_of_every_ruleset_has_a_whole_plain_sentence(client) -> None:
    rulesets = (await client.get("/rulesets")).json()
    assert {r["id"] for r in rulesets} == {r.id for r in default_registry().all()}
    for listed in rulesets:
        r = await client.get(f"/rulesets/{listed['id']}")
        assert r.status_code == 200, r.text
        ruleset = default_registry().get(listed["id"])
        kinds = {t.__struct_config__.tag: t for t in ruleset.command_types}
        docs = r.json()["commands"]
        assert [d["type"] for d in docs] == list(kinds)
        for doc in docs:
            name, summary = doc["type"], doc["summary"]
            assert summary, f"{name} has no summary"
            assert "`" not in summary, f"{name}: markup in {summary!r}"
            assert summary.endswith("."), f"{name}: {summary!r} does not end with a full stop"
            assert summary[0].isupper(), f"{name}: {summary!r} does not begin a sentence"
            assert _balanced(summary), f"{name}: {summary!r} is cut inside brackets or quotes"
            # not cut: the docstring's first paragraph goes on after it with a new sentence, or ends
            paragraph = _first_paragraph(kinds[name])
            assert paragraph.startswith(summary), f"{name}: {summary!r} is not how its docstring begins"
            rest = paragraph[len(summary):]
            assert rest == "" or rest.startswith(" "), f"{name}: {summary!r} stops in the middle of a word"
