"""AI agents at the table: an MCP endpoint (the Model Context Protocol's streamable HTTP, at
``/mcp``), built with the official ``mcp`` SDK, whose tools are the doors a client already has:

- ``state``: the encounter as the caller sees it (``GET /encounters/{id}``);
- ``next_moves``: what the fight waits on and the caller's moves (``GET /encounters/{id}/actions``);
- ``act``: send an offered move by its id, with dice where the encounter takes reported dice and
  the values a ruling's ``parameters`` allow (``POST /encounters/{id}/commands``);
- ``log``: the readable log (``GET /encounters/{id}/log``).

Each call carries a Fracas token (``Authorization: Bearer``) and is answered by the API itself with
it, in this process: an agent may do exactly what its token may, sees what its role may see, and
its refusals are the API's problems (their ``code`` and words). Stateless: any worker answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import httpx
from litestar import Litestar, asgi
from litestar.types import Receive, Scope, Send
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings

from server.version import VERSION

PATH = "/mcp"
INSTRUCTIONS = (
    "Fracas runs tabletop RPG combat. Call next_moves for an encounter to see whom the fight waits on and "
    "every move your token may make now, each with an id; act with one of those ids (dice: the faces, in "
    "the order the move lists them, where the encounter takes reported dice). state and log tell the fight. "
    "Your token decides what you see and may do; a refusal says why.")


def build(app: Litestar) -> tuple[MCPServer, Any]:
    """The MCP server for ``app`` and its ASGI app (answering at ``PATH``)."""
    server = MCPServer("fracas", title="Fracas", version=VERSION, instructions=INSTRUCTIONS)

    async def call(ctx: Context, method: str, path: str, body: Any = None) -> Any:
        headers = {k.lower(): v for k, v in (ctx.headers or {}).items()}
        if "authorization" not in headers:
            raise ToolError("token_required: send your Fracas token as `Authorization: Bearer <token>`.")
        forwarded = {"authorization": headers["authorization"]}
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://fracas") as client:
            r = await client.request(method, path, headers=forwarded, json=body)
        answer = r.json() if r.content else None
        if r.status_code >= 400:
            problem = answer if isinstance(answer, dict) else {}
            raise ToolError(f"{problem.get('code', r.status_code)}: {problem.get('detail') or problem.get('title')}"
                            + (f" {json.dumps(problem['details'])}" if problem.get("details") else ""))
        return answer

    @server.tool(description="The encounter as your token sees it: combatants, turn, round, status.")
    async def state(encounter_id: str, ctx: Context) -> dict[str, Any]:
        return await call(ctx, "GET", f"/encounters/{encounter_id}")

    @server.tool(description="What the fight waits on (waiting_on), whether it is over, and every move your "
                             "token may make now (actions: each with an id, a label, its cost and the dice it "
                             "needs where the encounter takes reported dice).")
    async def next_moves(encounter_id: str, ctx: Context) -> dict[str, Any]:
        return await call(ctx, "GET", f"/encounters/{encounter_id}/actions")

    @server.tool(description="Make one of the moves next_moves offered, by its id. dice: the faces, in the order "
                             "the move lists its dice (an encounter with reported dice only). values: a GM "
                             "ruling's fields to change (those its parameters name). Answers the events recorded.")
    async def act(encounter_id: str, action_id: str, ctx: Context, dice: list[int] | None = None,
                  values: dict[str, Any] | None = None) -> dict[str, Any]:
        moves = await call(ctx, "GET", f"/encounters/{encounter_id}/actions")
        offered = next((a for a in moves["actions"] if a["id"] == action_id), None)
        if offered is None:
            raise ToolError(f"no_such_action: {action_id} is not among your moves at version {moves['version']}: "
                            "ask next_moves again.")
        command = dict(offered["command"])
        if values:
            allowed = set((offered.get("parameters") or {}).get("properties") or {})
            stray = sorted(set(values) - allowed)
            if stray:
                raise ToolError(f"invalid_values: this move takes no {', '.join(stray)}"
                                + (f" (it takes {', '.join(sorted(allowed))})." if allowed else "."))
            command.update(values)
        if dice:
            command["dice"] = list(dice)
        return await call(ctx, "POST", f"/encounters/{encounter_id}/commands", command)

    @server.tool(description="The fight told in sentences, as your token may read it.")
    async def log(encounter_id: str, ctx: Context) -> dict[str, Any]:
        return await call(ctx, "GET", f"/encounters/{encounter_id}/log")

    http = server.streamable_http_app(
        streamable_http_path=PATH, stateless_http=True, json_response=True,
        # every call is authorised by the Fracas token it carries (never a cookie): no browser's
        # ambient credential for a rebound name to ride on
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False))
    return server, http


class Door:
    """The app's MCP door, its session manager run in a task of its own (its task group must be
    left by the task that entered it) from ``start`` until ``stop``."""

    def __init__(self, app: Litestar) -> None:
        self.server, app.state.mcp_http = build(app)
        self._running = asyncio.Event()
        self._stopping = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="mcp session manager")
        running = asyncio.create_task(self._running.wait())
        await asyncio.wait({self._task, running}, return_when=asyncio.FIRST_COMPLETED)
        running.cancel()
        if self._task.done():
            self._task.result()  # it could not start: say why

    async def _run(self) -> None:
        async with self.server.session_manager.run():
            self._running.set()
            await self._stopping.wait()

    async def stop(self) -> None:
        self._stopping.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


async def start(app: Litestar) -> Door:
    """Build the app's MCP door and run it (``Door.stop`` ends it)."""
    door = Door(app)
    await door.start()
    return door


@asgi(PATH, include_in_schema=False, copy_scope=True)
async def mcp_endpoint(scope: Scope, receive: Receive, send: Send) -> None:
    """``/mcp``: the MCP door (docs/agents.md)."""
    await scope["app"].state.mcp_http(scope, receive, send)


AGENT_ROUTES = [mcp_endpoint]
