"""Fair bot competitions (R7.2, issue 36): a program knows every message it is sent, how
seeds are derived, and that a run's --seed is small; it must learn nothing of the hidden cards.

``programs/seed_thief.py`` tries exactly that: it brute-forces the match seed from the seed it
is handed and from the stock tops it sees. On public deals (a seed alone) it finds every game;
when a program plays, the deals are keyed with the run's secret (``sim/seeds.py``), and what it
finds deals other cards than the true ones.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from typer.testing import CliRunner

from cardroom.cli import app
from cardroom.games.skip import Match, Options
from cardroom.sim.seeds import keyed
from cardroom.sim.tournament import run, schedule

THIEF = Path(__file__).resolve().parent / "programs" / "seed_thief.py"
QUICK = Options(players=2, match_target=None, stock_size=5)


def thief(report: Path) -> str:
    return f"cmd:{sys.executable} {THIEF} {report}"


def findings(report: Path) -> list[list[int | str]]:
    return [json.loads(line)["found"] for line in report.read_text().splitlines()]


def deals(seed: int | str) -> tuple[object, object]:
    state = Match(QUICK, seed).state
    return state.stocks, state.draw


def test_on_public_deals_the_thief_finds_every_game(tmp_path: Path) -> None:
    """The attack is real: with no secret, each game's match seed is found."""
    report = tmp_path / "found.jsonl"
    bots = ["greedy", thief(report)]
    run(bots, QUICK, games=4, seed=7, timeout=60)
    truth = {game.seed for game in schedule(bots, QUICK, 4, 7)}
    found = findings(report)
    assert len(found) == 4
    assert all(truth & set(seeds) for seeds in found)


def test_a_tournament_with_a_program_keys_its_deals_and_the_thief_learns_nothing(
    tmp_path: Path,
) -> None:
    report = tmp_path / "found.jsonl"
    bots = ["greedy", thief(report)]
    outcome = CliRunner().invoke(
        app,
        ["tournament", "--bots", ",".join(bots), "--games", "4", "--seed", "7", "--json"],
        catch_exceptions=False,
    )
    assert outcome.exit_code == 0, outcome.output
    secret = json.loads(outcome.stdout)["secret"]
    truth = [deals(game.seed) for game in schedule(bots, QUICK, 4, 7, secret=secret)]
    found = findings(report)
    assert len(found) == 4
    assert all(deals(seed) not in truth for seeds in found for seed in seeds)


def test_a_simulation_with_a_program_keys_its_deals_too(tmp_path: Path) -> None:
    report = tmp_path / "found.jsonl"
    outcome = CliRunner().invoke(
        app,
        [
            *("simulate", "--bots", f"greedy,{thief(report)}", "--games", "3", "--seed", "5"),
            *("-o", "stock=5", "--json"),
        ],
    )
    assert outcome.exit_code == 0, outcome.output
    secret = json.loads(outcome.stdout)["secret"]
    truth = [deals(keyed(f"5/{game}", secret)) for game in range(3)]
    found = findings(report)
    assert len(found) == 3
    assert all(deals(seed) not in truth for seeds in found for seed in seeds)


def test_the_secret_of_a_summary_repeats_the_run(tmp_path: Path) -> None:
    report = tmp_path / "found.jsonl"
    command = ["tournament", "--bots", f"greedy,{thief(report)}", "--games", "2", "--json"]
    first = json.loads(CliRunner().invoke(app, command).stdout)
    again = json.loads(CliRunner().invoke(app, [*command, "--secret", first["secret"]]).stdout)
    fresh = json.loads(CliRunner().invoke(app, command).stdout)
    assert again["digest"] == first["digest"] != fresh["digest"]
    assert fresh["secret"] != first["secret"]


def test_a_run_of_built_in_bots_needs_no_secret_and_a_bad_one_is_refused() -> None:
    outcome = CliRunner().invoke(
        app, ["tournament", "--bots", "greedy,random", "--games", "2", "--json"]
    )
    assert "secret" not in json.loads(outcome.stdout)
    refused = CliRunner().invoke(app, ["tournament", "--bots", "greedy,random", "--secret", "42"])
    assert refused.exit_code == 2
    assert "--secret: a run secret is 32 hex digits" in refused.stderr
