"""The web client's files as served: gzip for text above 1 KB, and `Cache-Control: no-cache`
so a browser keeps a copy but asks (ETag / Last-Modified, a 304) before using it: an update
to the client shows on the next visit, and an unchanged file costs no body."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware

GZIP_ABOVE = 1024  # bytes; smaller answers gain less than the compression costs
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


def web_files(directory: Path) -> Any:
    """The ASGI app mounted at `/` for the web client (images are not gzipped again)."""
    return GZipMiddleware(RevalidatedFiles(directory=directory, html=True), GZIP_ABOVE)
