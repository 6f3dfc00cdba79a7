"""The player's language on the server: the account's choice (``/api/me/language``), and the
web app's manifest named in the language asked for (``/manifest.webmanifest?lang=pl``)."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from cardroom.server.bodies import Language, documented, read
from cardroom.server.i18n import LANGUAGES, language_of, supported, t
from cardroom.server.lobby import identity
from cardroom.store import repository as repo
from cardroom.tables.errors import Refusal

router = APIRouter()


@router.get("/api/me/language")
async def my_language(request: Request) -> dict[str, Any]:
    """The language this player chose (null: none, the browser's languages apply)."""
    me = identity(request)
    language = await request.app.state.journal.run(lambda c: repo.language_of(c, me.id))
    return {"language": language, "languages": list(LANGUAGES)}


@router.put("/api/me/language", openapi_extra=documented(Language))
async def choose_language(request: Request) -> dict[str, Any]:
    """Keep the player's language with the player, so every device they sign in on uses it."""
    me = identity(request)
    asked = (await read(request, Language)).language
    language = supported(asked) if asked is not None else None
    if asked is not None and language is None:
        raise Refusal(
            400,
            "bad_language",
            f"no catalog for {asked!r}; there are {', '.join(LANGUAGES)}",
        )
    known = await request.app.state.journal.run(lambda c: repo.set_language(c, me.id, language))
    if not known:
        raise Refusal(404, "not_found", "this player is not known here; choose a name again")
    return {"language": language}


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest(request: Request) -> Response:
    """The installed app's name and shortcuts in the page's language."""
    lang = language_of(request)
    path = request.app.state.settings.web_dir / "manifest.webmanifest"
    data = json.loads(path.read_text(encoding="utf-8"))
    data.update(
        lang=lang,
        name=t(lang, "app.name"),
        description=t(lang, "app.description"),
    )
    for shortcut in data.get("shortcuts", []):
        if shortcut.get("url") == "/keeper/":
            shortcut.update(
                name=t(lang, "keeper.title"),
                short_name=t(lang, "keeper.short"),
                description=t(lang, "keeper.description"),
            )
    return Response(
        json.dumps(data, ensure_ascii=False),
        media_type="application/manifest+json",
        headers={"cache-control": "no-cache", "vary": "cookie, accept-language"},
    )
