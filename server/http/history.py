"""History routes: the state at any version (time travel) and the readable log.

- ``GET /encounters/{id}/state``: the current state; ``?at=N``: the state as it was after
  event N, replayed from the stored events with the encounter's ruleset. Filtered for the
  caller as of N (``state_for`` on the state at N): what was hidden then stays hidden.
- ``GET /encounters/{id}/log``: the readable log (``projections/readable_log.py``) of the
  events the caller may see, as JSON or, with ``Accept: text/plain`` or ``?format=text``,
  as plain text.
- ``GET /encounters/{id}/timeline.svg``: the fight as a picture (``projections/timeline.py``),
  drawn from what the caller may see. The token may also come as ``?token=``, as the live
  stream's does (a link opens it in a browser tab, which sends no header; never logged:
  ``server.auth.redaction``).

Its routes (``HISTORY_ROUTES``) are served beside ``server.http.api.ROUTES`` (``server/app.py``);
it uses the route helpers of ``server.http.api``, which therefore cannot import it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

import msgspec
from litestar import Request, Response, get
from litestar.openapi.spec import OpenAPIMediaType, Operation, Reference, Schema
from litestar.openapi.spec.enums import OpenAPIType
from litestar.params import QueryParameter

from domain.core.encounter import EncounterState
from domain.core.ruleset import Ruleset
from projections import timeline
from projections.event_log import effective_versions
from projections.readable_log import LogEntry, LogEvent, as_text, render
from projections.visibility import Scope, state_for
from server.http.api import ETAG, GUARDED_READ_ERRORS, JSON, EncounterId, service_of
from server.auth.tokens import authorize
from server.store.encounters import EventView, event_view, visible_events

TEXT = "text/plain"  # Litestar adds "; charset=utf-8" to text/* itself
SVG = "image/svg+xml"
_encode = msgspec.json.Encoder().encode


@dataclass
class _JsonOrTextOperation(Operation):
    """The log's 200 in the OpenAPI document: JSON, or plain text when asked for."""

    def __post_init__(self) -> None:
        ok = self.responses.get("200") if self.responses else None
        if ok is not None and not isinstance(ok, Reference) and ok.content is not None:
            ok.content[TEXT] = OpenAPIMediaType(schema=Schema(type=OpenAPIType.STRING))


class EncounterLog(msgspec.Struct, kw_only=True):
    """The readable log: one entry per step, oldest first, up to ``version``."""

    encounter_id: str
    version: int
    entries: list[LogEntry]


@get("/encounters/{encounter_id:uuid}/state", opt={"token": "encounter"}, operation_id="getState",
     response_headers=ETAG,
     summary="State of an encounter, now or at a version",
     tags=["history"], responses=GUARDED_READ_ERRORS,
     description="Without `at`: the current state (as `GET /encounters/{id}`). With `at=N`: the state as it was "
                 "after event N (1 to the current version), replayed from the stored events; its `version` is N. "
                 "A version past the current one is 404 `version_not_found`; below 1, 400 `invalid_parameter`. "
                 "Filtered for the caller as of N: players and spectators do not see what was hidden then.")
async def get_state(
    request: Request,
    encounter_id: EncounterId,
    at: Annotated[int | None, QueryParameter(ge=1, le=2_147_483_647,
                                             description="The version to go back to (1 .. current).")] = None,
) -> Response[EncounterState]:
    enc = str(encounter_id)
    principal = await authorize(request, enc)
    service = service_of(request)
    if at is None:
        state = await service.current(enc)
        headers = {"ETag": f'"{state.version}"'}
    else:
        state = await service.state_at(enc, at)
        headers = {}
    return Response(content=_encode(state_for(state, principal.viewer)), media_type=JSON, headers=headers)


@get("/encounters/{encounter_id:uuid}/log", opt={"token": "encounter"}, operation_id="getLog", summary="The readable log", tags=["history"],
     responses=GUARDED_READ_ERRORS, operation_class=_JsonOrTextOperation,
     description="One sentence per step in the game's words (\"Mira attacks the Bandit: a heavy attack with the "
                 "Sabre at Melee range (2 AP). 16 against Normal: a Full Success, two extra Successes.\"), "
                 "with the versions it tells, the round, and whether a retcon undid it. Filtered for the "
                 "caller: an event they may not see is \"Something happened out of sight.\" JSON by default; "
                 "plain text (one line each) with `Accept: text/plain` or `format=text`.")
async def get_log(
    request: Request,
    encounter_id: EncounterId,
    format: Annotated[Literal["json", "text"] | None, QueryParameter(  # noqa: A002 - the parameter's name
        description="`text` for plain text; without it, the `Accept` header chooses (JSON by default).")] = None,
) -> Response[EncounterLog]:
    enc = str(encounter_id)
    principal = await authorize(request, enc)
    service = service_of(request)
    state = await service.current(enc)  # read first: the events read next are judged by a state at least as new
    views = [event_view(r) for r in await service.store.read(enc, 0, state.version)]
    views = visible_events(views, state, principal.viewer)
    ruleset = await service.ruleset_of(enc)
    entries = render([log_event(v, ruleset) for v in views], ruleset)
    if (format or _preferred(request)) == "text":
        return Response(content=as_text(entries), media_type=TEXT)
    return Response(content=_encode(EncounterLog(encounter_id=enc, version=state.version, entries=entries)),
                    media_type=JSON)


def _preferred(request: Request) -> str:
    best = request.accept.best_match(["application/json", "text/plain"], default="application/json")
    return "text" if best == "text/plain" else "json"


def log_event(view: EventView, ruleset: Ruleset) -> LogEvent:
    """An event as the caller may see it, its payload upcast to the current shape where the
    rules changed it since it was written."""
    data: Any = msgspec.json.decode(view.data)
    current = ruleset.schema_versions.get(view.type, 1)
    version = view.schema_version
    try:
        while version < current:
            data = ruleset.upcasters[(view.type, version)](data)
            version += 1
    except (KeyError, TypeError, ValueError):  # a filtered payload the upcaster cannot read: as stored
        data = msgspec.json.decode(view.data)
    return LogEvent(version=view.version, type=view.type, data=data if isinstance(data, dict) else {},
                    metadata=msgspec.json.decode(view.metadata))


@dataclass
class _SvgOperation(Operation):
    """The timeline's 200 in the OpenAPI document: an SVG picture."""

    def __post_init__(self) -> None:
        ok = self.responses.get("200") if self.responses else None
        if ok is not None and not isinstance(ok, Reference):
            ok.content = {SVG: OpenAPIMediaType(schema=Schema(type=OpenAPIType.STRING))}


@dataclass(frozen=True)
class _Stood:
    """What ``effective_versions`` reads of a stored event."""

    version: int
    type: str
    data: dict[str, Any]


QueryToken = Annotated[str | None, QueryParameter(description=(
    "The token, where the client cannot send `Authorization: Bearer` (a link opened in a browser tab). "
    "Checked as the header's is; never logged."))]
# a picture opened in a tab by a link that holds a token: kept by no cache, its address sent to no
# one, and nothing in it may run or load anything (its text is escaped: this is belt and braces)
_TAB_HEADERS = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
                "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"}


@get("/encounters/{encounter_id:uuid}/timeline.svg", opt={"token": "encounter"}, operation_id="getTimeline",
     summary="The fight's timeline (SVG)", tags=["history"], responses=GUARDED_READ_ERRORS,
     operation_class=_SvgOperation, media_type=SVG,
     description="The fight as a picture: rounds across, combatants down, a mark for each attack, action, hit, "
                 "decision and turn's end, each with a tooltip (`<title>`), a letter and a shape as well as a "
                 "colour. Filtered for the caller: a combatant hidden from them has no row, and nothing it did "
                 "or had done to it is marked; what a retcon undid is not drawn. Same history, same bytes. "
                 "The token: `Authorization: Bearer` or `?token=` (a link a browser tab opens), checked alike.")
async def get_timeline(request: Request, encounter_id: EncounterId, token: QueryToken = None) -> Response[str]:
    enc = str(encounter_id)
    principal = await authorize(request, enc, query_token=True)
    service = service_of(request)
    state = await service.current(enc)
    ruleset = await service.ruleset_of(enc)
    rows = await service.store.read(enc, 0, state.version)
    views = [event_view(r) for r in rows]
    standing = effective_versions([_Stood(v.version, v.type, msgspec.json.decode(v.data)) for v in views])
    events = [(v.version, ruleset.decode_event(v.type, v.schema_version, v.data)) for v in views
              if v.version in standing and v.type != "Retconned"]
    if principal.viewer.sees_all:
        hidden: frozenset[str] = frozenset()
        marks = timeline.marks(ruleset, events, hidden, lambda _: False)
    else:
        scope = Scope.of(state, principal.viewer)
        hidden = scope.hidden
        marks = timeline.marks(ruleset, events, hidden, scope.redacts)
    seen = {cid: c for cid, c in state.combatants.items() if cid not in hidden}
    picture = timeline.svg(state.name, timeline.rows_of(seen, state.order), marks)
    headers = {"ETag": f'"{state.version}"', **(_TAB_HEADERS if token is not None else {})}
    return Response(content=picture, media_type=SVG, headers=headers)


HISTORY_ROUTES = [get_state, get_log, get_timeline]
