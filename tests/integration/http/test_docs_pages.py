"""The API docs' pages need nothing but this server (issue 17: "/schema (Scalar) and
/schema/swagger are blank pages without internet: their scripts load from a CDN"): every
script, style and icon they name is a path here, served from the pinned files kept in
server/docs_assets, unchanged. tests/e2e/test_docs_browser.py opens them in Chromium."""

from __future__ import annotations

import hashlib
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from server.http.docs import ASSETS

PAGES = ["/schema", "/schema/swagger"]


class _Links(HTMLParser):
    """Every URL an HTML page makes the browser load: src and href, and data-url (Scalar's spec)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("src", "href", "data-url") and value:
                self.urls.append(value)


def links(html: str) -> list[str]:
    parser = _Links()
    parser.feed(html)
    return parser.urls


@pytest.mark.parametrize("page", PAGES)
async def test_a_docs_page_names_only_assets_of_this_server(client, page: str) -> None:
    r = await client.get(page)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    urls = links(r.text)
    assert any(u.endswith(".js") for u in urls), urls
    for url in urls:
        assert url.startswith("/") and not url.startswith("//"), f"{page} loads {url} from elsewhere"
        asset = await client.get(url)
        assert asset.status_code == 200, url
    # nor a URL in inline script or style that a browser would fetch
    assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", r.text.replace("\\/", "/")), r.text


async def test_the_assets_are_served_with_their_types(client) -> None:
    for path, kind in (("scalar-api-reference-1.76.0/standalone.js", "javascript"),
                       ("swagger-ui-dist-5.35.0/swagger-ui.css", "text/css"),
                       ("swagger-ui-dist-5.35.0/favicon-32x32.png", "image/png")):
        r = await client.get(f"/schema/assets/{path}")
        assert r.status_code == 200 and kind in r.headers["content-type"], path
        assert "max-age" in r.headers["cache-control"]
    assert (await client.get("/schema/assets/nothing.js")).status_code == 404


def test_the_pinned_files_are_the_released_ones() -> None:
    """Copied unchanged from the npm packages that server/docs_assets/README.md names."""
    sums = (ASSETS / "SHA256SUMS").read_text().split("\n")
    listed = [line.split(maxsplit=1) for line in sums if line.strip()]
    assert len(listed) == 5
    for digest, name in listed:
        assert hashlib.sha256(Path(ASSETS, name).read_bytes()).hexdigest() == digest, name
    for folder in ("scalar-api-reference-1.76.0", "swagger-ui-dist-5.35.0"):
        assert (ASSETS / folder / "LICENSE").exists()
