"""Each page's bundle: made from the modules on main (else `make bundle`), served while it is,
and never once a module changed; the page names the reader's catalog for the browser to fetch
beside the script."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardroom.server.bundle import WEB, Bundles, bundle_url, entries
from cardroom.server.preloads import graph
from cardroom.server.static import web_files

SCRIPT = re.compile(r'<script type="module" src="([^"]+)"></script>')


def test_every_page_is_served_from_a_bundle_made_from_the_modules_on_main() -> None:
    stale = Bundles(WEB).stale()
    assert stale == [], f"bundles made from other modules: {stale}; run `make bundle`"


def test_a_bundle_holds_its_entry_and_every_module_the_entry_imports() -> None:
    manifest = Bundles(WEB).manifest()
    assert sorted(manifest) == entries()
    for entry, bundle in manifest.items():
        assert bundle["file"] == bundle_url(entry)
        assert set(bundle["sources"]) == {entry, *graph(entry)}, entry  # type: ignore[arg-type]


@pytest.fixture
def web(tmp_path: Path) -> Path:
    """A copy of the client, to change a module in."""
    copy = tmp_path / "web"
    shutil.copytree(WEB, copy)
    return copy


def test_a_page_is_served_with_its_bundle_and_without_its_module_list(web: Path) -> None:
    client = TestClient(web_files(web))
    for path, entry in (("/", "/js/main.js"), ("/keeper/", "/keeper/keeper.js")):
        page = client.get(path).text
        assert SCRIPT.findall(page) == [bundle_url(entry)], path
        assert "modulepreload" not in page, path
        bundle = client.get(bundle_url(entry))
        assert bundle.status_code == 200
        assert bundle.headers["content-type"].startswith("text/javascript")


def test_a_page_loads_its_modules_once_one_of_them_changed(web: Path) -> None:
    client = TestClient(web_files(web))
    before = client.get("/")
    with (web / "js" / "dom.js").open("a", encoding="utf-8") as module:
        module.write("\n// an edit after the bundle was made\n")
    after = client.get("/", headers={"if-none-match": before.headers["etag"]})
    assert after.status_code == 200  # another text: never a 304 for the bundled one
    assert SCRIPT.findall(after.text) == ["/js/main.js"]
    assert '<link rel="modulepreload" href="/js/dom.js">' in after.text
    assert SCRIPT.findall(client.get("/keeper/").text) == ["/keeper/keeper.js"]  # imports it too


def test_the_page_names_the_readers_catalog_and_answers_a_304_for_the_same_text(
    web: Path,
) -> None:
    client = TestClient(web_files(web))
    english = client.get("/")
    assert '<link rel="preload" href="/i18n/en.json" as="fetch" crossorigin>' in english.text
    assert "cookie" in english.headers["vary"].lower()
    german = client.get("/", headers={"accept-language": "de-DE,de;q=0.9,en;q=0.5"})
    assert 'href="/i18n/de.json"' in german.text
    client.cookies.set("cardroom_lang", "pl")
    polish = client.get("/league/", headers={"accept-language": "de"})
    assert 'href="/i18n/pl.json"' in polish.text
    client.cookies.clear()
    again = client.get("/", headers={"if-none-match": english.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    other = client.get(
        "/", headers={"if-none-match": english.headers["etag"], "accept-language": "fr"}
    )
    assert other.status_code == 200 and 'href="/i18n/fr.json"' in other.text
