"""The web client's files as served: gzip for every text file, and `Cache-Control: no-cache`
so a browser keeps a copy but asks (ETag / Last-Modified, a 304) before using it: an update
to the client shows on the next visit, and an unchanged file costs no body.

A page is served with its bundle (``server/bundle.py``) while the bundle is fresh, and names
the catalog of the reader's language for the browser to fetch beside it: the catalog is
awaited before anything renders, and found only once the script runs otherwise."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import Response

from cardroom.server.bundle import Bundles
from cardroom.server.i18n import language_of
from cardroom.server.preloads import BLOCK, SCRIPT, resolve

# Bytes. Every file of the client is above it (the smallest module, 537 B, sends ~330): on a
# slow phone link each byte of the first load counts; an empty or tiny answer is left alone.
GZIP_ABOVE = 256
CACHE_CONTROL = (b"cache-control", b"no-cache")


class RevalidatedFiles(StaticFiles):
    """StaticFiles (which sends ETag and Last-Modified and answers If-None-Match with a 304)
    whose every answer says it must be revalidated before use."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def with_cache_control(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", ()) if h[0] != CACHE_CONTROL[0]]
                message = {**message, "headers": [*headers, CACHE_CONTROL]}
            await send(message)

        await super().__call__(scope, receive, with_cache_control)

    def file_response(
        self,
        full_path: Any,
        stat_result: os.stat_result,
        scope: Any,
        status_code: int = 200,
    ) -> Response:
        if str(full_path).endswith(".html") and status_code == 200:
            return self.pages.response(Path(full_path), scope)
        return super().file_response(full_path, stat_result, scope, status_code)

    @property
    def pages(self) -> ServedPages:
        if not hasattr(self, "_pages"):
            self._pages = ServedPages(Path(str(self.directory)))
        return self._pages


class ServedPages:
    """The client's HTML pages as sent: each module script pointed at its bundle when the
    bundle is fresh (the page's module list dropped then: the bundle holds the modules), and a
    preload of the reader's catalog. The ETag is the sent text's hash, so a rebuilt bundle or
    another language is never answered with a 304 for an older text."""

    def __init__(self, web: Path) -> None:
        self.web = web
        self.bundles = Bundles(web)
        self._texts: dict[Path, tuple[int, str]] = {}

    def source(self, path: Path) -> str:
        stamp = path.stat().st_mtime_ns
        known = self._texts.get(path)
        if known is None or known[0] != stamp:
            known = (stamp, path.read_text(encoding="utf-8"))
            self._texts[path] = known
        return known[1]

    def text(self, path: Path, lang: str) -> str:
        html = self.source(path)
        url = "/" + path.relative_to(self.web).as_posix()
        scripts = SCRIPT.findall(html)
        if not scripts:
            return html
        bundled = {src: self.bundles.fresh(resolve(url, src)) for src in scripts}
        for src, bundle in bundled.items():
            if bundle is not None:
                html = html.replace(f'src="{src}"', f'src="{bundle}"', 1)
        if all(bundled.values()):
            html = BLOCK.sub("", html)
        catalog = f'  <link rel="preload" href="/i18n/{lang}.json" as="fetch" crossorigin>\n'
        return html.replace("</head>", catalog + "</head>", 1)

    def response(self, path: Path, scope: Any) -> Response:
        text = self.text(path, language_of(Request(scope)))
        body = text.encode("utf-8")
        etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
        headers = {"etag": etag, "vary": "Cookie, Accept-Language"}
        asked = Headers(scope=scope).get("if-none-match", "")
        if etag in (tag.strip().removeprefix("W/") for tag in asked.split(",")):
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="text/html", headers=headers)


class CompressedReads:
    """gzip for every answer a page reads (a GET or HEAD above ``GZIP_ABOVE``: the lobby's API
    calls and the language's manifest as well as the files), never for an answer that hands
    out a token (``/api/me`` renews it; sign-ins and claims are POSTs): a compressed secret
    beside text a page chose could be guessed from sizes (BREACH)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, GZIP_ABOVE, compresslevel=6)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] in ("GET", "HEAD")
            and scope["path"] not in TOKEN_PATHS
        ):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)


TOKEN_PATHS = frozenset({"/api/me"})


def web_files(directory: Path) -> Any:
    """The ASGI app mounted at `/` for the web client (images are not gzipped again)."""
    return GZipMiddleware(RevalidatedFiles(directory=directory, html=True), GZIP_ABOVE)
