"""Routes served from the read models (``projections/``): the encounter list, an encounter's
summary, its per-combatant statistics.

Read models follow the event log and lag it slightly (usually by milliseconds): an answer
says how far its read model has read (``projected_version`` against the encounter's
``version``). The summary and the statistics are filtered for the caller like every other
read: a player or a spectator gets nothing that involves a hidden combatant (its own row,
and every count of what it did or had done to it), judged by the encounter's current state.

Its routes (``READ_MODEL_ROUTES``) are served beside ``server.http.api.ROUTES`` (``server/app.py``);
it uses the route helpers of ``server.http.api``, which therefore cannot import it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

import msgspec
from litestar import Request, Response, get
from litestar.params import QueryParameter

from domain.core.encounter import EncounterState
from projections import combatant_statistics, encounter_list
from projections.combatant_statistics import CombatantTotals, Totals
from projections.visibility import Scope, Viewer
from server.http.problems import Problem
from server.http.api import GUARDED_READ_ERRORS, JSON, READ_ERRORS, EncounterId, errors, service_of
from server.auth.tokens import authorize, check_operator

_encode = msgspec.json.Encoder().encode
LAG = ("Served from a read model that follows the event log: it lags the log slightly (usually by "
       "milliseconds), so a change just made may not show yet.")


class EncounterSummary(msgspec.Struct, kw_only=True):
    """An encounter as the list shows it. ``combatants``: those everyone sees; ``version``:
    the encounter's version the list has read up to; ``last_activity``: its newest event."""

    id: str
    ruleset: str
    name: str
    status: Literal["setup", "active", "ended"]
    round: int
    combatants: int
    version: int
    created_at: datetime
    last_activity: datetime


class EncounterList(msgspec.Struct, kw_only=True):
    """A page of encounters, newest first; ``total``: how many match the filters."""

    encounters: list[EncounterSummary]
    limit: int
    offset: int
    total: int


class EncounterOverview(msgspec.Struct, kw_only=True):
    """An encounter's summary, for the caller. ``version``: the encounter's current version;
    ``projected_version``: how far the summary has read (0: not yet); ``statistics_version``:
    how far the statistics in ``totals`` and ``sides`` have read. ``combatants``: how many the
    caller sees."""

    encounter_id: str
    ruleset: str
    name: str
    status: Literal["setup", "active", "ended"]
    round: int
    combatants: int
    version: int
    projected_version: int
    statistics_version: int
    created_at: datetime | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None
    last_activity: datetime | None = None
    totals: Totals
    sides: dict[str, Totals]


class EncounterStatistics(msgspec.Struct, kw_only=True):
    """Per-combatant statistics, in the order the combatants joined, for the caller.
    ``projected_version``: how far they have read (0: not yet), against ``version``, the
    encounter's current version."""

    encounter_id: str
    version: int
    projected_version: int
    combatants: list[CombatantTotals]


def unseen(state: EncounterState, viewer: Viewer) -> frozenset[str]:
    """The combatants ``viewer`` may not see: none for the GM; the hidden ones for the others."""
    return frozenset() if viewer.sees_all else Scope.of(state, viewer).hidden


@get("/encounters", opt={"token": "operator"}, operation_id="listEncounters", summary="List encounters", tags=["encounters"], responses=READ_ERRORS | errors(401, 403),
     description="Newest first, filtered and paged. When the server has an operator key, this needs it. " + LAG)
async def list_encounters(
    request: Request,
    limit: Annotated[int, QueryParameter(ge=1, le=500, description="At most this many encounters.")] = 50,
    offset: Annotated[int, QueryParameter(ge=0, le=2_147_483_647,
                                          description="Skip this many (the next page: offset + limit).")] = 0,
    ruleset: Annotated[str | None, QueryParameter(max_length=64, description="Only this ruleset's.")] = None,
    status: Annotated[Literal["setup", "active", "ended"] | None, QueryParameter(
        description="Only those being set up, fought, or over.")] = None,
    name: Annotated[str | None, QueryParameter(min_length=1, max_length=200,
                                               description="Only those whose name contains this (any case).")] = None,
) -> Response[EncounterList]:
    check_operator(request)
    for field, text in (("ruleset", ruleset), ("name", name)):
        if text is not None and "\x00" in text:  # PostgreSQL's text holds no NUL: no name or ruleset has one
            raise Problem(400, "invalid_query", "Invalid query",
                          f"`{field}` may not contain the NUL character (U+0000).")
    rows, total = await encounter_list.page(request.app.state.pool, encounter_list.Filters(ruleset, status, name),
                                            limit, offset)
    page = EncounterList(
        encounters=[
            EncounterSummary(id=r.encounter_id, ruleset=r.ruleset, name=r.name, status=r.status,  # type: ignore[arg-type]
                             round=r.round, combatants=r.combatants, version=r.version,
                             created_at=r.created_at, last_activity=r.last_activity)  # type: ignore[arg-type]
            for r in rows
        ],
        limit=limit, offset=offset, total=total,
    )
    return Response(content=_encode(page), media_type=JSON)


@get("/encounters/{encounter_id:uuid}/summary", opt={"token": "encounter"}, operation_id="getSummary",
     summary="An encounter's summary", tags=["read models"],
     responses=GUARDED_READ_ERRORS,
     description="Status, round, combatants, when it started and ended, its last activity, and the totals of the "
                 "statistics, for the whole encounter and by side. " + LAG + " Filtered for the caller: players and "
                 "spectators get no count that involves a hidden combatant.")
async def encounter_summary(request: Request, encounter_id: EncounterId) -> Response[EncounterOverview]:
    enc = str(encounter_id)
    principal = await authorize(request, enc)
    state = await service_of(request).current(enc)
    pool = request.app.state.pool
    row = await encounter_list.one(pool, enc)
    stats = await combatant_statistics.statistics(pool, enc, unseen(state, principal.viewer))
    listed = row or encounter_list.Listed(enc, ruleset=state.ruleset, name=state.name)
    seen = listed.combatants + (listed.hidden_combatants if principal.viewer.sees_all else 0)
    overview = EncounterOverview(
        encounter_id=enc, ruleset=listed.ruleset, name=listed.name, status=listed.status,  # type: ignore[arg-type]
        round=listed.round, combatants=seen, version=state.version, projected_version=listed.version,
        statistics_version=stats.version, created_at=listed.created_at, started_at=listed.started_at,
        ended_at=listed.ended_at, last_activity=listed.last_activity,
        totals=combatant_statistics.totals(stats.combatants), sides=combatant_statistics.by_side(stats.combatants),
    )
    return Response(content=_encode(overview), media_type=JSON)


@get("/encounters/{encounter_id:uuid}/statistics", opt={"token": "encounter"},
     operation_id="getStatistics", summary="Per-combatant statistics", tags=["read models"],
     responses=GUARDED_READ_ERRORS,
     description="For each combatant: attacks made and landed, Hits dealt and taken, defences tried and won, "
                 "Action Points spent, rolls and their outcome classes. " + LAG + " Filtered for the caller: "
                 "players and spectators do not see a hidden combatant's statistics, nor any count of what it "
                 "did or had done to it.")
async def encounter_statistics(request: Request, encounter_id: EncounterId) -> Response[EncounterStatistics]:
    enc = str(encounter_id)
    principal = await authorize(request, enc)
    state = await service_of(request).current(enc)
    stats = await combatant_statistics.statistics(request.app.state.pool, enc, unseen(state, principal.viewer))
    body = EncounterStatistics(encounter_id=enc, version=state.version, projected_version=stats.version,
                               combatants=stats.combatants)
    return Response(content=_encode(body), media_type=JSON)


READ_MODEL_ROUTES = [list_encounters, encounter_summary, encounter_statistics]
