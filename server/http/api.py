"""HTTP routes. Bodies are decoded strictly by msgspec from the raw bytes ("3" is not 3);
``opt={"body": T}`` tells the OpenAPI document which schema the body follows."""

from __future__ import annotations

import asyncio
import re
import time
import uuid
from typing import Annotated, Any, Literal

import msgspec
from litestar import Request, Response, delete, get, post
from litestar.datastructures import ResponseHeader
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import HeaderParameter, PathParameter, QueryParameter
from litestar.response import Redirect

from domain.core.dice import DICE_POLICIES
from domain.core.coverage import Section
from domain.core.encounter import AddCombatant, Controller, RollInitiative
from domain.core.ruleset import CommandInfo, Sender
from domain.core.summaries import summary_of
from domain.core.next_moves import NextMoves
from projections.actions import actions_for
from projections.presence import EncounterView, presence_for, with_presence
from projections.visibility import state_for
from server.auth.tokens import IssuedToken, TokenStore, TokenView, authorize, check_command, check_operator
from server.store.encounters import (
    CommandResult,
    EncounterService,
    EventView,
    OpenedEncounter,
    Reply,
    Write,
    event_view,
    request_hash,
    visible_events,
)
from server.http.lan import console_link, player_link, spectator_link
from server.live.presence import live_connections
from server import metrics
from server.http.problems import (
    PROBLEM_JSON, Problem, ProblemDetails, database_unavailable, decode_body, decode_query, status_of,
)

# ---------------------------------------------------------------------------- bodies


class OpenEncounterRequest(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Open an encounter. ``dice_policy``: ``seeded`` (the server rolls verifiable dice),
    ``reported`` (clients report every face), or ``mixed`` (reported when given, else seeded)."""

    ruleset: str
    name: str
    dice_policy: Literal["seeded", "reported", "mixed"] = "seeded"


class NewCombatant(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A combatant joining the encounter; ``sheet`` follows the ruleset's sheet schema."""

    name: str
    side: str
    controller: Controller
    sheet: dict[str, Any] = msgspec.field(default_factory=dict)
    hidden: bool = False


class NewToken(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A player token acts for its combatants (one or more); a spectator token only reads."""

    role: Literal["player", "spectator"]
    combatant_ids: Annotated[list[str], msgspec.Meta(max_length=50)] = msgspec.field(default_factory=list)
    label: Annotated[str, msgspec.Meta(max_length=100)] = ""


class EventPage(msgspec.Struct, kw_only=True):
    """Events after ``after``, oldest first; ask again with ``after=next_after`` while ``has_more``."""

    events: list[EventView]
    next_after: int
    has_more: bool


class RulesetSummary(msgspec.Struct, kw_only=True):
    id: str
    name: str


class CommandDoc(msgspec.Struct, kw_only=True):
    type: str
    summary: str
    json_schema: dict[str, Any]
    # who may send it: the GM, and a player for their own combatants where listed
    senders: list[Sender]
    # the field naming the combatant who acts (a player's own), or None for a GM's command
    actor_field: str | None = None
    # in a ``reported`` encounter, the faces ``dice`` takes, in order, in words
    dice: str = ""
    # a settings command: the JSON Schema of the document its ``data`` patches (RFC 7396), each default shown
    settings_schema: dict[str, Any] | None = None


class CombatantExample(msgspec.Struct, kw_only=True):
    """A ready-to-send body for ``POST /encounters/{id}/combatants``."""

    label: str
    body: NewCombatant


class RulesetInfo(msgspec.Struct, kw_only=True):
    """What a frontend needs to build its menus for a ruleset."""

    id: str
    name: str
    dice_policies: list[str]
    commands: list[CommandDoc]
    actions: list[CommandInfo]
    sheet_schema: dict[str, Any]
    violation_codes: dict[str, str]
    coverage: list[Section] | None = None
    # the rule texts the coverage table follows, by chapter (files of the project's shared rules)
    rule_texts: dict[str, str] = msgspec.field(default_factory=dict)
    # ready-to-send combatants: a player character, a weak NPC and a strong NPC
    examples: list[CombatantExample] = msgspec.field(default_factory=list)
    # what actions spend (an action's ``cost``, ``Combatant.resources``; ``AP``: ``action_points``), in the game's words
    resources: dict[str, str] = msgspec.field(default_factory=dict)


class Health(msgspec.Struct, kw_only=True):
    status: str
    database: str


# ---------------------------------------------------------------------------- helpers

JSON = "application/json"
_encode = msgspec.json.Encoder().encode
_open_decoder = msgspec.json.Decoder(OpenEncounterRequest)
_combatant_decoder = msgspec.json.Decoder(NewCombatant)
_token_decoder = msgspec.json.Decoder(NewToken)

EncounterId = Annotated[uuid.UUID, PathParameter(
    description="The encounter's id (`encounter_id` in the answer to `POST /encounters`).")]
TokenId = Annotated[uuid.UUID, PathParameter(
    description="The token's id (`id` in the answer to `POST /encounters/{encounter_id}/tokens`).")]
RulesetId = Annotated[str, PathParameter(description="The ruleset's id, such as `places-of-power` (see `GET /rulesets`).")]
IfMatch = Annotated[
    str | None,
    HeaderParameter(name="If-Match", required=False, description="The version the command was decided on, as the ETag shows it. A stale one gets 412."),
]
IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key", required=False, min_length=1, max_length=200,
        description="A retry with the same key returns the first answer and appends nothing.",
    ),
]
_ERROR_TEXT = {
    400: "Malformed JSON, a bad parameter or header.",
    401: "No token, or an unknown or revoked one.",
    403: "The token may not do this (another encounter, read-only, not the GM, not your combatant).",
    404: "No such encounter, ruleset or route.",
    412: "If-Match named a version that is no longer current.",
    413: "The request body is too large.",
    422: "The body does not match the schema, or the rules refuse the command (see `code`).",
    429: "Too many requests with this token (or, without a valid one, from this address): wait `Retry-After` "
         "seconds.",
    500: "A server fault.",
    503: "The database is unavailable (`database_unavailable`: send it again after `Retry-After` seconds; a write "
         "with the same Idempotency-Key is recorded once), or the encounter is too busy (`encounter_busy`).",
}


def errors(*statuses: int) -> dict[int, ResponseSpec]:
    """Problem-details responses (RFC 9457) for the OpenAPI document."""
    return {
        s: ResponseSpec(
            data_container=ProblemDetails, media_type=PROBLEM_JSON, description=_ERROR_TEXT[s], generate_examples=False
        )
        for s in statuses
    }


READ_ERRORS = errors(400, 404, 500, 503)
WRITE_ERRORS = errors(400, 404, 412, 413, 422, 500, 503)
GUARDED_READ_ERRORS = READ_ERRORS | errors(401, 403, 429)
GUARDED_WRITE_ERRORS = WRITE_ERRORS | errors(401, 403, 429)
ETAG = [ResponseHeader(name="ETag", description="The encounter's version.", documentation_only=True)]


def service_of(request: Request) -> EncounterService:
    return request.app.state.service


def tokens_of(request: Request) -> TokenStore:
    return request.app.state.tokens


def parse_if_match(value: str | None) -> int | None:
    """``If-Match: "7"`` (the ETag), ``7``, or ``*`` (any version). Weak tags do not match:
    If-Match compares strongly (RFC 9110)."""
    if value is None or value.strip() == "*":
        return None
    m = _ETAG.fullmatch(value.strip())
    if m is None:
        raise Problem(400, "invalid_if_match", "Invalid If-Match", "If-Match takes the encounter's ETag, such as \"7\".")
    return int(m.group(1))


_ETAG = re.compile(r'"?([0-9]{1,10})"?')


class JsonReply(Response[Any]):
    """A reply whose body is JSON already: it goes out as the two ASGI messages, headers written
    once here, without the general response machinery (header mappings, content negotiation,
    rendering), which cost about 5% of a command's CPU (bench/README.md)."""

    def __init__(self, body: bytes, status: int, headers: list[tuple[bytes, bytes]]) -> None:
        self._asgi = _RawReply(status, body, headers)

    def to_asgi_response(self, app: Any, request: Any, **_: Any) -> Any:
        return self._asgi


class _RawReply:
    __slots__ = ("start", "body")

    def __init__(self, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
        self.start = {"type": "http.response.start", "status": status, "headers": [
            (b"content-type", JSON_BYTES), (b"content-length", b"%d" % len(body)), *headers]}
        self.body = {"type": "http.response.body", "body": body, "more_body": False}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await send(self.start)
        await send(self.body)


JSON_BYTES = JSON.encode()


class MinimalResult(msgspec.Struct, kw_only=True):
    """A write's answer under ``Prefer: return=minimal`` (RFC 7240): its events and the new
    version, without the state (read it, or follow the live stream's patches)."""

    encounter_id: str
    version: int
    events: msgspec.Raw


_minimal_decoder = msgspec.json.Decoder(MinimalResult)


def wants_minimal(request: Request) -> bool:
    """Whether the request's ``Prefer`` header asks for ``return=minimal``."""
    prefer = request.headers.get("prefer", "")
    return any(p.strip().lower() == "return=minimal" for part in prefer.split(",") for p in part.split(";"))


def reply(r: Reply, location: str | None = None, minimal: bool = False) -> Response[Any]:
    headers = [(b"etag", b'"%d"' % r.version), (b"vary", b"Prefer")]
    if location:
        headers.append((b"location", location.encode()))
    body = r.body
    if minimal:
        body = _encode(_minimal_decoder.decode(body))
        headers.append((b"preference-applied", b"return=minimal"))
    return JsonReply(body, r.status, headers)


def public_base(request: Request) -> str:
    """Where the pages are reached, for the links an answer carries: ``FRACAS_PUBLIC_URL`` (a
    server behind a proxy; ``fracas serve --lan`` sets the address it prints), else the
    request's own scheme, host and port (what the caller reached this server by)."""
    configured: str | None = request.app.state.settings.public_url
    return configured or str(request.base_url).rstrip("/")


def token_link(base: str, encounter_id: str, issued: IssuedToken) -> str:
    """The page a token's holder opens, the token in the link's fragment."""
    if issued.role == "gm":
        return console_link(base, encounter_id, issued.token)
    if issued.role == "player":
        return player_link(base, encounter_id, issued.combatant_ids, issued.token)
    return spectator_link(base, encounter_id, issued.token)


def with_console_link(r: Reply, base: str) -> Reply:
    """The answer to an open with the GM's console link in ``gm_token.link`` (made now: the stored
    answer a retry replays holds no secret, and the secret is issued anew for the retry)."""
    fields = msgspec.json.decode(r.body, type=dict[str, msgspec.Raw])  # the rest passed on as it is
    gm = msgspec.json.decode(fields["gm_token"], type=IssuedToken)
    gm.link = token_link(base, r.encounter_id, gm)
    fields["gm_token"] = msgspec.Raw(_encode(gm))
    return Reply(r.status, _encode(fields), r.version, r.encounter_id)


# ---------------------------------------------------------------------------- routes


@post("/encounters", opt={"body": OpenEncounterRequest, "token": "operator"}, operation_id="openEncounter",
      status_code=201, response_headers=ETAG,
      summary="Open an encounter", tags=["encounters"], responses=WRITE_ERRORS | errors(401, 403),
      description="Returns the encounter and its GM token (`gm_token.token`, shown once). When the server has "
                  "an operator key, send it as `Authorization: Bearer <key>`.")
async def open_encounter(request: Request, idempotency_key: IdempotencyKey = None) -> Response[OpenedEncounter]:
    check_operator(request)
    body = await request.body()
    req: OpenEncounterRequest = decode_body(_open_decoder, body, "invalid_body")
    r = await service_of(request).open(req.ruleset, req.name, req.dice_policy, idempotency_key=idempotency_key, body=body)
    return reply(with_console_link(r, public_base(request)), f"/encounters/{r.encounter_id}")


@get("/encounters/{encounter_id:uuid}", opt={"token": "encounter"}, operation_id="getEncounter",
     response_headers=ETAG, summary="Current state of an encounter",
     tags=["encounters"], responses=GUARDED_READ_ERRORS,
     description="Filtered for the caller: players and spectators do not see hidden combatants, NPC sheets "
                 "or unrevealed secret rolls. While anyone is connected to the live stream, `presence` says who "
                 "(the GM sees each connection; players and spectators the count by role and which combatants' "
                 "players are there).")
async def get_encounter(request: Request, encounter_id: EncounterId) -> Response[EncounterView]:
    enc = str(encounter_id)
    principal = await authorize(request, enc)
    state, connected = await asyncio.gather(service_of(request).current(enc), live_connections(request, enc))
    body = _encode(state_for(state, principal.viewer))
    presence = presence_for(connected, state, principal.viewer) if connected else None
    if presence is not None and presence.anyone:  # who is at the table: see projections/presence.py
        body = with_presence(body, presence)
    return Response(content=body, media_type=JSON, headers={"ETag": f'"{state.version}"'})


@get("/encounters/{encounter_id:uuid}/actions", opt={"token": "encounter"}, operation_id="getActions",
     response_headers=ETAG, summary="What the fight waits on, and the caller's next moves",
     tags=["encounters"], responses=GUARDED_READ_ERRORS,
     description="For the caller's token: `waiting_on` (who the fight waits on and for what; never empty while "
                 "the fight is not `over` and someone must act) and `actions`, every move the caller may make now. "
                 "Each action's `command` is a complete body for `POST /encounters/{encounter_id}/commands`, accepted "
                 "exactly as sent (in a `reported` encounter with the faces its `dice` list, in order, in "
                 "`command.dice`; an open roll's further dice follow its rule, and a die that hangs on how the "
                 "listed ones fell is asked for by a `dice_missing` refusal naming it). `kind`: `decision` (an "
                 "answer to what the fight waits on), `move` (the acting combatant's), `lifecycle` (add, roll "
                 "initiative, start, end) or `gm` (a ruling with free values: `parameters` is the JSON Schema of "
                 "the fields a client may change, each with its default). `cost`: what it spends, by resource "
                 "(`AP` where the game counts Action Points). A player's list names nothing hidden from them; "
                 "a spectator is offered nothing. `id` is stable while the version stays the same. `out_of_fight`: "
                 "the combatants the caller sees whom the rules count out of the fight (what `over` is judged by).")
async def get_actions(request: Request, encounter_id: EncounterId) -> Response[NextMoves]:
    enc = str(encounter_id)
    principal = await authorize(request, enc)
    service = service_of(request)
    state = await service.current(enc)
    live = getattr(request.app.state, "live", None)  # the live feed's, when it is at this version
    moves = live.next_moves(enc, principal.viewer, state.version) if live is not None else None
    if moves is None:
        moves = actions_for(service.registry.get(state.ruleset), state, principal.viewer)
    return Response(content=_encode(moves), media_type=JSON, headers={"ETag": f'"{state.version}"'})


@post("/encounters/{encounter_id:uuid}/combatants", opt={"body": NewCombatant, "token": "gm"},
      operation_id="addCombatant", status_code=201, response_headers=ETAG, summary="Add a combatant (GM)",
      tags=["encounters"], responses=GUARDED_WRITE_ERRORS,
      description="Before or during the fight (one who joins a fight in progress acts last in the round). "
                  "`sheet` follows the ruleset's sheet schema (`sheet_schema` in `GET /rulesets/{ruleset_id}`); "
                  "a `hidden` combatant (an ambush) is seen by the GM only until `RevealCombatant`. The answer "
                  "holds the events, among them `CombatantAdded` with the new `combatant_id`, and the new state.")
async def add_combatant(
    request: Request, encounter_id: EncounterId, if_match: IfMatch = None, idempotency_key: IdempotencyKey = None
) -> Response[CommandResult]:
    enc = str(encounter_id)
    principal = await authorize(request, enc, write=True, gm_only=True)
    try:
        body = await request.body()
        new: NewCombatant = decode_body(_combatant_decoder, body, "invalid_body")
        command = AddCombatant(name=new.name, side=new.side, controller=new.controller, sheet=new.sheet,
                               hidden=new.hidden)
        write = Write(principal, parse_if_match(if_match), idempotency_key,
                      request_hash("POST combatants", body) if idempotency_key is not None else b"", 201)
        return reply(await service_of(request).execute(enc, command, write), minimal=wants_minimal(request))
    except Exception as exc:  # a refusal is an answer only while the token is valid
        await tokens_of(request).may_answer(principal, exc)
        raise


@post("/encounters/{encounter_id:uuid}/commands", opt={"body": "commands", "token": "actor"},
      operation_id="sendCommand", status_code=200,
      response_headers=ETAG, summary="Send a command", tags=["encounters"], responses=GUARDED_WRITE_ERRORS,
      description="A tagged union on `type`: the commands of the encounter's ruleset (see "
                  "`GET /rulesets/{ruleset_id}`). A player token may send the commands its own combatants act "
                  "in; the rest are the GM's. The examples, in order, play the start of a fight in the "
                  "encounter that the example of `POST /encounters` opens. `GET /encounters/{encounter_id}/actions` "
                  "offers every command the caller may send now, complete. With `Prefer: return=minimal` "
                  "(RFC 7240) the answer is the events and the version, without the state.")
async def send_command(
    request: Request, encounter_id: EncounterId, if_match: IfMatch = None, idempotency_key: IdempotencyKey = None
) -> Response[CommandResult]:
    enc = str(encounter_id)
    principal = await authorize(request, enc, write=True)
    started, ruleset_id = time.perf_counter(), "unknown"
    try:
        body = await request.body()
        service = service_of(request)
        ruleset = await service.ruleset_of(enc)
        ruleset_id = ruleset.id
        command = service.decode_command(ruleset, body)
        request.scope.setdefault("state", {})["command_type"] = type(command).__struct_config__.tag  # its log line
        check_command(principal, command, ruleset.senders(type(command)))
        write = Write(principal, parse_if_match(if_match), idempotency_key,
                      request_hash("POST commands", body) if idempotency_key is not None else b"")
        result = await service.execute(enc, command, write)
    except Exception as exc:  # a refusal is an answer only while the token is valid
        metrics.command_answered(ruleset_id, status_of(exc), time.perf_counter() - started)
        await tokens_of(request).may_answer(principal, exc)
        raise
    metrics.command_answered(ruleset_id, result.status, time.perf_counter() - started)
    return reply(result, minimal=wants_minimal(request))


@get("/encounters/{encounter_id:uuid}/events", opt={"token": "encounter"}, operation_id="listEvents",
     summary="Event history", tags=["encounters"],
     responses=GUARDED_READ_ERRORS,
     description="Filtered for the caller: an event about something the caller may not see is `Redacted`.")
async def list_events(
    request: Request,
    encounter_id: EncounterId,
    after: Annotated[int, QueryParameter(ge=0, le=2_147_483_647, description="Return events after this version.")] = 0,
    limit: Annotated[int, QueryParameter(ge=1, le=1000, description="At most this many events.")] = 100,
) -> Response[EventPage]:
    enc = str(encounter_id)
    principal = await authorize(request, enc)
    service = service_of(request)
    rows = await service.store.read(enc, after, limit + 1)
    more = len(rows) > limit
    rows = rows[:limit]
    views = [event_view(r) for r in rows]
    if not principal.viewer.sees_all:
        views = visible_events(views, await service.current(enc), principal.viewer, await service.roll_key(enc))
    page = EventPage(events=views, next_after=rows[-1]["version"] if rows else after, has_more=more)
    return Response(content=_encode(page), media_type=JSON)


@post("/encounters/{encounter_id:uuid}/tokens", opt={"body": NewToken, "token": "gm"}, operation_id="mintToken",
      status_code=201,
      summary="Mint a player or spectator token (GM)", tags=["tokens"], responses=GUARDED_WRITE_ERRORS,
      description="The secret (`token`) is shown once. A retry with the same Idempotency-Key returns the same "
                  "token with its secret issued anew (the lost one stops working).")
async def mint_token(
    request: Request, encounter_id: EncounterId, idempotency_key: IdempotencyKey = None
) -> Response[IssuedToken]:
    enc = str(encounter_id)
    principal = await authorize(request, enc, write=True, gm_only=True)
    try:
        body = await request.body()
        new: NewToken = decode_body(_token_decoder, body, "invalid_body")
        issued = await service_of(request).mint_token(
            enc, new.role, new.combatant_ids, new.label, principal=principal, idempotency_key=idempotency_key,
            rhash=request_hash("POST tokens", body),
        )
    except Exception as exc:  # a refusal is an answer only while the token is valid
        await tokens_of(request).may_answer(principal, exc)
        raise
    issued.link = token_link(public_base(request), enc, issued)
    return Response(content=_encode(issued), status_code=201, media_type=JSON)


@get("/encounters/{encounter_id:uuid}/tokens", opt={"token": "gm"}, operation_id="listTokens",
     summary="List the encounter's tokens (GM)", tags=["tokens"], responses=GUARDED_READ_ERRORS,
     description="Every token of the encounter, the GM's included, revoked ones with `revoked_at`; never a "
                 "secret (only its SHA-256 is kept).")
async def list_tokens(request: Request, encounter_id: EncounterId) -> list[TokenView]:
    enc = str(encounter_id)
    await authorize(request, enc, gm_only=True)
    return await request.app.state.tokens.list(enc)


@delete("/encounters/{encounter_id:uuid}/tokens/{token_id:uuid}", opt={"token": "gm"}, operation_id="revokeToken",
        status_code=204,
        summary="Revoke a player or spectator token (GM)", tags=["tokens"], responses=GUARDED_WRITE_ERRORS,
        description="The token stops working at once, on every server process.")
async def revoke_token(request: Request, encounter_id: EncounterId, token_id: TokenId) -> None:
    enc = str(encounter_id)
    principal = await authorize(request, enc, write=True, gm_only=True)
    # the revoking token is checked in the same statement: a 404 is only for a valid one
    if await tokens_of(request).revoke(enc, str(token_id), by=principal.secret_hash) is None:
        raise Problem(404, "token_not_found", "Token not found",
                      f"This encounter has no player or spectator token {token_id}.")


@get("/rulesets", opt={"token": "none"}, operation_id="listRulesets", summary="Rulesets this server runs",
     tags=["rulesets"], responses=errors(429),
     description="Each ruleset's `id` (what `POST /encounters` names) and name.")
async def list_rulesets(request: Request) -> list[RulesetSummary]:
    return [RulesetSummary(id=r.id, name=r.name) for r in service_of(request).registry.all()]


@get("/rulesets/{ruleset_id:str}", opt={"token": "none"}, operation_id="getRuleset",
     summary="A ruleset's commands, costs and sheet schema", tags=["rulesets"], responses=errors(400, 404, 500),
     description="What a frontend builds its menus from: every command (its `type`, a one-sentence `summary`, "
                 "its JSON Schema, its `senders`: `gm`, and `player` where a player may send it for their own "
                 "combatants, and its `actor_field`, the field naming the combatant who acts), the common actions and their Action Point costs, the sheet's schema, "
                 "every violation `code` with its meaning, and the `coverage` table of the rules' text.")
async def get_ruleset(request: Request, ruleset_id: RulesetId) -> RulesetInfo:
    registry = service_of(request).registry
    if ruleset_id not in registry:
        raise Problem(404, "ruleset_not_found", "Ruleset not found", f"There is no ruleset “{ruleset_id}”.")
    r = registry.get(ruleset_id)
    return RulesetInfo(
        id=r.id,
        name=r.name,
        dice_policies=list(DICE_POLICIES),
        commands=[
            CommandDoc(
                type=t.__struct_config__.tag,
                summary=summary_of(t),
                json_schema=msgspec.json.schema(t),
                senders=list(r.senders(t)),
                actor_field=t.actor_field,
                dice=dice_order(r, t),
                settings_schema=msgspec.json.schema(t.settings_type) if t.settings_type is not None else None,
            )
            for t in r.command_types
        ],
        actions=r.command_info(),
        sheet_schema=msgspec.json.schema(r.sheet_type),
        violation_codes=r.violation_codes,
        coverage=r.coverage(),
        rule_texts=dict(r.rule_texts),
        examples=[CombatantExample(label=label, body=msgspec.convert(body, NewCombatant)) for label, body in r.examples()],
        resources=dict(r.resource_labels),
    )


def dice_order(r: Any, command: type) -> str:
    """The faces a ``reported`` encounter's ``command`` takes, in order, in words."""
    if command is RollInitiative:
        return f"{r.initiative_dice[:1].upper()}{r.initiative_dice[1:]}."
    return ("As the offered action lists them (`dice` of each action in `GET /encounters/{encounter_id}/actions`), "
            "in that order.")


@get("/rulesets/{ruleset_id:str}/odds", opt={"token": "none"}, operation_id="getRulesetOdds",
     summary="Odds of a ruleset's roll", tags=["rulesets"], responses=errors(400, 404, 500),
     description="Exact chances a frontend shows before a roll, as the ruleset counts them; its query parameters "
                 "are the ruleset's own, documented under `/rulesets/{its id}/odds` (Places of Power: "
                 "`/rulesets/places-of-power/odds`). A ruleset without odds answers 404 `no_odds`.")
async def ruleset_odds(request: Request, ruleset_id: RulesetId) -> Response[Any]:
    registry = service_of(request).registry
    if ruleset_id not in registry:
        raise Problem(404, "ruleset_not_found", "Ruleset not found", f"There is no ruleset “{ruleset_id}”.")
    r = registry.get(ruleset_id)
    if r.odds_query is None:
        raise Problem(404, "no_odds", "No odds", f"{r.name} has no odds to count.")
    query = decode_query(r.odds_query, {k: request.query_params.getall(k) for k in request.query_params})
    return Response(content=_encode(r.odds(query)), media_type=JSON)


@get("/health", opt={"token": "none"}, operation_id="getHealth", summary="Is the server and its database up",
     tags=["health"], responses=errors(429, 503),
     description="200 while PostgreSQL answers; else 503 `database_unavailable` with `details.database` "
                 "`unavailable` and `Retry-After` (for a load balancer's health check).")
async def health(request: Request) -> Response[Health]:
    try:
        await request.app.state.pool.fetchval("SELECT 1", timeout=2)
    except Exception as exc:  # the database is down or unreachable
        raise database_unavailable("The database cannot be reached just now.", database="unavailable") from exc
    return Response(content=_encode(Health(status="ok", database="ok")), media_type=JSON)


@get("/docs", include_in_schema=False)
async def docs() -> Redirect:
    return Redirect("/schema")


ROUTES = [
    open_encounter, get_encounter, get_actions, add_combatant, send_command, list_events,
    mint_token, list_tokens, revoke_token, list_rulesets, get_ruleset, ruleset_odds, health, docs,
]

