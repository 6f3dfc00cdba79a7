"""Bot specs: how every command names a bot, so ``simulate``, ``watch`` and ``tournament``
accept the same things and refuse the same things, before any game is played.

A spec is a registry name (``planner``), a level id (``master``), either with settings
(``planner:defence=20:refill=11``, ``master:samples=8``), or an external program
(``cmd:"python examples/skip_bot.py"``, ``docs/bot-protocol.md``), any of them optionally
named for tables (``name=Ada:cmd:node ada.js``). A program is started and must answer its
``hello`` when its spec is checked: one that cannot is refused with its stderr. A list of specs is
comma-separated; commas inside quotes belong to the spec. Names and levels are those of the
game played (``game``, Skip by default): ``counter`` is a Skyjo bot, ``expert`` a Skip one.
"""

from __future__ import annotations

import math
import os
import shlex
import shutil
from typing import Any

from . import EXTERNAL_PREFIX, Bot, bots_for, make_bot
from .external import NAME_PATTERN, BotStartError, greet
from .levels import levels_for

NAME_PREFIX = "name="
_hello_names: dict[str, str] = {}
"""The names programs gave themselves in their hello, by spec (``bot_label``)."""


class BotSpecError(ValueError):
    """A spec that names no bot, a setting the bot does not take, or a program not found."""


def split_specs(text: str) -> list[str]:
    """``expert,planner:defence=0,cmd:"python my bot.py"`` -> one string per spec.

    Commas inside quotes belong to the spec; the quotes themselves are kept for ``cmd:``
    specs (``shlex`` reads them) and dropped elsewhere.
    """
    specs: list[str] = []
    current: list[str] = []
    quote = ""
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == ",":
            specs.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    specs.append("".join(current).strip())
    return [spec for spec in specs if spec]


def parse_bot_specs(text: str, game: str = "skip") -> list[str]:
    """The specs in ``text``, each checked (``check_bot_spec``); ``BotSpecError`` otherwise."""
    specs = split_specs(text)
    if not specs:
        raise BotSpecError("no bots given")
    for spec in specs:
        check_bot_spec(spec, game)
    return specs


def split_name(spec: str) -> tuple[str | None, str]:
    """``name=Ada:cmd:node a.js`` -> (``Ada``, ``cmd:node a.js``); no name -> (None, spec)."""
    if not spec.startswith(NAME_PREFIX):
        return None, spec
    name, _, rest = spec[len(NAME_PREFIX) :].partition(":")
    name = name.strip().strip("\"'")
    if not NAME_PATTERN.fullmatch(name):
        raise BotSpecError(
            f"{spec!r}: a bot's name is 1-40 letters, digits, spaces or .+#()-, not {name!r}"
        )
    if not rest.strip():
        raise BotSpecError(f"{spec!r}: name={name} names no bot; e.g. name={name}:cmd:node a.js")
    return name, rest.strip()


def bot_label(spec: str) -> str:
    """What tables call a bot: its ``name=``, else the name its program said in its hello,
    else its spec."""
    name, rest = split_name(spec)
    return name or _hello_names.get(rest) or spec


def check_bot_spec(spec: str, game: str = "skip") -> None:
    """Refuse a bad spec now, with the reason, rather than in a game or a worker process."""
    name, spec = split_name(spec)
    if spec.startswith(EXTERNAL_PREFIX):
        check_program(spec)
        try:
            said = greet(shlex.split(command_of(spec)), game=game, label=name or spec)
        except BotStartError as error:
            raise BotSpecError(f"{spec!r} failed its first exchange: {error}") from None
        if said:
            _hello_names[spec] = said
        return
    bot, settings = _resolve(spec, game)
    try:
        make_bot(bot, 0, settings, game=game)
    except TypeError:
        raise BotSpecError(
            f"{spec!r}: {bot} takes no setting {', '.join(sorted(settings))}"
        ) from None
    except ValueError as error:
        raise BotSpecError(f"{spec!r}: {error}") from None


def make_bot_from_spec(
    spec: str, seed: str | int = 0, *, timeout: float = 5.0, game: str = "skip"
) -> Bot:
    """A fresh bot from a checked spec; ``timeout`` is an external program's seconds per
    decision (the only wall-clock limit outside live play: a program may hang)."""
    name, spec = split_name(spec)
    if spec.startswith(EXTERNAL_PREFIX):
        settings = {"timeout": timeout, "name": name or spec}
        return make_bot(EXTERNAL_PREFIX + command_of(spec), seed, settings, game=game)
    bot, settings = _resolve(spec, game)
    made = make_bot(bot, seed, settings, game=game)
    if name:
        made.name = name
    return made


def _resolve(spec: str, game: str = "skip") -> tuple[str, dict[str, Any]]:
    """The registered bot and its settings; a level contributes its own, which the spec's
    settings override."""
    name, settings = _split_settings(spec)
    bots, levels = bots_for(game), levels_for(game)
    if name in bots:
        return name, settings
    if name in levels:
        level = levels[name]
        return level.bot, {**level.settings, **settings}
    choices = ", ".join(sorted(set(bots) | set(levels)))
    raise BotSpecError(f"unknown bot {name!r}; choose one of {choices} or cmd:<program>")


def _split_settings(spec: str) -> tuple[str, dict[str, Any]]:
    name, *pairs = spec.split(":")
    settings: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise BotSpecError(f"bot settings are key=value, not {pair!r} in {spec!r}")
        settings[key.strip()] = _number(key.strip(), value.strip(), spec)
    return name.strip(), settings


def _number(key: str, text: str, spec: str) -> int | float | None:
    """Every bot setting is a number (a budget or a weight), or none (no limit)."""
    if text.lower() in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            value = kind(text)
        except ValueError:
            continue
        if isinstance(value, float) and not math.isfinite(value):
            break
        return value
    raise BotSpecError(f"bot setting {key}={text!r} in {spec!r} is not a number")


def command_of(spec: str) -> str:
    """The command of a ``cmd:`` spec; quotes around all of it only delimit it in a list of
    specs (``cmd:"python my bot.py"``) and are dropped."""
    command = spec[len(EXTERNAL_PREFIX) :].strip()
    quote = command[:1]
    if len(command) >= 2 and quote in ("'", '"') and command[-1] == quote:
        inner = command[1:-1]
        if quote not in inner:
            return inner.strip()
    return command


def check_program(spec: str) -> None:
    """The program of a ``cmd:`` spec must exist: one that cannot start would lose every turn."""
    command = command_of(spec)
    try:
        args = shlex.split(command)
    except ValueError as error:
        raise BotSpecError(f"{spec!r}: cannot split the command ({error})") from None
    if not args:
        raise BotSpecError('cmd: needs a command, e.g. cmd:"python mybot.py"')
    program = args[0]
    if os.sep in program:
        if not (os.path.isfile(program) and os.access(program, os.X_OK)):
            raise BotSpecError(f"{spec!r}: {program} is not an executable file")
    elif shutil.which(program) is None:
        raise BotSpecError(f"{spec!r}: no program {program!r} on the PATH")
