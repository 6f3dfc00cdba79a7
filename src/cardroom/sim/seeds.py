"""Which match a run's seed deals, and why a program playing in it learns nothing from that.

A run's ``--seed`` is small (below 2^32) and the way seeds are derived is public, so a match
seed made from the seed alone can be found by trying every run seed: a program handed a seed
derived from it, or shown its own cards, rebuilt every hidden card in seconds. When a program
plays (``cmd:``), the match seeds are therefore keyed with a **secret** of the run: 128 random
bits that never reach a bot, written to the run's summary and taken back by ``--secret``, so
the run can be repeated. The seeds a bot is handed (``derive_seed``) are one-way from the match
seed, so they tell nothing either.

Built-in bots read views only (``bots/``), so a run of them alone needs no secret: its seed
alone gives its games, as ever.
"""

from __future__ import annotations

import re
import secrets

from cardroom.games.base import derive_seed

SECRET_BYTES = 16
SECRET_PATTERN = re.compile(rf"[0-9a-f]{{{2 * SECRET_BYTES}}}")


def new_secret() -> str:
    """A fresh run secret: 32 hex digits."""
    return secrets.token_hex(SECRET_BYTES)


def check_secret(secret: str) -> str:
    """``secret`` if it is one (32 lowercase hex digits), else ``ValueError`` saying so."""
    if not SECRET_PATTERN.fullmatch(secret):
        raise ValueError(
            f"a run secret is {2 * SECRET_BYTES} hex digits (as a run's summary prints it), "
            f"not {secret!r}"
        )
    return secret


def keyed(public: int | str, secret: str = "") -> int | str:
    """A match seed: ``public`` (made of the run's seed and the deal's number, as runs have
    always been dealt) without a secret; keyed with the secret when there is one (HMAC-SHA256:
    without it, the seed and the deal number tell nothing)."""
    return derive_seed(secret, "match", public) if secret else public
