"""``colosseum simulate`` (core/simulate.py): output, totals, --json, --check failures."""

from __future__ import annotations

import json
import subprocess
import sys
from argparse import Namespace

import pytest

from colosseum.core.games.colosseum import invariants
from colosseum.core.games.colosseum.actions import EndTurn
from colosseum.core.games.colosseum.bots import BOTS
from colosseum.core.simulate import SimulationError, main, make_bots, make_setup, play_game, seat_bots
from colosseum.tui.cli import main as cli_main


def args(**kw) -> Namespace:
    base = dict(players=4, games=3, seed=7, bots="greedy,random", check=False, json=False, variant="grand", options=[])
    base.update(kw)
    return Namespace(**base)


def test_text_output(capsys):
    assert main(args(check=True)) == 0
    out = capsys.readouterr().out.splitlines()
    games = [line for line in out if line.startswith("seed ")]
    assert [g.split(":")[0] for g in games] == ["seed 7", "seed 8", "seed 9"]
    for g in games:
        assert "winner " in g and "(seat " in g and "actions" in g
        assert g.count(" Acclaim") == 4
        assert g.count("*") == 1  # the winner's seat is marked
    assert any(line.startswith("totals: 3 games of Colosseum, 4 players") for line in out)
    wins = next(line for line in out if line.startswith("wins by bot:"))
    assert "greedy" in wins and "random" in wins
    assert out[-1].endswith("actions/s")


def test_text_output_in_each_games_and_editions_words():
    """The original says spectators; one decurion is singular; a score that decided alone is no
    tie-break (Municipium's lines said "(tie-break: decurions)" and "1 decurions")."""
    from colosseum.core.simulate import GameRecord, _text_line

    rec = GameRecord(
        game="municipium", seed=1, options={}, seats=("a", "b"), names=("A", "B"), winner=0, winner_bot="a",
        scores=(5, 1), ranks=(1, 2), actions=9, seconds=0.1, details={"decided_by": "decurions"},
    )  # fmt: skip
    line = _text_line(rec, "decurions", "decurions")
    assert " 5 decurions " in line and " 1 decurion " in line and "tie-break" not in line, line
    rec.details = {"decided_by": "coins"}
    assert "(tie-break: coins)" in _text_line(rec, "spectators", "Acclaim")


def test_json_output(capsys):
    assert main(args(json=True, players=5, bots="random,greedy", games=4, seed=3)) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 5
    for i, g in enumerate(lines[:4]):
        assert g["seed"] == 3 + i
        assert g["game"] == "colosseum" and g["variant"] == "grand" and g["options"] == {}
        assert g["seats"] == ["random", "greedy", "greedy", "greedy", "greedy"]  # last name repeated
        assert 0 <= g["winner"] < 5 and g["winner_bot"] == g["seats"][g["winner"]]
        assert len(g["acclaim"]) == len(g["coins"]) == 5
        assert g["acclaim"][g["winner"]] == max(g["acclaim"]) and g["scores"] == g["acclaim"]
        assert g["rounds"] == 4 and g["actions"] > 50
    totals = lines[-1]
    assert totals["games"] == 4
    assert sum(totals["wins_by_bot"].values()) == 4
    assert set(totals["wins_by_bot"]) == {"random", "greedy"}
    assert totals["actions_per_sec"] > 0
    assert totals["actions"] == sum(g["actions"] for g in lines[:4])


def test_variant_and_option_reach_the_games(capsys):
    assert main(args(json=True, games=1, variant="classic", options=["auction-2007"], check=True)) == 0
    g = json.loads(capsys.readouterr().out.splitlines()[0])
    assert g["variant"] == "classic" and g["rounds"] == 5
    assert g["options"] == {"variant": "classic", "options": ["auction-2007"]}


def test_cli_dispatch(capsys):
    assert cli_main(["simulate", "--players", "3", "--games", "2", "--seed", "1", "--bots", "greedy", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert json.loads(lines[-1])["wins_by_bot"] == {"greedy": 2}


def test_simulate_never_loads_textual():
    code = (
        "import sys; from colosseum.tui.cli import main;"
        "rc = main(['simulate', '--games', '1', '--bots', 'greedy,random']);"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')];"
        "print(bad); sys.exit(rc or (1 if bad else 0))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_check_fails_with_a_clear_message(monkeypatch, capsys):
    calls = {"n": 0}
    real = invariants.check

    def broken(state, previous=None):
        calls["n"] += 1
        return ["tile G: 25 accounted for, 24 exist"] if calls["n"] == 40 else real(state, previous)

    monkeypatch.setattr(invariants, "check", broken)
    assert main(args(check=True)) != 0
    err = capsys.readouterr().err
    assert "invariant violated" in err and "seed 7" in err and "tile G: 25 accounted for" in err


def test_without_check_invariants_are_not_consulted(monkeypatch):
    monkeypatch.setattr(invariants, "check", lambda s, p=None: ["always wrong"])
    assert main(args(games=1)) == 0


class Cheater:
    name = "cheater"

    def __init__(self, seed: int = 0) -> None:
        pass

    def act(self, state):
        return EndTurn(player=(state.players and 0))  # not always this seat's turn, nor legal


def test_illegal_bot_action_fails(monkeypatch, capsys):
    monkeypatch.setitem(BOTS, "cheater", Cheater)
    assert main(args(bots="random,cheater", games=1)) == 1
    assert "illegal action" in capsys.readouterr().err


def test_bad_bot_names(capsys):
    assert main(args(bots="greedy,nobody")) == 2
    assert "unknown bot nobody" in capsys.readouterr().err
    assert main(args(bots="greedy,random,random,random,random")) == 2


def test_seat_bots():
    assert seat_bots(["greedy"], 3) == ["greedy"] * 3
    assert seat_bots(["a", "b"], 4) == ["a", "b", "b", "b"]
    with pytest.raises(ValueError):
        seat_bots([""], 3)


def test_play_game_is_reproducible():
    bots = ["random", "greedy", "random"]
    a = play_game(make_setup(3, 5, bots), make_bots(bots, 5), check=True)
    b = play_game(make_setup(3, 5, bots), make_bots(bots, 5))
    assert (a.scores, a.details, a.actions, a.winner, a.seats) == (b.scores, b.details, b.actions, b.winner, b.seats)


def test_play_game_action_limit():
    bots = ["random"] * 3
    with pytest.raises(SimulationError, match="did not end"):
        play_game(make_setup(3, 5, bots), make_bots(bots, 5), max_actions=20)


def test_one_game_in_the_singular(capsys):
    assert main(args(games=1)) == 0
    assert any(
        line.startswith("totals: 1 game of Colosseum, 4 players") for line in capsys.readouterr().out.splitlines()
    )
