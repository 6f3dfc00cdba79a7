"""The web client's files: gzip for every text file, revalidated before use (ETag, 304);
the API is never stored by a browser."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

import cardroom

GZIP = {"accept-encoding": "gzip"}


async def test_text_assets_are_gzipped_and_revalidated_before_use(server):
    async with httpx.AsyncClient(base_url=server.url) as http:
        for path in ("/", "/js/table.js", "/css/base.css", "/league/"):
            response = await http.get(path, headers=GZIP)
            assert response.status_code == 200, path
            assert response.headers["content-encoding"] == "gzip", path
            assert "accept-encoding" in response.headers["vary"].lower(), path
            assert response.headers["cache-control"] == "no-cache", path
            etag = response.headers["etag"]
            again = await http.get(path, headers={**GZIP, "if-none-match": etag})
            assert again.status_code == 304 and again.content == b"", path


async def test_every_text_file_is_gzipped_and_images_are_sent_as_they_are(server):
    async with httpx.AsyncClient(base_url=server.url) as http:
        png = await http.get("/img/icon-192.png", headers=GZIP)
        assert png.status_code == 200 and "content-encoding" not in png.headers
        assert png.headers["cache-control"] == "no-cache"
        web = Path(cardroom.__file__).parent / "web"
        texts = [p for p in web.rglob("*") if p.suffix in {".js", ".css", ".html", ".json"}]
        smallest = min(texts, key=lambda p: p.stat().st_size)  # the first load's small modules
        for path in (smallest, web / "manifest.webmanifest", web / "img" / "icon.svg"):
            url = "/" + path.relative_to(web).as_posix()
            small = await http.get(url, headers=GZIP)
            assert small.status_code == 200, url
            assert small.headers.get("content-encoding") == "gzip", url


async def test_the_api_is_never_stored(server):
    async with httpx.AsyncClient(base_url=server.url) as http:
        for path in ("/api/tables", "/api/levels", "/api/nothing"):
            response = await http.get(path, headers=GZIP)
            assert response.headers["cache-control"] == "no-store", path
            assert "etag" not in response.headers, path


def test_the_service_worker_keeps_every_module_the_app_imports() -> None:
    """Offline, the app opens from the service worker's cache: a module it imports that the
    cache lacks breaks the whole screen (the lobby imports the ranked queue's module)."""
    web = Path(cardroom.__file__).parent / "web"
    worker = (web / "sw.js").read_text()
    cached = set(re.findall(r'"(/[^"]+)"', worker))
    modules = {"/" + path.relative_to(web).as_posix() for path in (web / "js").rglob("*.js")}
    keeper = {"/" + path.relative_to(web).as_posix() for path in (web / "keeper").glob("*.js")}
    assert modules | keeper <= cached, sorted((modules | keeper) - cached)


async def test_what_a_page_reads_is_gzipped_but_never_an_answer_with_a_token(server):
    async with httpx.AsyncClient(base_url=server.url) as http:
        made = await http.post("/api/players", json={"name": "Zip"}, headers=GZIP)
        assert made.status_code == 201 and "content-encoding" not in made.headers
        auth = {**GZIP, "authorization": f"Bearer {made.json()['token']}"}
        me = await http.get("/api/me", headers=auth)  # it renews the token: never compressed
        assert me.status_code == 200 and "content-encoding" not in me.headers
        levels = await http.get("/api/levels", headers=GZIP)
        assert levels.headers.get("content-encoding") == "gzip"
        assert levels.json()["levels"]  # httpx undoes it: the JSON is whole


def test_every_page_preloads_exactly_the_modules_it_imports() -> None:
    """A page names all its modules at once (``server/preloads.py``); a module added, moved or
    no longer imported makes this fail until ``python -m cardroom.server.preloads --write``."""
    from cardroom.server import preloads

    lobby = (preloads.WEB / "index.html").read_text()
    assert lobby.count('rel="modulepreload"') == len(preloads.graph("/js/main.js")) > 40
    stale = [p.name for p in preloads.pages() if preloads.with_preloads(p) != p.read_text()]
    assert stale == [], f"run python -m cardroom.server.preloads --write: {stale}"
