"""A kept game's JSON form (versioned, checked when read) and its CSV export."""

from __future__ import annotations

import copy
import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from cardroom.keeper import (
    FORMAT,
    VERSION,
    from_json,
    round_from_json,
    round_to_json,
    to_csv,
    to_json,
)

from .support import refused, skip, skyjo

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {name: ROOT / "examples" / f"{name}_kept_game.json" for name in ("skyjo", "skip")}


def _example(name: str) -> dict[str, Any]:
    return json.loads(EXAMPLES[name].read_text())


def test_the_examples_read_and_end_as_documented():
    skyjo_game = from_json(_example("skyjo"))
    assert skyjo_game.sheet.totals == (73, 106, 131)
    assert skyjo_game.sheet.outcome == "Game over after round 5: Ann wins."
    skip_game = from_json(_example("skip"))
    assert skip_game.sheet.totals == (220, 45, 220, 45)
    assert skip_game.sheet.outcome == "Game over after round 3: Ann & Cy win."


@pytest.mark.parametrize("name", ["skyjo", "skip"])
def test_json_round_trips_and_results_are_recomputed_not_read(name):
    game = from_json(_example(name))
    data = to_json(game, results=True)
    assert json.loads(json.dumps(data)) == data
    assert from_json(data) == game
    data["results"]["totals"] = {"Ann": 0}  # ignored: always computed again
    assert from_json(data).sheet.totals == game.sheet.totals
    assert to_json(from_json(to_json(game))) == to_json(game)


def test_json_results_say_what_each_round_counted():
    results = to_json(skyjo(([14, 9, 21], "Ann")), results=True)["results"]
    assert results["rounds"] == [
        {
            "round": 1,
            "points": {"Ann": 28, "Bob": 9, "Cy": 21},
            "totals": {"Ann": 28, "Bob": 9, "Cy": 21},
            "doubled": True,
            "why": "not_lowest",
            "note": "Ann closed with 14, not the lowest (Bob 9): doubled to 28 (S4.3)",
            "ends": False,
        }
    ]
    assert results["leaders"] == ["Bob"] and results["winners"] is None
    assert results["over"] is False


def test_json_writes_a_single_round_target_and_reads_it_back():
    game = skip((None, {"Ann": 1, "Bob": 1, "Cy": 2}), match_target=None)
    data = to_json(game)
    assert data["options"] == {"match_target": "single", "stock_size": None, "teams": []}
    assert data["rounds"] == [{"went_out": None, "stocks": {"Ann": 1, "Bob": 1, "Cy": 2}}]
    assert from_json(data) == game
    data["options"]["match_target"] = None
    assert from_json(data) == game


def _changed(name: str, path: list[Any], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(_example(name))
    here = data
    for key in path[:-1]:
        here = here[key]
    if value is KeyError:
        del here[path[-1]]
    else:
        here[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("name", "path", "value", "field", "round", "words"),
    [
        ("skyjo", ["format"], "something", "format", None, FORMAT),
        ("skyjo", ["version"], VERSION + 1, "version", None, "newer"),
        ("skyjo", ["version"], KeyError, "version", None, "must be 1"),
        ("skyjo", ["version"], True, "version", None, "must be 1"),
        ("skyjo", ["colour"], "red", "colour", None, "unknown field"),
        ("skyjo", ["game"], "poker", "game", None, "skyjo, skip"),
        ("skyjo", ["players"], "Ann, Bob", "players", None, "list"),
        ("skyjo", ["players", 2], "ann", "players", None, "twice"),
        ("skyjo", ["options"], [], "options", None, "object"),
        ("skyjo", ["options", "target"], 5, "target", None, "unknown field"),
        ("skyjo", ["options", "end_score"], 5, "end_score", None, "S5.1"),
        ("skyjo", ["rounds"], {}, "rounds", None, "list"),
        ("skyjo", ["rounds", 1], [], "round", 2, "object"),
        ("skyjo", ["rounds", 1, "sums", "Bob"], 141, "sums.Bob", 2, "S6.1"),
        ("skyjo", ["rounds", 1, "sums", "Dot"], 1, "sums", 2, "'Dot'"),
        ("skyjo", ["rounds", 1, "sums"], KeyError, "sums.Ann", 2, "missing"),
        ("skyjo", ["rounds", 1, "closer"], "Dot", "closer", 2, "'Dot'"),
        ("skyjo", ["rounds", 1, "closer"], KeyError, "closer", 2, "who closed"),
        ("skyjo", ["rounds", 1, "doubled"], True, "doubled", 2, "unknown field"),
        ("skip", ["options", "teams"], [["Ann", "Cy", "Bob"], ["Dan"]], "teams", None, "two"),
        ("skip", ["options", "teams"], "Ann+Cy", "teams", None, "list of teams"),
        ("skip", ["options", "match_target"], 300, "match_target", None, "R6.3"),
        ("skip", ["options", "stock_size"], 0, "stock_size", None, "R3.2"),
        ("skip", ["rounds", 0, "stocks", "Bob"], 21, "stocks.Bob", 1, "0 to 20"),
        ("skip", ["rounds", 0, "stocks", "Cy"], 3, "stocks.Cy", 1, "R6.1"),
        ("skip", ["rounds", 0, "went_out"], KeyError, "went_out", 1, "null"),
        ("skip", ["rounds", 0, "went_out"], "Eve", "went_out", 1, "'Eve'"),
    ],
)
def test_a_bad_file_is_refused_naming_the_field(name, path, value, field, round, words):
    refused(lambda: from_json(_changed(name, path, value)), field, words, round=round)


def test_rounds_after_the_end_are_refused_in_a_file():
    data = _example("skyjo")
    data["rounds"].append(data["rounds"][0])
    refused(lambda: from_json(data), "round", "ended at round 5", round=6)
    refused(lambda: from_json([data]), "file", "JSON object")


def test_csv_has_a_row_per_round_then_the_totals():
    rows = list(csv.reader(io.StringIO(to_csv(from_json(_example("skyjo"))))))
    assert rows[0] == ["round", "Ann", "Bob", "Cy", "closer", "doubled", "note"]
    assert rows[1][:6] == ["1", "28", "9", "21", "Ann", "yes"]
    assert rows[2][:6] == ["2", "3", "17", "12", "Ann", "no"]
    assert rows[-1] == ["total", "73", "106", "131", "", "", "Game over after round 5: Ann wins."]
    rows = list(csv.reader(io.StringIO(to_csv(from_json(_example("skip"))))))
    assert rows[0] == ["round", "Ann", "Bob", "Cy", "Dan", "went_out", "note"]
    assert rows[1][:6] == ["1", "100", "0", "100", "0", "Cy"]
    assert rows[-1][:5] == ["total", "220", "45", "220", "45"]


def test_csv_quotes_names_that_need_it():
    game = skyjo(([1, 2, 3], "Smith, J"), players=("Smith, J", 'Bo "B"', "Cy"))
    rows = list(csv.reader(io.StringIO(to_csv(game))))
    assert rows[0][1:3] == ["Smith, J", 'Bo "B"'] and rows[1][4] == "Smith, J"


def test_the_python_example_of_docs_keeper_md_runs_as_shown():
    text = (ROOT / "docs" / "keeper.md").read_text()
    (code,) = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    names: dict[str, Any] = {}
    exec(compile(code, "docs/keeper.md", "exec"), names)
    shown = re.search(r"\.note  # '(.*)'", code)
    assert shown is not None
    first = names["new_game"]("skyjo", ["Ann", "Bob", "Cy"])
    first = first.add_round(first.skyjo_round({"Ann": 14, "Bob": 9, "Cy": 21}, closer="Ann"))
    assert first.sheet.lines[0].note == shown.group(1)
    assert names["game"].rounds == ()


def test_one_round_reads_and_writes_in_the_files_form():
    game = skyjo(([14, 9, 21], "Ann"))
    entry = round_from_json(game, {"sums": {"Ann": 4, "Bob": 9, "Cy": 21}, "closer": "Ann"})
    assert round_to_json(game, entry) == {"sums": {"Ann": 4, "Bob": 9, "Cy": 21}, "closer": "Ann"}
    assert game.edit_round(1, entry).sheet.totals == (4, 9, 21)
    refused(lambda: round_from_json(game, {"sums": {}, "closer": "Ann", "x": 1}), "x")
    teams = skip(players=("Ann", "Bob", "Cy", "Dan"), teams=(("Ann", "Cy"), ("Bob", "Dan")))
    entry = round_from_json(teams, {"went_out": "Cy", "stocks": {"Bob": 3, "Dan": 0}})
    assert entry.stocks == (0, 3, 0, 0)
    assert round_to_json(teams, entry) == {"went_out": "Cy", "stocks": {"Bob": 3, "Dan": 0}}
