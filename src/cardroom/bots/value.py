"""How likely a seat's side is to win the round, from that seat's view: the expert's leaf value.

A logistic model on a few features of a ``SeatView`` (stock cards left on each side, whose
turn it is, how far each stock top is from a building pile, wilds and cards in hand). It is
fitted on the bots' own games: rounds of the planner with the expert's weights and rollout
node budget in every seat (the expert's rollout policy), 2 players and 4 players in teams,
one seat's view at the start of every turn, labelled with whether that seat's side won the
round (a stalemate counts half).

Fit it again with ``python -m cardroom.bots.value fit`` (seeded: the same command writes the
same file, ``value_model.json`` beside this module), here or with its self-play in batches on a
Ray cluster (``--cluster ray``, ``cardroom.batches``): each round has its own seed, and the
rounds are fitted in their order, wherever they were played. (The shipped file was fitted
before each round had a seed of its own, so a refit gives slightly different weights.) It
reads views only, so a search may score its sampled deals with it without learning anything the
seat cannot see.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from cardroom.batches import RayCluster, run_batches
from cardroom.games.skip import WILD, Options, SeatView, apply_fast, new_round, view
from cardroom.games.skip.turns import position_of

from .expert_tuning import EXPERT_WEIGHTS, ROLLOUT_NODES
from .planner import context_of, missing, search

MODEL_FILE = Path(__file__).with_name("value_model.json")
FEATURES = (
    "bias",
    "my_stock",  # stock cards left on my side, over 30
    "their_stock",  # on the other side closest to winning, over 30
    "my_near",  # 1 / (1 + my side's stock): the last cards weigh most
    "their_near",
    "my_move",  # 1 when my side moves next
    "my_gap",  # cards missing before my stock top is playable, over 12
    "their_gap",  # the same for their stock top, from their discard tops only
    "wilds",  # wilds in my hand
    "hand",  # cards in my hand, over 5
)


def features(seen: SeatView) -> list[float]:
    """The model's inputs from ``seen.seat``'s view (nothing hidden is read)."""
    me = seen.seat
    assert me is not None
    sides = _sides(seen)
    mine = next(side for side in sides if me in side)
    counts = seen.stock_counts
    theirs = min((s for s in sides if s is not mine), key=lambda s: sum(counts[x] for x in s))
    my_stock = sum(counts[s] for s in mine)
    their_stock = sum(counts[s] for s in theirs)
    hand = seen.hand
    wilds = hand.count(WILD)
    resources = set(hand)
    for seat in mine:
        resources.update(pile[-1] for pile in seen.discards[seat] if pile)
    my_gap = min((_gap(seen, seat, resources, wilds) for seat in mine), default=0)
    their_gap = min(
        (
            _gap(seen, seat, {pile[-1] for s in theirs for pile in seen.discards[s] if pile}, 0)
            for seat in theirs
        ),
        default=0,
    )
    return [
        1.0,
        my_stock / 30,
        their_stock / 30,
        1 / (1 + my_stock),
        1 / (1 + their_stock),
        1.0 if seen.current in mine else 0.0,
        my_gap / 12,
        their_gap / 12,
        float(wilds),
        len(hand) / 5,
    ]


def _sides(seen: SeatView) -> list[tuple[int, ...]]:
    if seen.partners is None:
        return [(seat,) for seat in range(seen.players)]
    return [(s, seen.partners[s]) for s in range(seen.players) if s < seen.partners[s]]


def _gap(seen: SeatView, seat: int, resources: set[int], wilds: int) -> int:
    top = seen.stock_tops[seat]
    if top is None:
        return 12  # an empty stock in teams: that seat plays for its partner
    if top == WILD:
        return 0
    return missing(top, seen.values, resources, wilds)


@dataclass(frozen=True, slots=True)
class ValueModel:
    """Logistic weights over ``FEATURES``."""

    weights: tuple[float, ...]

    def win_chance(self, seen: SeatView) -> float:
        z = sum(w * x for w, x in zip(self.weights, features(seen), strict=True))
        return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


@cache
def load_model(path: Path = MODEL_FILE) -> ValueModel:
    """The shipped model (read once)."""
    data = json.loads(path.read_text())
    if data["features"] != list(FEATURES):
        raise ValueError(f"{path} was fitted on other features: {data['features']}")
    return ValueModel(tuple(float(w) for w in data["weights"]))


# -- fitting -------------------------------------------------------------------------------


Samples = tuple[list[list[float]], list[float]]
"""Features and outcomes."""


def self_play(rounds: int, seed: int, cluster: RayCluster | None = None) -> Samples:
    """Features and outcomes from ``rounds`` rounds of planner self-play (expert weights),
    half at 2 players, half at 4 in teams; here, or in batches on a Ray ``cluster``."""
    indices = range(rounds)
    if cluster is None:
        return self_play_rounds((seed, indices))
    size = max(1, min(20, math.ceil(rounds / 64)))
    batches = [(seed, indices[i : i + size]) for i in range(0, rounds, size)]
    done = {d.index: d.result for d in run_batches(self_play_rounds, batches, cluster)}
    return _joined([done[i] for i in range(len(batches))])


def self_play_rounds(packed: tuple[int, Sequence[int]]) -> Samples:
    """The self-play rounds of these indices, in order (a batch)."""
    seed, indices = packed
    return _joined([self_play_round(seed, index) for index in indices])


def _joined(parts: Sequence[Samples]) -> Samples:
    return [x for xs, _ in parts for x in xs], [y for _, ys in parts for y in ys]


def self_play_round(seed: int, index: int) -> Samples:
    """Round ``index`` of the fit's self-play, from its own seed: the views it samples (one
    seat's a turn) and the outcome each seat's side got."""
    rng = random.Random(f"value-fit:{seed}:{index}:views")
    options = Options(players=2, match_target=None)
    if index % 2:
        options = Options(players=4, teams=True, match_target=None)
    state = new_round(options, f"value-fit:{seed}:{index}")
    turns: list[tuple[int, list[float]]] = []
    last_turn = -1
    while state.result is None:
        if state.turn != last_turn:
            last_turn = state.turn
            seat = rng.randrange(state.players)  # one seat's view per turn
            turns.append((seat, features(view(state, seat))))
        seen = view(state, state.current)
        context = context_of(seen, EXPERT_WEIGHTS, ROLLOUT_NODES)
        apply_fast(state, search(position_of(seen), context)[1])
    winners = state.result.winners
    return [x for _, x in turns], [
        0.5 if not winners else 1.0 if seat in winners else 0.0 for seat, _ in turns
    ]


def fit(xs: list[list[float]], ys: list[float], ridge: float = 1e-3) -> list[float]:
    """Logistic regression by Newton's method (a few iterations; a small ridge keeps it sane)."""
    import numpy as np

    x = np.asarray(xs, dtype=float)
    y = np.asarray(ys, dtype=float)
    w = np.zeros(x.shape[1])
    for _ in range(25):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        gradient = x.T @ (p - y) + ridge * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return [round(float(v), 6) for v in w]


def log_loss(model: ValueModel, xs: list[list[float]], ys: list[float]) -> float:
    total = 0.0
    for x, y in zip(xs, ys, strict=True):
        z = sum(w * v for w, v in zip(model.weights, x, strict=True))
        p = min(1 - 1e-9, max(1e-9, 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(xs)


_CONSTANT = ValueModel((0.0,) * len(FEATURES))  # a coin: the loss any model must beat


def main(
    rounds: int = 1200,
    seed: int = 18,
    path: Path = MODEL_FILE,
    cluster: RayCluster | None = None,
) -> None:
    """Fit on ``rounds`` self-play rounds, check on fresh ones, write the model."""
    xs, ys = self_play(rounds, seed, cluster)
    weights = fit(xs, ys)
    model = ValueModel(tuple(weights))
    held_x, held_y = self_play(max(50, rounds // 6), seed + 1, cluster)
    data = {
        "features": list(FEATURES),
        "weights": weights,
        "fitted": {
            "command": f"python -m cardroom.bots.value fit --rounds {rounds} --seed {seed}",
            "positions": len(xs),
            "held_out_log_loss": round(log_loss(model, held_x, held_y), 4),
            "constant_log_loss": round(log_loss(_CONSTANT, held_x, held_y), 4),
        },
    }
    path.write_text(json.dumps(data, indent=2) + "\n")
    print(json.dumps(data["fitted"]))


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="Fit the expert's leaf value on self-play.")
    parser.add_argument("command", choices=["fit"])
    parser.add_argument("--rounds", type=int, default=1200)
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--cluster", choices=["ray"], help="self-play on Ray (docs/cluster.md)")
    parser.add_argument("--address", default="auto", help="auto, ray://HOST:PORT or HOST:PORT")
    parser.add_argument("--jobs", type=int, help="worker processes on the cluster")
    parser.add_argument("--output", type=Path, default=MODEL_FILE, help="the model file")
    arguments = parser.parse_args()
    where = RayCluster(arguments.address, arguments.jobs) if arguments.cluster else None
    main(arguments.rounds, arguments.seed, arguments.output, where)
