"""Work cut into batches, run on a Ray cluster: where a batch runs is the scheduler's choice,
never the answer's, since every result comes back keyed by its batch's number.

Beside the layers, not in one (like ``progress``): tournaments (``sim/``) and the expert's
value fit (``bots/value.py``) both send their batches here, so it imports nothing of cardroom.
Ray is an optional extra (``cardroom[cluster]``), imported only when a run asks for it.

One Ray actor per worker process plays batch after batch, so whatever a batch's code keeps in
its process between calls (the external bot programs of ``bots/external.py``) stays alive
from one batch to the next, as in a local worker process. A worker that dies (its machine
lost, its process killed) loses only the batch it was playing: that batch is given to
another worker, and since a batch depends on its own description alone, it gives the same
results there. What the workers' programs write on stderr and what they log come back to
the caller with each batch.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import tempfile
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

B = TypeVar("B")
R = TypeVar("R")

LOCAL = "auto"
"""The address that means: a Ray on this machine, started for the run and stopped after it."""
LOG_FOLDER_ENV = "CARDROOM_BOT_LOGS"
"""Where a worker's bot programs write their stderr (``bots/external.py``): a folder of the
worker's own, whose new lines go back to the caller's folder after each batch."""
PASSED_ENV_PREFIX = "CARDROOM_"
"""The caller's environment variables the workers get (``CARDROOM_GAMES``, …)."""
WORKER_RESTARTS = 3
"""Workers that may die in a run (each replaced, its batch given to another) before it fails."""


class ClusterError(RuntimeError):
    """The cluster could not be reached, or lost more workers than a run allows."""


class Refused(ClusterError):
    """A worker's ``setup`` refused the run (what it was given cannot run there)."""


@dataclass(frozen=True, slots=True)
class RayCluster:
    """Where to run: ``address`` ``auto`` (a local Ray of ``workers`` processes, started and
    stopped by the run), ``ray://HOST:PORT`` (Ray Client) or a running cluster's ``HOST:PORT``;
    ``workers`` actors (default: one per CPU of the cluster)."""

    address: str = LOCAL
    workers: int | None = None


@dataclass(frozen=True, slots=True)
class Done:
    """A finished batch: its number, its result and the worker (host, pid) that ran it."""

    index: int
    result: Any
    host: str
    pid: int


def ray_module() -> Any:
    """Ray, or a ``ClusterError`` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ClusterError(
            "--cluster ray needs Ray: pip install 'cardroom[cluster]' (docs/cluster.md)"
        ) from None
    return ray


@contextlib.contextmanager
def connected(cluster: RayCluster) -> Iterator[Any]:
    """Ray, connected to ``cluster`` for the block; a Ray this process started is stopped after
    it. A Ray already connected (a test's) is used as it is."""
    ray = ray_module()
    if ray.is_initialized():
        yield ray
        return
    try:
        if cluster.address == LOCAL:
            ray.init(
                address="local",
                num_cpus=cluster.workers or os.cpu_count() or 1,
                include_dashboard=False,
                log_to_driver=False,  # the workers' logs come back with their batches
                configure_logging=False,
            )
        else:  # a running cluster, configured by whoever started it
            ray.init(address=cluster.address, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as error:
        raise ClusterError(f"cannot reach the Ray cluster at {cluster.address}: {error}") from None
    try:
        yield ray
    finally:
        ray.shutdown()


class _Kept(logging.Handler):
    """A worker's warnings, kept to go back to the caller with the batch that logged them."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[tuple[str, int, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append((record.name, record.levelno, record.getMessage()))


class _Worker:
    """One worker process of the run (a Ray actor): runs batches one after another."""

    def __init__(self, folder: str, env: dict[str, str]) -> None:
        os.environ.update(env)
        if os.path.isdir(folder):  # the caller's folder, where the same files are on a node
            os.chdir(folder)
        self.logs = Path(tempfile.mkdtemp(prefix="cardroom-worker-logs-"))
        os.environ[LOG_FOLDER_ENV] = str(self.logs)
        self.sent: dict[str, int] = {}
        self.kept = _Kept()
        logging.getLogger("cardroom").addHandler(self.kept)
        self.host = socket.gethostname()

    def where(self) -> tuple[str, int]:
        return self.host, os.getpid()

    def call(self, work: Callable[..., Any], *args: Any) -> tuple[Any, dict[str, str], list]:
        """``work(*args)``, with the stderr its programs wrote and the records it logged."""
        result = work(*args)
        records, self.kept.records = self.kept.records, []
        return result, self._new_logs(), records

    def _new_logs(self) -> dict[str, str]:
        new = {}
        for path in sorted(self.logs.iterdir()):
            with path.open("rb") as file:
                file.seek(self.sent.get(path.name, 0))
                text = file.read()
            if text:
                self.sent[path.name] = self.sent.get(path.name, 0) + len(text)
                new[path.name] = text.decode(errors="replace")
        return new


def run_batches(
    work: Callable[[B], R],
    batches: Sequence[B],
    cluster: RayCluster,
    *,
    setup: Callable[[], str | None] | None = None,
    log_folder: Path | None = None,
    on_start: Callable[[list[tuple[str, int]]], None] | None = None,
) -> Iterator[Done]:
    """``work(batch)`` for every batch on ``cluster``'s workers, yielded as each finishes.

    ``setup`` runs first on every worker; a message it returns refuses the run
    (``Refused``) before any batch. The workers' programs' stderr is appended to
    ``log_folder`` (the caller's bot logs). ``on_start`` hears the workers (host, pid) once
    they are up. Leaving the loop early (an error, Ctrl-C) ends every worker at once.
    """
    with connected(cluster) as ray:
        count = cluster.workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        count = max(1, min(count, len(batches)))
        actor_class = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(_Worker)
        env = {k: v for k, v in os.environ.items() if k.startswith(PASSED_ENV_PREFIX)}
        env.pop(LOG_FOLDER_ENV, None)

        def start() -> Any:
            return actor_class.remote(os.getcwd(), env)

        workers = [start() for _ in range(count)]
        try:
            places = ray.get([w.where.remote() for w in workers])
            if on_start is not None:
                on_start(places)
            if setup is not None:
                for refused, _, records in ray.get([w.call.remote(setup) for w in workers]):
                    _relog(records)
                    if refused:
                        raise Refused(refused)
            yield from _schedule(ray, work, batches, workers, places, start, log_folder)
        finally:
            for worker in workers:
                with contextlib.suppress(Exception):  # already gone
                    ray.kill(worker)


def _schedule(
    ray: Any,
    work: Callable[[Any], Any],
    batches: Sequence[Any],
    workers: list[Any],
    places: list[tuple[str, int]],
    start: Callable[[], Any],
    log_folder: Path | None,
) -> Iterator[Done]:
    """Keep every worker busy with one batch; a batch whose worker died goes back in line,
    first, and a new worker takes the dead one's place."""
    waiting = deque(range(len(batches)))
    idle = list(zip(workers, places, strict=True))
    running: dict[Any, tuple[Any, tuple[str, int], int]] = {}
    deaths = 0
    while waiting or running:
        while idle and waiting:
            worker, place = idle.pop()
            index = waiting.popleft()
            running[worker.call.remote(work, batches[index])] = (worker, place, index)
        (ref,), _ = ray.wait(list(running), num_returns=1)
        worker, place, index = running.pop(ref)
        try:
            result, logs, records = ray.get(ref)
        except ray.exceptions.RayActorError as error:
            deaths += 1
            if deaths > WORKER_RESTARTS:
                raise ClusterError(f"{deaths} workers died; the last: {error}") from None
            logging.getLogger(__name__).warning(
                "a worker (%s, pid %d) died; its batch %d goes to another", *place, index
            )
            waiting.appendleft(index)
            fresh = start()
            workers.append(fresh)
            idle.append((fresh, tuple(ray.get(fresh.where.remote()))))
            continue
        except ray.exceptions.RayTaskError as error:
            raise error.as_instanceof_cause() from None  # the batch's own error, as it was
        idle.append((worker, place))
        _relog(records)
        if log_folder is not None:
            _append_logs(log_folder, place, logs)
        yield Done(index, result, *place)


def _relog(records: list[tuple[str, int, str]]) -> None:
    for name, level, message in records:
        logging.getLogger(name).log(level, "%s", message)


def _append_logs(folder: Path, place: tuple[str, int], logs: dict[str, str]) -> None:
    """A worker's log files go to the caller's folder under names that say where they ran."""
    if not logs:
        return
    folder.mkdir(parents=True, exist_ok=True)
    host, _ = place
    for name, text in logs.items():
        with (folder / f"{host}-{name}").open("a", encoding="utf-8") as file:
            file.write(text)
