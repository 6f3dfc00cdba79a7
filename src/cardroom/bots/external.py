"""``cmd:<program>``: a bot that is another program, speaking JSON lines (``docs/bot-protocol.md``).

One program serves many games, one after another or at once: it says ``hello`` once when it
starts (its name), then gets a ``start`` per game, every ``move`` made at the table, a
``decide`` for each of its decisions (answered with one action line), a ``round_over`` and an
``over`` with the result; every message of a game carries its ``game_id``. A late answer loses
only that decision (the engine's ``TIMEOUT``, R7.3); a program that dies is started again, and
a program that never manages its first exchange is refused before any game is played.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import json
import logging
import os
import queue
import re
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, NoReturn

from cardroom.games import skyjo
from cardroom.games.skip import TIMEOUT, Action, NotationError, SeatView, action_from_json
from cardroom.games.skip.notation import action_to_json

log = logging.getLogger("cardroom.bots.external")

_NOTATIONS: dict[str, tuple[Callable[[Any], Any], Callable[[Any], dict[str, Any]], Any]] = {
    "skip": (action_from_json, action_to_json, TIMEOUT),
    "skyjo": (skyjo.action_from_json, skyjo.action_to_json, skyjo.TIMEOUT),
}
"""Per game: an action from JSON, an action to JSON, and the turn a program loses (R7.3)."""

PREFIX = "cmd:"
PROTOCOL = 2
START_TIMEOUT = 10.0
"""Seconds a program has to start and answer ``hello``: start-up never counts against a turn.
Read when a program starts (a test may lower it)."""
MAX_OWED = 3
"""Late answers a program may still owe; one more late decision and it is restarted."""
NAME_PATTERN = re.compile(r"[\w .+#()-]{1,40}")


def bot_log_dir() -> Path:
    """Where each program's stderr is kept, one file per process (``CARDROOM_BOT_LOGS``)."""
    return Path(os.environ.get("CARDROOM_BOT_LOGS", "var/bot-logs"))


class BotStartError(RuntimeError):
    """A program that did not start, or did not answer ``hello``; carries its stderr's end."""

    def __init__(self, why: str, stderr: str = "", log_path: Path | None = None) -> None:
        text = why
        if stderr.strip():
            text += "; its stderr ends with:\n" + stderr.rstrip()
        elif log_path is not None:
            text += " (it wrote nothing on stderr)"
        super().__init__(text)
        self.why = why
        self.stderr = stderr
        self.log_path = log_path


def resolved_view(view: Any) -> dict[str, Any]:
    """The view's JSON with defaults resolved: ``options.stock_size`` is the stock dealt
    (R3.2), never ``null``, so a program need not know the default table."""
    data = view.to_json()
    options = data.get("options")
    if isinstance(options, dict) and options.get("stock_size", 0) is None:
        options["stock_size"] = view.options.stock
    return data


def resolved_options(options: Any) -> dict[str, Any]:
    data = options.to_json()
    if data.get("stock_size", 0) is None:
        data["stock_size"] = options.stock
    return data


class BotProgram:
    """One running program: its pipes, its stderr log, and the answers it still owes."""

    _numbers = itertools.count(1)

    def __init__(
        self,
        args: list[str],
        *,
        game: str = "skip",
        timeout: float = 5.0,
        label: str = "",
        log_dir: Path | None = None,
        start_timeout: float | None = None,
    ) -> None:
        self.args = args
        self.game = game
        self.timeout = timeout
        self.label = label or PREFIX + shlex.join(args)
        self.name: str | None = None  # the name the program gave itself in its hello
        self.owed = 0
        self.games: set[str] = set()  # the games it was told about (``start``)
        folder = log_dir if log_dir is not None else bot_log_dir()
        folder.mkdir(parents=True, exist_ok=True)
        slug = re.sub(r"[^\w.-]+", "-", self.label)[:40].strip("-") or "bot"
        self.log_path = folder / f"{slug}-{os.getpid()}-{next(self._numbers)}.log"
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._process = self._spawn()
        self._hello(START_TIMEOUT if start_timeout is None else start_timeout)

    def _spawn(self) -> subprocess.Popen[str]:
        with self.log_path.open("a") as stderr:
            try:
                process = subprocess.Popen(
                    self.args,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=stderr,
                    text=True,
                    bufsize=1,
                    # Its own process group: ending it ends whatever it started too (a shell
                    # script's children), so no process of it outlives the run.
                    start_new_session=True,
                )
            except OSError as error:
                raise BotStartError(f"{self.label} cannot start: {error}") from None
        assert process.stdout is not None
        threading.Thread(target=_pump, args=(process.stdout, self._lines), daemon=True).start()
        return process

    def _hello(self, start_timeout: float) -> None:
        """The first exchange: a program that fails it is refused, with its stderr shown."""
        hello = {"type": "hello", "protocol": PROTOCOL, "game": self.game}
        hello["timeout"] = self.timeout
        if not self.send(hello):
            self._refuse(f"{self.label} exited (code {self._process.poll()}) before its hello")
        try:
            line = self._lines.get(timeout=start_timeout)
        except queue.Empty:
            self._refuse(
                f"{self.label} did not answer the hello within {start_timeout:g} s "
                '(protocol 2: answer {"type": "hello", "name": "..."})'
            )
        if line is None:
            self._refuse(f"{self.label} exited (code {self._process.wait()}) before its hello")
        try:
            answer = json.loads(line)
        except json.JSONDecodeError:
            answer = None
        if not isinstance(answer, dict) or answer.get("type") != "hello":
            self._refuse(
                f"{self.label} answered the hello with {_clip(line)!r}, not "
                '{"type": "hello", "name": "..."}'
            )
        name = answer.get("name")
        if isinstance(name, str) and NAME_PATTERN.fullmatch(name.strip()):
            self.name = name.strip()

    def _refuse(self, why: str) -> NoReturn:
        self.close()
        raise BotStartError(why, stderr_tail(self.log_path), self.log_path)

    @property
    def alive(self) -> bool:
        return self._process.poll() is None

    @property
    def exit_code(self) -> int | None:
        return self._process.poll()

    def send(self, message: dict[str, Any]) -> bool:
        """Write one line; False when the program is gone."""
        stdin = self._process.stdin
        try:
            assert stdin is not None
            stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            return False
        return True

    def ask(self, message: dict[str, Any]) -> tuple[str | None, str]:
        """(the answer line, "") or (None, why not). Answers still owed for earlier, late
        decisions are read and dropped first: a late answer is never taken for a new one."""
        if not self.send(message):
            return None, f"it exited (code {self._process.poll()}) before reading its view"
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.owed += 1
                return None, f"it did not answer within {self.timeout:g} s"
            if line is None:
                return None, f"it exited (code {self._process.wait()}) without answering"
            if self.owed:
                # An answer to an earlier, late decision: dropped; this decision's own time
                # starts now, so a program catching up loses no more than the late one.
                self.owed -= 1
                deadline = time.monotonic() + self.timeout
                continue
            return line, ""

    def close(self) -> None:
        """End the program: stdin closes (its cue to exit), then its whole process group is
        killed, the program if it lingers and anything it started. Its stdout is closed by the
        thread reading it, at its end: closing it here would wait for that read, which a child
        still holding the pipe (``sleep 1000`` in a script) could make last for ever."""
        process = self._process
        if process.poll() is None and process.stdin is not None:
            try:
                process.stdin.close()
                process.wait(timeout=1.0)
            except (OSError, subprocess.TimeoutExpired):
                pass
        with contextlib.suppress(OSError):  # the group is gone already
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()


def stderr_tail(path: Path, lines: int = 12) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


# -- the programs of this process, shared by games --------------------------------------------

_idle: dict[tuple[Any, ...], list[BotProgram]] = {}
_pool_lock = threading.Lock()


def _checkout(key: tuple[Any, ...], make: Callable[[], BotProgram]) -> BotProgram:
    """A running program of this command not serving a seat now, or a new one."""
    with _pool_lock:
        idle = _idle.get(key, [])
        while idle:
            program = idle.pop()
            if program.alive:
                return program
            program.close()
    return make()


def _checkin(key: tuple[Any, ...], program: BotProgram) -> None:
    if not program.alive:
        program.close()
        return
    with _pool_lock:
        _idle.setdefault(key, []).append(program)


@atexit.register
def close_programs() -> None:
    """End every idle program of this process (at exit, and between tests)."""
    with _pool_lock:
        programs = [p for idle in _idle.values() for p in idle]
        _idle.clear()
    for program in programs:
        program.close()


_game_ids = itertools.count(1)


class ExternalBot:
    """One seat of one game played by a program; the program is shared with other games."""

    def __init__(
        self,
        command: str | list[str],
        seed: str | int = 0,
        *,
        timeout: float = 5.0,
        max_restarts: int = 3,
        game: str = "skip",
        name: str | None = None,
        log_dir: Path | None = None,
    ) -> None:
        self.args = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.args:
            raise ValueError("an external bot needs a command to run")
        self.label = name or PREFIX + (command if isinstance(command, str) else shlex.join(command))
        self.name = self.label
        self.seed = str(seed)
        self.timeout = float(timeout)
        self.max_restarts = int(max_restarts)
        self.game = game
        self.log_dir = log_dir
        self.game_id = f"{os.getpid()}-{next(_game_ids)}"
        self.seat: int | None = None
        self.options: Any = None
        self.starts = 0
        self.decisions = 0
        self.turns_lost = 0  # decisions lost; all of them means the program never played
        self._why_not = ""  # why there is no program to ask (it cannot start, it keeps crashing)
        self._said_why_not = False
        self._program: BotProgram | None = None
        self._from_json, self._to_json, self._timeout_action = _NOTATIONS[game]

    @property
    def _key(self) -> tuple[Any, ...]:
        return (tuple(self.args), self.game, self.timeout, self.label, self.log_dir)

    # -- the game's course, told to the program -------------------------------------------------

    def begin(self, seat: int, options: Any) -> None:
        """A game starts with this bot at ``seat``."""
        self.seat, self.options = seat, options
        self._tell_start()

    def observe(self, round_number: int, seat: int, action: Any) -> None:
        """Someone (this bot too) made a move: actions are public, a card drawn is not."""
        self._tell(
            {
                "type": "move",
                "game_id": self.game_id,
                "round": round_number,
                "seat": seat,
                "action": self._to_json(action),
            }
        )

    def round_over(self, round_number: int, view: Any) -> None:
        message = {"type": "round_over", "game_id": self.game_id, "round": round_number}
        self._tell({**message, "view": resolved_view(view)})

    def end(self, winners: tuple[int, ...], scores: list[int]) -> None:
        """The game is over: the program learns the result, then the seat is let go."""
        self._tell(
            {
                "type": "over",
                "game_id": self.game_id,
                "seat": self.seat,
                "winners": list(winners),
                "scores": list(scores),
                "won": self.seat in winners,
            }
        )
        self.close()

    def _tell(self, message: dict[str, Any]) -> None:
        program = self._program
        if program is not None and program.alive:
            program.send(message)

    def _tell_start(self) -> None:
        program = self._ensure_program()
        if program is None or self.game_id in program.games or self.seat is None:
            return
        program.games.add(self.game_id)
        program.send(
            {
                "type": "start",
                "game_id": self.game_id,
                "seat": self.seat,
                "players": self.options.players,
                "options": resolved_options(self.options),
                "seed": self.seed,
            }
        )

    # -- decisions ------------------------------------------------------------------------------

    def choose(self, view: SeatView) -> Action:
        """An action of the view's game (Skip's or Skyjo's), or the game's timeout."""
        self.decisions += 1
        if self.seat is None:
            self.seat, self.options = view.seat, view.options
        legal = view.legal_actions()
        self._tell_start()
        program = self._program
        if program is None:
            return self._lose(view, self._why_not or "it crashed too often")
        if not program.alive:  # it exited after the start, before this view: said as such
            why = f"it exited (code {program.exit_code}) before reading its view"
            self._drop_program()
            return self._lose(view, why)
        request = {
            "type": "decide",
            "protocol": PROTOCOL,
            "game_id": self.game_id,
            "seed": self.seed,
            "view": resolved_view(view),
            "legal": [self._to_json(a) for a in legal],
        }
        line, why = program.ask(request)
        if line is None:
            if not program.alive or program.owed > MAX_OWED:
                self._drop_program()
            return self._lose(view, why)
        try:
            action = self._from_json(json.loads(line))
        except (json.JSONDecodeError, NotationError, TypeError) as error:
            return self._lose(view, f"its answer {_clip(line)!r} is not an action: {error}")
        if action not in legal:
            return self._lose(view, f"its answer {action} is not a legal action now")
        return action

    def _lose(self, view: Any, why: str) -> Action:
        self.turns_lost += 1
        seat = "?" if view.seat is None else view.seat + 1
        # A program given up on loses every later turn: said once, not once a turn.
        repeated = why == self._why_not and self._said_why_not
        self._said_why_not = self._said_why_not or why == self._why_not
        text = "external bot %r at seat %s loses turn %d: %s"
        log.log(
            logging.DEBUG if repeated else logging.WARNING, text, self.name, seat, view.turn, why
        )
        return self._timeout_action

    # -- the program ----------------------------------------------------------------------------

    def _ensure_program(self) -> BotProgram | None:
        if self._program is not None and self._program.alive:
            return self._program
        self._drop_program()
        if self.starts > self.max_restarts:
            self._why_not = (
                f"it crashed too often ({self.starts} starts) and is no longer restarted; "
                "its remaining turns are lost"
            )
            return None
        self.starts += 1

        def make() -> BotProgram:
            return BotProgram(
                self.args,
                game=self.game,
                timeout=self.timeout,
                label=self.label,
                log_dir=self.log_dir,
            )

        try:
            self._program = _checkout(self._key, make)
        except BotStartError as error:
            log.warning("external bot %r cannot start: %s", self.name, error)
            self._why_not = f"it cannot start ({error.why}); its remaining turns are lost"
            self.starts = self.max_restarts + 1
            return None
        if self._program.name and self.label.startswith(PREFIX):
            self.name = self._program.name
        return self._program

    def _drop_program(self) -> None:
        program, self._program = self._program, None
        if program is not None:
            program.close()

    def close(self) -> None:
        """Let the seat go: the program goes back to this process's pool for the next game."""
        program, self._program = self._program, None
        if program is not None:
            program.games.discard(self.game_id)
            _checkin(self._key, program)

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # never fail while the interpreter shuts down
            self.close()


def greet(
    args: list[str], *, game: str = "skip", timeout: float = 5.0, label: str = ""
) -> str | None:
    """Start a program, exchange hellos and end it: its own name, or ``BotStartError``."""
    program = BotProgram(args, game=game, timeout=timeout, label=label)
    program.close()
    return program.name


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    """Move the program's output lines to a queue, so reading can time out."""
    try:
        for line in stream:
            lines.put(line)
    except (OSError, ValueError):
        pass
    with contextlib.suppress(OSError):
        stream.close()
    lines.put(None)


def _clip(text: str, limit: int = 80) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 3] + "..."
