"""The web table (issue 22): the GM's console at `/`, a player's page at `/play`, the spectator
view at `/watch`, and their scripts under `/web/`, all files in ``server/web`` served by the
server itself (no CDN: a table without internet still plays). The pages hold no secret: a
player's or spectator's token travels in the URL fragment (`#token=...`), which browsers never
send, so it reaches no server log. They talk to the server only through ``fracas-client.js``,
the ES module an integrator imports as it is.
"""

from __future__ import annotations

from pathlib import Path

from litestar import Router, get
from litestar.datastructures import CacheControlHeader
from litestar.response import File
from litestar.static_files import create_static_files_router

WEB = Path(__file__).resolve().parents[1] / "web"
PAGES = {"/": "gm.html", "/play": "play.html", "/watch": "watch.html"}


def _page(name: str) -> File:
    return File(WEB / name, media_type="text/html", content_disposition_type="inline",
                headers={"Cache-Control": "no-cache"})


@get("/", include_in_schema=False, name="web_gm")
async def gm_console() -> File:
    """The GM's console: open or list encounters, add combatants, hand out links, run the fight."""
    return _page(PAGES["/"])


@get("/play", include_in_schema=False, name="web_play")
async def player_page() -> File:
    """A player's page, from the link the GM hands them (`/play#enc=...&token=...`)."""
    return _page(PAGES["/play"])


@get("/watch", include_in_schema=False, name="web_watch")
async def spectator_view() -> File:
    """The spectator view (stream overlay, second screen), from the spectator link."""
    return _page(PAGES["/watch"])


def web_router() -> Router:
    """The pages' scripts and styles under `/web/` (revalidated each load: they change with the server)."""
    assets = create_static_files_router(
        path="/web", directories=[WEB], name="web_assets", include_in_schema=False,
        cache_control=CacheControlHeader(no_cache=True),
    )
    return Router(path="/", route_handlers=[gm_console, player_page, spectator_view, assets])


WEB_ROUTES = [web_router()]
