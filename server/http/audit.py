"""``GET /encounters/{id}/audit``: the audit of an encounter's log, for any of its tokens.

The audit itself is ``projections/audit.py`` (pure; ``fracas verify`` runs the same code on
an export file). It always checks the whole log, hidden events included: a chain with a
hole proves nothing. What a player or a spectator is told of it is filtered here:

- a problem about an event they may not see whole (one shown to them as ``Redacted``, or
  holding a secret roll not yet revealed) gives its version and ``code`` only: no detail,
  no die, no face (the plain explanation of the code stands in for the detail);
- a problem with a die a hidden combatant rolled (``DieRoll.by``) is told the same way;
- the counts of dice are the GM's (like ``rolls_used`` in the state, they would tell of the
  hidden combatants' rolls); everyone gets whether the dice are verified.

Its routes (``AUDIT_ROUTES``) are served beside ``server.http.api.ROUTES`` (``server/app.py``); it
uses the route helpers of ``server.http.api``, which therefore cannot import it.
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request, Response, get

from domain.core.encounter import EncounterState
from projections.audit import AUDIT_CODES, AuditProblem, AuditReport, DiceReport, audit
from projections.chain import row_from
from projections.visibility import Scope, Viewer, event_data_for
from server.http.api import GUARDED_READ_ERRORS, JSON, EncounterId, service_of
from server.auth.tokens import authorize

_encode = msgspec.json.Encoder().encode


def report_for(report: AuditReport, records: list[Any], state: EncounterState, viewer: Viewer) -> AuditReport:
    """The report as ``viewer`` may read it (the GM reads it whole)."""
    if viewer.sees_all:
        return report
    scope = Scope.of(state, viewer)
    unseen = set(scope.secret_versions) | {r["version"] for r in records if not _seen_whole(r, scope)}

    def told(p: AuditProblem) -> AuditProblem:
        if p.version in unseen or (p.die is not None and p.die.by in scope.hidden):
            return AuditProblem(version=p.version, code=p.code, detail=AUDIT_CODES[p.code])
        return p

    problems = [told(p) for p in report.problems]
    return msgspec.structs.replace(
        report, problems=problems, first=problems[0] if problems else None,
        dice=DiceReport(seeded=None, reported=None, rederived=None, verified=report.dice.verified),
    )


def _seen_whole(record: Any, scope: Scope) -> bool:
    try:
        data = msgspec.json.decode(record["data"])
        return isinstance(data, dict) and event_data_for(record["version"], data, scope) is not None
    except msgspec.DecodeError:
        return False


@get("/encounters/{encounter_id:uuid}/audit", opt={"token": "encounter"}, operation_id="auditEncounter",
     summary="Audit the encounter's log", tags=["encounters"],
     responses=GUARDED_READ_ERRORS,
     description="Checks the hash chain of every event and, once the dice seed is revealed (the encounter "
                 "has ended), derives every seeded roll again from it and compares it with the stored face. "
                 "`ok` is false when a check fails; `first` names the earliest failing version and `code`. "
                 "Any token of the encounter may audit it; a player or spectator is told only the version and "
                 "code of a problem in an event they may not see, and not the dice counts.")
async def audit_encounter(request: Request, encounter_id: EncounterId) -> Response[AuditReport]:
    enc = str(encounter_id)
    principal = await authorize(request, enc)
    service = service_of(request)
    ruleset = await service.ruleset_of(enc)
    records = await service.store.read(enc, 0)
    report = audit(enc, ruleset, [row_from(r) for r in records]).report
    if not principal.viewer.sees_all:
        report = report_for(report, records, await service.current(enc), principal.viewer)
    return Response(content=_encode(report), media_type=JSON)


AUDIT_ROUTES = [audit_encounter]
