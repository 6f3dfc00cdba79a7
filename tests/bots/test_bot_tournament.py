"""Tournaments: duplicate deals, every pairing, honest intervals, the CLI's table, JSON and plot."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.cli import app
from cardroom.games.skip import Options
from cardroom.sim.tournament import (
    EntrantError,
    lineups,
    make_entrant,
    parse_entrants,
    run,
    schedule,
    wilson,
)

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "skip_bot.py"
QUICK = Options(players=2, match_target=None, stock_size=5)


def test_entrants_are_names_levels_settings_and_programs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A program's quotes hold its spaces and commas; it must answer its hello to enter."""
    (tmp_path / "my bot.py").write_text(
        "import json, sys\nsys.stdin.readline()\nprint(json.dumps({'type': 'hello'}))\n"
    )
    monkeypatch.chdir(tmp_path)
    spec = f"expert,planner:defence=0,master,cmd:\"{sys.executable} 'my bot.py' --depth 2,3\""
    assert parse_entrants(spec) == [
        "expert",
        "planner:defence=0",
        "master",
        f"cmd:\"{sys.executable} 'my bot.py' --depth 2,3\"",
    ]
    assert make_entrant("planner:defence=0", "1", 5.0).name == "planner"
    assert make_entrant("master", "1", 5.0).name == "expert"


@pytest.mark.parametrize("spec", ["nobody", "planner:depth", "planner:nonsense=1", "cmd:", ""])
def test_unknown_bots_are_refused_before_anything_is_played(spec: str) -> None:
    with pytest.raises((EntrantError, ValueError)):
        parse_entrants(spec)


def test_every_deal_is_played_once_from_every_seat() -> None:
    """Duplicate: each bot holds each deal's every hand once, so card luck cancels."""
    plan = schedule(["planner", "greedy"], Options(players=2), games=6, seed=3)
    assert len(plan) == 6
    by_deal: dict[int, set[tuple[str, ...]]] = {}
    for game in plan:
        by_deal.setdefault(game.deal, set()).add(game.seats)
    assert all(
        seatings == {("planner", "greedy"), ("greedy", "planner")} for seatings in by_deal.values()
    )


def test_more_bots_than_seats_meet_in_every_combination() -> None:
    assert lineups(["a", "b", "c"], Options(players=2)) == [("a", "b"), ("a", "c"), ("b", "c")]


def test_teams_sit_opposite_and_swap_sides() -> None:
    """R2.3: partners are seats i and i + n/2; each team plays each side of the deal."""
    plan = schedule(["planner", "greedy"], Options(players=4, teams=True), games=2, seed=1)
    assert [g.seats for g in plan] == [
        ("planner", "greedy", "planner", "greedy"),
        ("greedy", "planner", "greedy", "planner"),
    ]


def test_wilson_interval_matches_the_textbook() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_a_tournament_counts_every_game_for_both_sides() -> None:
    result = run(["greedy", "random"], QUICK, games=8, seed=2)
    data = result.to_json()
    assert data["games"] == 8
    bots = data["bots"]
    assert bots["greedy"]["games"] == bots["random"]["games"] == 8
    assert bots["greedy"]["wins"] + bots["random"]["wins"] + bots["greedy"]["draws"] == 8
    assert bots["greedy"]["wins"] > bots["random"]["wins"]
    low, high = bots["greedy"]["win_rate_95"]
    assert low <= bots["greedy"]["win_rate"] <= high
    assert bots["greedy"]["decisions"] > 0
    assert 0.0 <= data["first_mover_win_rate"] <= 1.0


def test_results_depend_on_the_seed_not_on_the_number_of_processes() -> None:
    one = run(["greedy", "random"], QUICK, games=4, seed=5, jobs=1).to_json()
    two = run(["greedy", "random"], QUICK, games=4, seed=5, jobs=2).to_json()
    for data in (one, two):
        for stats in data["bots"].values():
            del stats["decision_ms_p50"], stats["decision_ms_p95"]
        del data["seconds"]
    assert one == two


def test_the_command_prints_json_and_draws_the_plot(tmp_path: Path) -> None:
    plot = tmp_path / "rates.png"
    outcome = CliRunner().invoke(
        app,
        [
            "tournament",
            "--bots",
            f"greedy,cmd:python3 {EXAMPLE}",
            "--games",
            "4",
            "--jobs",
            "1",
            "--option",
            "stock=5",
            "--json",
            "--plot",
            str(plot),
        ],
    )
    assert outcome.exit_code == 0, outcome.output
    data = json.loads(outcome.stdout)
    assert Counter(name.split(":")[0] for name in data["bots"]) == Counter(["greedy", "cmd"])
    assert data["options"]["match_target"] is None  # single rounds unless asked
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_command_refuses_unknown_bots() -> None:
    outcome = CliRunner().invoke(app, ["tournament", "--bots", "planner,nobody"])
    assert outcome.exit_code == 2


def test_the_weight_screen_plays_each_variant_against_the_defaults() -> None:
    """``cardroom bench weights``: one row per variant with its interval and a verdict."""
    outcome = CliRunner().invoke(
        app,
        ["bench", "weights", "--games", "2", "--jobs", "1", "--focus", "wild"],
        env={"COLUMNS": "200"},  # one table row per line
    )
    assert outcome.exit_code == 0, outcome.output
    rows = [line for line in outcome.stdout.splitlines() if line.lstrip("│ ").startswith("wild=")]
    assert len(rows) == 2
    assert "wild=4.5" in rows[0] and "wild=18" in rows[1]
    assert all("%" in row for row in rows)
    assert "--bots planner:<change>,planner" in outcome.stdout


def test_the_weight_screen_can_start_from_the_experts_weights() -> None:
    """``--around expert``: the expert's own weights first, then each one changed on top of
    them; every row still plays the default planner."""
    outcome = CliRunner().invoke(
        app,
        [
            "bench",
            "weights",
            "--games",
            "2",
            "--jobs",
            "1",
            "--focus",
            "wild",
            "--around",
            "expert",
        ],
        env={"COLUMNS": "200"},
    )
    assert outcome.exit_code == 0, outcome.output
    base = (
        "(planner:refill=0:defence=20:empty_pile=0:count_threat=20:team_threat=1:places=1:cover=1)"
    )
    assert base in "".join(outcome.stdout.split())  # the base, in the title (wrapped)
    rows = [line for line in outcome.stdout.splitlines() if "%" in line and "│" in line]
    assert len(rows) == 3
    assert "none (the base)" in rows[0]
    assert "wild=4.5" in rows[1] and "wild=18" in rows[2]


def test_the_weight_screen_fits_80_columns() -> None:
    outcome = CliRunner().invoke(
        app,
        [
            "bench",
            "weights",
            "--games",
            "2",
            "--jobs",
            "1",
            "--focus",
            "wild",
            "--around",
            "expert",
        ],
        env={"COLUMNS": "80"},
    )
    assert outcome.exit_code == 0, outcome.output
    assert "…" not in outcome.stdout
    assert max(map(len, outcome.stdout.splitlines())) <= 80
    assert "wild=4.5" in outcome.stdout and "wild=18" in outcome.stdout


def test_the_weight_screen_refuses_an_unknown_base() -> None:
    outcome = CliRunner().invoke(app, ["bench", "weights", "--around", "greedy"])
    assert outcome.exit_code == 2
    assert "--around" in outcome.output


@pytest.mark.parametrize(
    "args", [["--focus", "nosuch"], ["--focus", "empty_pile", "--around", "expert"]]
)
def test_the_weight_screen_refuses_a_weight_it_would_not_vary(args: list[str]) -> None:
    """An empty table with exit 0 looked like a result; a focus with no variants is an error."""
    outcome = CliRunner().invoke(app, ["bench", "weights", "--games", "2", *args])
    assert outcome.exit_code == 2
    assert "--focus is one of" in outcome.stderr and "wild" in outcome.stderr


def test_the_weight_screen_varies_the_partners_reach_only_for_teams() -> None:
    """``--teams``: the partner's reach (R4.2, teams only) is screened too; at 2 players it
    would change nothing, so it is not."""
    from cardroom.benchmarks.weights import tunable, variants

    assert "partner_reach" not in tunable("expert")
    assert "partner_reach" in tunable("expert", teams=True)
    base = "planner:refill=0:defence=20:empty_pile=0:count_threat=20:team_threat=1:places=1:cover=1"
    assert variants("partner_reach", "expert", teams=True)[1:] == [
        f"{base}:partner_reach=2",
        f"{base}:partner_reach=8",
    ]
    assert "team_threat" not in tunable("expert")
    assert variants("team_threat", "expert", teams=True)[1:] == [
        base.replace("_threat=1", "_threat=0")
    ]


def test_a_switch_is_screened_by_turning_it_off() -> None:
    """``places`` is on or off (1 or 0): its one variant is the expert without it."""
    from cardroom.benchmarks.weights import tunable, variants

    assert "places" in tunable("expert") and "places" not in tunable("planner")
    assert variants("places", "expert")[1:] == [
        "planner:refill=0:defence=20:empty_pile=0:count_threat=20:team_threat=1:places=0:cover=1"
    ]
