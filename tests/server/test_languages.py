"""The player's language kept with the account (docs/translating.md): chosen once, read on
every device; a language with no catalog refused with its code; the installed app's name
follows the page's language."""

from __future__ import annotations

import httpx
import pytest
from conftest import Person

pytestmark = pytest.mark.parametrize("server", ["sqlite"], indirect=True)


async def test_the_account_keeps_its_language_and_refuses_one_without_a_catalog(server):
    ada = await Person(server, "Ada").register()
    assert (await ada.http.get("/api/me/language")).json()["language"] is None
    assert (await ada.http.put("/api/me/language", json={"language": "pl-PL"})).json() == {
        "language": "pl"
    }
    assert (await ada.http.get("/api/me/language")).json()["language"] == "pl"
    refused = await ada.http.put("/api/me/language", json={"language": "xx"})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_language"
    assert (await ada.http.put("/api/me/language", json={"language": None})).json() == {
        "language": None
    }
    async with httpx.AsyncClient(base_url=server.url) as anonymous:
        assert (await anonymous.get("/api/me/language")).status_code == 401


async def test_the_manifest_is_named_in_the_pages_language(server):
    async with httpx.AsyncClient(base_url=server.url) as http:
        german = (await http.get("/manifest.webmanifest?lang=de")).json()
        assert german["lang"] == "de" and german["name"] == "Cardroom — Skip und Skyjo"
        assert german["shortcuts"][0]["name"] == "Punkteblock"
        polish = await http.get("/manifest.webmanifest", headers={"accept-language": "pl"})
        assert polish.json()["shortcuts"][0]["name"] == "Notes punktów"
        assert (await http.get("/manifest.webmanifest")).json()["name"] == (
            "Cardroom — Skip and Skyjo"
        )
