"""Which planner weights matter: each one changed alone, played against the defaults.

Run: ``cardroom bench weights`` (or ``python -m benchmarks.weights``). Every variant plays
``games`` 2-player duplicate games (``cardroom tournament``) against the default planner; a
win rate whose 95% interval excludes 50% is a real difference. This is how the expert's
``EXPERT_WEIGHTS`` were found (``bots/expert.py``): of every weight halved and doubled, only the
cost of starting a new discard pile moved the result much (empty_pile 0: 59-60% of 800 games);
``defence`` 0 lost badly (35%), so not feeding the next player stays.
"""

from __future__ import annotations

from dataclasses import fields

from cardroom.bots.planner import Weights
from cardroom.games.skip import Options
from cardroom.sim.tournament import run as tournament

FIXED = ("stock", "win", "partner_reach", "step")  # units, the win, teams only, a tie-break


def variants(focus: str | None = None) -> list[str]:
    """Entrant specs: every tunable weight at half and twice its default, and empty_pile's
    neighbourhood (the one that mattered); or only ``focus``'s."""
    defaults = Weights()
    specs = []
    for field in fields(defaults):
        if field.name in FIXED or (focus and field.name != focus):
            continue
        value = getattr(defaults, field.name)
        for factor in (0.5, 2.0):
            specs.append(f"planner:{field.name}={value * factor:g}")
    if focus in (None, "defence"):
        specs.append("planner:defence=0")
    if focus in (None, "empty_pile"):
        specs += [f"planner:empty_pile={value:g}" for value in (-2, -1, 0, 0.5)]
    return specs


def main(games: int = 400, seed: int = 21, jobs: int = 2, focus: str | None = None) -> None:
    from rich.console import Console
    from rich.progress import track
    from rich.table import Table

    options = Options(players=2, match_target=None)
    table = Table(
        title=f"Planner weights vs the defaults: {games} duplicate games each, seed {seed}",
        title_justify="left",
    )
    for column in ("variant", "win rate", "95% interval", "verdict"):
        table.add_column(column, justify="right" if column != "variant" else "left")
    for spec in track(variants(focus), description="variants", transient=True):
        stats = tournament([spec, "planner"], options, games, seed, jobs=jobs).to_json()
        mine = stats["bots"][spec]
        low, high = mine["win_rate_95"]
        verdict = "better" if low > 0.5 else "worse" if high < 0.5 else "no clear difference"
        table.add_row(spec, f"{mine['win_rate']:.1%}", f"{low:.1%} - {high:.1%}", verdict)
    Console().print(table)
    Console().print(
        f"repeat one: cardroom tournament --bots <variant>,planner --games {games} "
        f"--seed {seed} --jobs {jobs}"
    )


if __name__ == "__main__":
    main()
