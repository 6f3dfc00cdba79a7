"""Builders shared by the score keeper's tests: games with a few rounds, written briefly."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from cardroom.keeper import KeeperError, KeptGame, SkipSettings, SkyjoSettings, new_game


def skyjo(
    *rounds: tuple[Sequence[int], str],
    players: Sequence[str] = ("Ann", "Bob", "Cy"),
    end_score: int = 100,
) -> KeptGame:
    """A Skyjo game with ``rounds`` as (sums in player order, closer's name)."""
    game = new_game("skyjo", players, SkyjoSettings(end_score=end_score))
    for sums, closer in rounds:
        game = game.add_round(game.skyjo_round(dict(zip(players, sums, strict=True)), closer))
    return game


def skip(
    *rounds: tuple[str | None, dict[str, int]],
    players: Sequence[str] = ("Ann", "Bob", "Cy"),
    **settings: object,
) -> KeptGame:
    """A Skip game with ``rounds`` as (who went out, cards left by name)."""
    game = new_game("skip", players, SkipSettings(**settings))  # type: ignore[arg-type]
    for went_out, stocks in rounds:
        game = game.add_round(game.skip_round(went_out, stocks))
    return game


def refused(
    call: Callable[[], object], field: str, *words: str, round: int | None = None
) -> KeeperError:
    """``call()`` raises a ``KeeperError`` naming ``field`` (and ``round``), with ``words``."""
    with pytest.raises(KeeperError) as caught:
        call()
    error = caught.value
    assert error.field == field, str(error)
    assert error.round == round, str(error)
    for word in words:
        assert word in str(error), str(error)
    return error
