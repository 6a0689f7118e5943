"""The API docs, `/schema` (Scalar) and `/schema/swagger` (Swagger UI), from files the server
serves itself: pinned releases kept in ``server/docs_assets`` (its README says which and from
where). Litestar's plugins load them from a CDN, Scalar at ``@latest``: without internet the
pages were blank, and with it they could change under a user from one day to the next.

Every URL the pages name is on this server; the scripts are told to fetch nothing else
(Scalar's fonts, proxy, telemetry and agent are off).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from litestar import Response, Router, get
from litestar.datastructures import CacheControlHeader
from litestar.openapi.plugins import ScalarRenderPlugin, SwaggerRenderPlugin
from litestar.static_files import create_static_files_router

ASSETS = Path(__file__).resolve().parents[1] / "docs_assets"
PREFIX = "/schema/assets"
SCALAR = f"{PREFIX}/scalar-api-reference-1.76.0"
SWAGGER = f"{PREFIX}/swagger-ui-dist-5.35.0"
FAVICON = f"<link rel='icon' type='image/png' href='{SWAGGER}/favicon-32x32.png'>"

# What Scalar would otherwise reach for: fonts from its own host, a proxy for "Try it" requests
# (which would carry the bearer token to a third party), telemetry, its AI agent.
SCALAR_OPTIONS: dict[str, Any] = {
    "withDefaultFonts": False,
    "proxyUrl": "",
    "telemetry": False,
    "agent": {"disabled": True},
    "hideClientButton": False,
}


def render_plugins() -> list[Any]:
    """Scalar at `/schema` (the first is served at the root too), Swagger UI at `/schema/swagger`."""
    return [
        ScalarRenderPlugin(js_url=f"{SCALAR}/standalone.js", css_url=f"{PREFIX}/fracas-docs.css",
                           favicon=FAVICON, options=SCALAR_OPTIONS),
        SwaggerRenderPlugin(js_url=f"{SWAGGER}/swagger-ui-bundle.js", css_url=f"{SWAGGER}/swagger-ui.css",
                            standalone_preset_js_url=f"{SWAGGER}/swagger-ui-standalone-preset.js", favicon=FAVICON),
    ]


def assets_router() -> Router:
    """The files under ``/schema/assets``: versioned folders, so a browser may keep them."""
    return create_static_files_router(
        path=PREFIX, directories=[ASSETS], name="docs_assets", include_in_schema=False,
        cache_control=CacheControlHeader(max_age=86_400, public=True),
    )



_asyncapi: list[bytes] = []


@get("/schema/asyncapi.json", include_in_schema=False, media_type="application/json", cache=False)
async def asyncapi_document() -> Response[bytes]:
    """The live stream's AsyncAPI document (server/schema/asyncapi.py), made once."""
    if not _asyncapi:
        from server.schema.asyncapi import render_asyncapi_text

        _asyncapi.append(render_asyncapi_text().encode())
    return Response(content=_asyncapi[0], media_type="application/json")
