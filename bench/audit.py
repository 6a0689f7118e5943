"""``python -m bench.audit``: how long the audit takes, by the length of a fight.

Random Places of Power fights (``bench.fights``: seeded dice, attack exchanges, checks; the
GM ends each, so the seed is revealed and every seeded roll is derived again) are chained
as the store writes them; then, for each size, it times:

- ``audit``: the pure audit (``projections/audit.py``) over the rows, as
  ``GET /encounters/{id}/audit`` runs it once the rows are read;
- ``file``: ``fracas verify``'s work without the process start: render the export file,
  parse it back, audit it.

Figures only, no assertion. ``--repeat`` runs per size (the best is shown).
"""

from __future__ import annotations

import argparse
import random

from bench.fights import random_fight
from bench.timing import best
from domain.rulesets import default_registry
from projections.audit import audit
from projections.export_file import Header, parse, render, verify
from server.store.events import GENESIS_HASH, chain


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, nargs="+", default=[25, 100, 400])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    registry = default_registry()
    print(f"{'steps':>6} {'events':>7} {'seeded':>7} {'audit ms':>9} {'events/s':>9} {'file ms':>8} {'events/s':>9}")
    for steps in args.steps:
        fight = random_fight(random.Random(args.seed), steps=steps, combatants=4, end=True)
        rows = chain(fight.encounter_id, GENESIS_HASH, 1, fight.events, {"actor": {"role": "gm"}},
                     fight.ruleset.schema_versions)
        report = audit(fight.encounter_id, fight.ruleset, rows).report
        assert report.ok and report.dice.verified, report.first
        header = Header(format="fracas-encounter", format_version=1, encounter_id=fight.encounter_id,
                        ruleset=fight.ruleset.id, name="bench", created_at=rows[0].recorded_at,
                        seed_commitment=report.seed.commitment, seed=fight.seed.hex(), seed_revealed=True,
                        version=len(rows), head_hash=rows[-1].hash.hex(), exported_at=rows[-1].recorded_at)

        def whole_file() -> None:
            lines = b"".join(render(header, rows)).splitlines(keepends=True)  # noqa: B023
            assert verify(parse(lines), registry).report.ok

        a = best(args.repeat, lambda: audit(fight.encounter_id, fight.ruleset, rows))  # noqa: B023
        f = best(args.repeat, whole_file)
        n = len(rows)
        print(f"{steps:>6} {n:>7} {report.dice.seeded:>7} {a * 1000:>9.1f} {n / a:>9.0f} {f * 1000:>8.1f} {n / f:>9.0f}")


if __name__ == "__main__":
    main()
