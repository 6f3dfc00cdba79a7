"""``cmd:<program>``: a bot that is another program, speaking JSON lines (``docs/bot-protocol.md``).

For each decision the program gets one line on stdin, ``{"type": "decide", "view": ...,
"legal": [...]}``, and answers one line on stdout: an action in the JSON notation. A program that
answers late, answers something that is not a legal action, or dies loses that turn (the engine's
``TIMEOUT``, R7.3) with a log line saying why; the game goes on. A late or dead program is killed
and started again for its next decision, so a stale answer can never be taken for a new one.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import shlex
import subprocess
import threading
from collections.abc import Callable
from typing import IO, Any

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
PROTOCOL = 1


class ExternalBot:
    """Runs ``command`` and relays views and actions over its stdin and stdout."""

    def __init__(
        self,
        command: str | list[str],
        seed: str | int = 0,
        *,
        timeout: float = 5.0,
        max_restarts: int = 3,
        game: str = "skip",
    ) -> None:
        self.args = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.args:
            raise ValueError("an external bot needs a command to run")
        self.name = PREFIX + (command if isinstance(command, str) else shlex.join(command))
        self.seed = str(seed)
        self.timeout = float(timeout)
        self.max_restarts = int(max_restarts)
        self.starts = 0
        self.decisions = 0
        self.turns_lost = 0  # decisions lost; all of them means the program never played
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._from_json, self._to_json, self._timeout_action = _NOTATIONS[game]

    # -- the conversation ----------------------------------------------------------------------

    def choose(self, view: SeatView) -> Action:
        """An action of the view's game (Skip's or Skyjo's), or the game's timeout."""
        self.decisions += 1
        legal = view.legal_actions()
        request = {
            "type": "decide",
            "protocol": PROTOCOL,
            "seed": self.seed,
            "view": view.to_json(),
            "legal": [self._to_json(a) for a in legal],
        }
        process = self._ensure_started()
        if process is None:
            return self._lose(view, "it crashed too often and is no longer restarted")
        try:
            assert process.stdin is not None
            process.stdin.write(json.dumps(request, separators=(",", ":")) + "\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            self._stop()
            return self._lose(view, f"it exited (code {process.poll()}) before reading its view")
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self._stop()
            return self._lose(view, f"it did not answer within {self.timeout:g} s")
        if line is None:
            code = process.wait()
            self._stop()
            return self._lose(view, f"it exited (code {code}) without answering")
        try:
            action = self._from_json(json.loads(line))
        except (json.JSONDecodeError, NotationError) as error:
            return self._lose(view, f"its answer {_clip(line)!r} is not an action: {error}")
        if action not in legal:
            return self._lose(view, f"its answer {action} is not a legal action now")
        return action

    def _lose(self, view: SeatView, why: str) -> Action:
        self.turns_lost += 1
        seat = "?" if view.seat is None else view.seat + 1
        log.warning("external bot %r at seat %s loses turn %d: %s", self.name, seat, view.turn, why)
        return self._timeout_action

    # -- the process ---------------------------------------------------------------------------

    def _ensure_started(self) -> subprocess.Popen[str] | None:
        if self._process is not None and self._process.poll() is None:
            return self._process
        if self._process is not None:
            self._stop()
        if self.starts > self.max_restarts:
            return None
        self.starts += 1
        try:
            process = subprocess.Popen(
                self.args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            log.warning("external bot %r cannot start: %s", self.name, error)
            return None
        self._lines = queue.Queue()
        assert process.stdout is not None
        threading.Thread(target=_pump, args=(process.stdout, self._lines), daemon=True).start()
        self._process = process
        return process

    def _stop(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def close(self) -> None:
        """End the program: stdin closes (its cue to exit), then it is killed if it lingers."""
        process = self._process
        if process is not None and process.poll() is None and process.stdin is not None:
            try:
                process.stdin.close()
                process.wait(timeout=1.0)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._stop()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # never fail while the interpreter shuts down
            self.close()


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    """Move the program's output lines to a queue, so reading can time out."""
    try:
        for line in stream:
            lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(None)


def _clip(text: str, limit: int = 80) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 3] + "..."
