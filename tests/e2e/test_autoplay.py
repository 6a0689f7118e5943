"""``fracas autoplay`` as a user runs it: a real ``fracas serve`` and the autoplay as a second
process with none of the server's settings, playing whole fights from the next moves alone
(issue 37: "fights finished, commands, stalls, refused offers, 5xx"). One fight per ruleset here;
the target of 50 seeds each is ``python -m bench.autoplay``."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from domain.rulesets import default_registry
from tests.e2e.test_cli import serving
from tests.e2e.test_demo import bare

RULESETS = [r.id for r in default_registry().all()]
LINE = re.compile(r"fights finished: (\d+)/(\d+), commands: (\d+), stalls: (\d+), refused offers: (\d+), 5xx: (\d+)")


def autoplay(base: str, ruleset: str, fights: int, seed: int = 0) -> tuple[int, tuple[int, ...], str]:
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "autoplay", "--ruleset", ruleset, "--url", base,
         "--fights", str(fights), "--seed", str(seed)],
        capture_output=True, text=True, timeout=1800, env=bare())
    found = LINE.search(done.stdout)
    assert found, (done.stdout, done.stderr[-2000:])
    return done.returncode, tuple(int(x) for x in found.groups()), done.stderr


@pytest.fixture
def env(database_url: str) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": database_url}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_autoplay_plays_a_whole_fight_from_the_offers_alone(env: dict[str, str], ruleset: str) -> None:
    with serving(env) as (base, _):
        code, (finished, fights, commands, stalls, refused, errors), err = autoplay(base, ruleset, 1)
    assert (finished, fights) == (1, 1), err[-2000:]
    assert commands > 10
    assert (stalls, refused, errors) == (0, 0, 0), err[-2000:]
    assert code == 0
