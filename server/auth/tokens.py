"""Bearer tokens: who may do what in an encounter.

Opening an encounter issues its GM token. The GM mints player tokens (bound to one or
more combatants) and read-only spectator tokens, lists and revokes them. A token is a
long random secret; only its SHA-256 is stored. A token's encounter, role and
combatants never change, so a process may keep them in memory; whether the token is
still valid is asked of the database on every request, so a revoked token stops at once on
every process: a read asks first; a write asks in the statement that makes its answer (the
append of its events, the look-up of an ``Idempotency-Key``'s stored answer, the mint, the
revocation), and a write refused on the way asks before its refusal is sent
(``TokenStore.may_answer``). A revoked token is answered as an unknown one: 401 ``token_invalid``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid
from collections import OrderedDict
from datetime import datetime
from typing import Annotated, Any, Literal

import asyncpg
import msgspec
from litestar import Request
from litestar.connection import ASGIConnection

from projections.visibility import Viewer
from server.store import outage
from server.http.problems import Problem
from server.store.events import IdempotencyConflict

Role = Literal["gm", "player", "spectator"]
TOKEN_PREFIX = "frc_"


def new_secret() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def hash_secret(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


class Principal(msgspec.Struct, frozen=True, kw_only=True):
    """The holder of a token, as far as a request needs to know."""

    token_id: str
    encounter_id: str
    role: Role
    combatant_ids: frozenset[str]
    secret_hash: bytes

    @property
    def viewer(self) -> Viewer:
        return Viewer(self.role, self.combatant_ids)

    @property
    def actor(self) -> dict[str, Any]:
        """What goes into each event's metadata: the role and the token's id, never the secret."""
        return {"role": self.role, "token_id": self.token_id}


class TokenView(msgspec.Struct, kw_only=True):
    """A token as the GM's list shows it (never the secret)."""

    id: str
    role: Role
    combatant_ids: list[str]
    label: str
    created_at: datetime
    revoked_at: datetime | None = None


class IssuedToken(msgspec.Struct, kw_only=True):
    """A token as issued: ``token`` is the secret, shown this once. Send it as
    ``Authorization: Bearer <token>``. ``link``: the page its holder opens, signed in by the
    token in its fragment (which a browser never sends): the GM's console for the GM's token,
    the player's page for a player's, the spectator view for a spectator's."""

    id: str
    role: Role
    combatant_ids: list[str]
    label: str
    token: str
    # made for each answer (never stored): FRACAS_PUBLIC_URL or the request's own address, then the page
    link: Annotated[str, msgspec.Meta(description=(
        "The page this token's holder opens, the token in its fragment: `{base}/#enc=...&token=...` (the GM's "
        "console), `{base}/play#enc=...&me=...&token=...` (a player's page) or `{base}/watch#enc=...&token=...` "
        "(the spectator view); `{base}` is the server's `FRACAS_PUBLIC_URL`, else the address the request "
        "reached it by."))] = ""


def unauthorized(code: str, detail: str) -> Problem:
    p = Problem(401, code, "Unauthorized", detail)
    p.headers["WWW-Authenticate"] = 'Bearer realm="fracas"'
    return p


def revoked() -> Problem:
    """The answer to an unknown token, and to a revoked one: they are told apart nowhere."""
    return unauthorized("token_invalid", "The token is unknown or has been revoked.")


# "this secret's token is valid", for a statement that checks it on the way (``{}``: the parameter)
_VALID = "EXISTS (SELECT 1 FROM tokens WHERE secret_hash = {} AND revoked_at IS NULL)"


def parse_bearer(value: str) -> str | None:
    """The token of an ``Authorization`` value ``Bearer <token>`` (the scheme in any case, spaces
    around the token ignored); None when the value is not that. The one reading of the header:
    the rate limit's buckets (``server.auth.limits``) go by the token it gives."""
    scheme, _, token = value.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    return token


def bearer(request: ASGIConnection) -> str | None:
    value = request.headers.get("authorization")
    if value is None:
        return None
    token = parse_bearer(value)
    if token is None:
        raise unauthorized("token_malformed", "Send the token as `Authorization: Bearer <token>`.")
    return token


class TokenStore:
    def __init__(self, pool: asyncpg.Pool, cache_size: int = 50_000) -> None:
        self.pool = pool
        self.cache_size = cache_size
        self._cache: OrderedDict[bytes, Principal] = OrderedDict()

    async def principal(self, secret: str, *, check_revoked: bool = True) -> Principal | None:
        """The token's holder, or None for an unknown or revoked token.

        ``check_revoked=False`` skips the database when the token is cached: for writes,
        whose append statement checks it.
        """
        h = hash_secret(secret)
        cached = self._cache.get(h)
        if cached is not None:
            if check_revoked and not await self.is_valid(h):
                self._cache.pop(h, None)
                return None
            return cached
        row = await self.pool.fetchrow(
            "SELECT id::text AS id, encounter_id::text AS encounter_id, role, combatant_ids "
            "FROM tokens WHERE secret_hash = $1 AND revoked_at IS NULL",
            h,
        )
        if row is None:
            return None
        p = Principal(
            token_id=row["id"], encounter_id=row["encounter_id"], role=row["role"],
            combatant_ids=frozenset(row["combatant_ids"]), secret_hash=h,
        )
        self.remember(p)
        return p

    async def is_valid(self, secret_hash: bytes) -> bool:
        return bool(await self.pool.fetchval(f"SELECT {_VALID.format('$1')}", secret_hash))

    def remember(self, principal: Principal) -> None:
        """A token this process has just issued is valid: no look-up for its first requests."""
        self._cache[principal.secret_hash] = principal
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def knows(self, secret_hash: bytes) -> bool:
        """This process has found the token valid (its principal is cached); no database asked."""
        return secret_hash in self._cache

    def forget(self, secret_hash: bytes) -> None:
        self._cache.pop(secret_hash, None)

    async def may_answer(self, principal: Principal, exc: BaseException) -> None:
        """A write's refusal is an answer too: raise the 401 instead of it when the token has been
        revoked (or its secret issued anew). Writes skip the database for a cached token, their
        append statement checking it; a write that ends otherwise asks here, so a revoked token
        gets nothing but 401 on every process, at once. An outage or a 401 needs no asking."""
        if (isinstance(exc, Problem) and exc.status == 401) or outage.is_outage(exc):
            return
        if not await self.is_valid(principal.secret_hash):
            self.forget(principal.secret_hash)
            raise revoked() from None

    async def mint(
        self, encounter_id: str, role: Role, combatant_ids: list[str], label: str, *, by: bytes,
        idem: tuple[str, str, bytes] | None = None,
    ) -> IssuedToken:
        """Insert a token, and with ``idem`` (scope, key, request hash) the answer a retry gets
        (without the secret), in one statement, only while the minting token (``by``, its secret's
        hash) is valid: else raises the 401. Raises IdempotencyConflict on a lost race."""
        token_id = str(uuid.uuid4())
        secret = new_secret()
        issued = IssuedToken(id=token_id, role=role, combatant_ids=combatant_ids, label=label, token=secret)
        stored = msgspec.json.encode(msgspec.structs.replace(issued, token=""))
        scope, key, rhash = idem if idem is not None else (None, None, None)
        try:
            minted = await self.pool.fetchval(
                f"""WITH me AS (SELECT {_VALID.format("$11")} AS ok), tok AS (
                       INSERT INTO tokens (id, encounter_id, role, combatant_ids, label, secret_hash)
                       SELECT $1::uuid, $2::uuid, $3::text, $4::text[], $5::text, $6::bytea FROM me WHERE me.ok
                       RETURNING 1
                   ), idem AS (
                       INSERT INTO idempotency_keys (scope, key, request_hash, status, response)
                       SELECT $7::text, $8::text, $9::bytea, 201, $10::bytea FROM me
                       WHERE me.ok AND $8::text IS NOT NULL
                       RETURNING 1
                   )
                   SELECT ok FROM me""",
                token_id, encounter_id, role, combatant_ids, label, hash_secret(secret), scope, key, rhash, stored, by,
            )
        except asyncpg.UniqueViolationError as exc:
            raise IdempotencyConflict(str(exc)) from exc
        if not minted:
            self.forget(by)
            raise revoked()
        self.remember(Principal(token_id=token_id, encounter_id=encounter_id, role=role,
                                combatant_ids=frozenset(combatant_ids), secret_hash=hash_secret(secret)))
        return issued

    async def resecret(self, token_id: str) -> str | None:
        """A new secret for a token whose first answer was lost (an idempotent retry); the old
        secret stops working. None when the token has been revoked."""
        secret = new_secret()
        done = await self.pool.fetchval(
            "UPDATE tokens SET secret_hash = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING 1",
            token_id, hash_secret(secret),
        )
        return secret if done else None

    async def list(self, encounter_id: str) -> list[TokenView]:
        rows = await self.pool.fetch(
            "SELECT id::text AS id, role, combatant_ids, label, created_at, revoked_at FROM tokens "
            "WHERE encounter_id = $1 ORDER BY created_at, id",
            encounter_id,
        )
        return [
            TokenView(id=r["id"], role=r["role"], combatant_ids=list(r["combatant_ids"]), label=r["label"],
                      created_at=r["created_at"], revoked_at=r["revoked_at"])
            for r in rows
        ]

    async def revoke(self, encounter_id: str, token_id: str, *, by: bytes) -> str | None:
        """Revoke a player or spectator token; returns its role, or None when there is none. Only
        while the revoking token (``by``, its secret's hash) is valid, checked in the same
        statement: else raises the 401."""
        row = await self.pool.fetchrow(
            f"""WITH me AS (SELECT {_VALID.format("$3")} AS ok), done AS (
                    UPDATE tokens SET revoked_at = coalesce(revoked_at, now())
                    WHERE id = $1 AND encounter_id = $2 AND role <> 'gm' AND (SELECT ok FROM me)
                    RETURNING role
                )
                SELECT me.ok, (SELECT role FROM done) AS role FROM me""",
            token_id, encounter_id, by,
        )
        if not row["ok"]:
            self.forget(by)
            raise revoked()
        return row["role"]


async def authorize(request: ASGIConnection, encounter_id: str, *, write: bool = False, gm_only: bool = False,
                    query_token: bool = False) -> Principal:
    """The caller's principal for this encounter, or the 401/403 problem that refuses them.
    ``query_token``: also take the token from ``?token=`` (live streams: browsers cannot set
    headers on a WebSocket or an EventSource)."""
    tokens: TokenStore = request.app.state.tokens
    secret = bearer(request)
    if secret is None and query_token:
        secret = request.query_params.get("token") or None
    if secret is None:
        raise unauthorized("token_required", "This needs a token of the encounter: `Authorization: Bearer <token>`.")
    principal = await tokens.principal(secret, check_revoked=not write)
    if principal is None:
        raise revoked()
    refusal = None
    if principal.encounter_id != encounter_id:
        refusal = Problem(403, "wrong_encounter", "Forbidden", "This token belongs to another encounter.")
    elif write and principal.role == "spectator":
        refusal = Problem(403, "read_only_token", "Forbidden", "A spectator token can only read.")
    elif gm_only and principal.role != "gm":
        refusal = Problem(403, "gm_only", "Forbidden", "Only the GM may do this.")
    if refusal is not None:
        if write:  # a write's cached token was not checked yet: a revoked one gets the 401
            await tokens.may_answer(principal, refusal)
        raise refusal
    return principal


def check_operator(request: Request) -> None:
    """When the server has an operator key, creating and listing encounters needs it."""
    key: str | None = request.app.state.settings.operator_key
    if not key:
        return
    secret = bearer(request)
    if secret is None:
        raise unauthorized("operator_key_required", "This server needs its operator key: `Authorization: Bearer <key>`.")
    if not hmac.compare_digest(secret.encode(), key.encode()):
        raise Problem(403, "operator_key_invalid", "Forbidden", "That is not this server's operator key.")


def check_command(principal: Principal, command: Any, senders: tuple[str, ...]) -> None:
    """A player sends only what the ruleset lets players send (``senders``, its
    ``Ruleset.senders`` of the command's type), and acts only for their own combatants;
    commands that name no acting combatant (initiative, order of play, revealing, ending the
    fight) are the GM's alone."""
    if principal.role == "gm":
        return
    tag = type(command).__struct_config__.tag
    acting = command.acting_combatant()
    if acting is None or principal.role not in senders:
        raise Problem(403, "gm_only", "Forbidden", f"Only the GM may send {tag}.")
    if acting not in principal.combatant_ids:
        raise Problem(403, "not_your_combatant", "Forbidden", f"This token does not act for combatant {acting}.")
