"""The web client's files as served: gzip for every text file, and `Cache-Control: no-cache`
so a browser keeps a copy but asks (ETag / Last-Modified, a 304) before using it: an update
to the client shows on the next visit, and an unchanged file costs no body."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware

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
