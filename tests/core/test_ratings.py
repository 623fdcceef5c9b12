"""Bot levels' ratings: the fit (openskill's Bradley-Terry Full model, as the lobby rates people)
reproduces known numbers on a fixed set of results, and the table the strength script writes
reads back."""

from __future__ import annotations

import itertools
import json

import pytest
from scripts_module import script

from colosseum.core.ratings import LevelRating, MatchResult, best_of, fit, level_rating, parse_table, table_json

RESULTS = [
    MatchResult(("hard", "normal", "normal", "normal"), (1, 2, 3, 4)),
    MatchResult(("normal", "hard", "normal", "normal"), (2, 1, 3, 4)),
    MatchResult(("normal", "normal", "hard", "normal"), (1, 3, 2, 4)),
    MatchResult(("random", "normal", "normal"), (3, 1, 2)),
    MatchResult(("normal", "random", "normal"), (1, 1, 3)),  # a shared win
]


def test_one_game_between_two_newcomers_is_the_models_own_update():
    rated = fit([MatchResult(("a", "b"), (1, 2))])
    assert rated["a"].mu == pytest.approx(27.635389493140497)
    assert rated["b"].mu == pytest.approx(22.364610506859503)
    assert rated["a"].sigma == rated["b"].sigma == pytest.approx(8.06590141354368)
    assert rated["a"].games == rated["b"].games == 1


def test_the_fit_reproduces_known_numbers():
    rated = fit(RESULTS)
    assert {k: (round(v.mu, 6), round(v.sigma, 6), v.games) for k, v in rated.items()} == {
        "hard": (35.288784, 6.546775, 3),
        "normal": (22.307052, 5.786774, 5),
        "random": (22.067513, 7.055436, 2),
    }
    assert fit(RESULTS) == rated  # the same games in the same order: the same ratings


def test_the_fit_refuses_a_game_without_places():
    with pytest.raises(ValueError):
        fit([MatchResult(("a", "b"), (1,))])


def test_the_table_reads_back_and_a_search_level_answers_for_its_budget():
    table = {
        "colosseum": {
            "normal": LevelRating(25.0, 1.0, 100),
            "hard (200 playouts)": LevelRating(31.0, 1.5, 200, "200 playouts a decision"),
            "hard (50 playouts)": LevelRating(29.0, 2.0, 50, "50 playouts a decision"),
        }
    }
    back = parse_table(table_json(table, ["a note"]))
    assert back == table
    assert best_of(back["colosseum"], "hard") == table["colosseum"]["hard (200 playouts)"]
    assert best_of(back["colosseum"], "normal").mu == 25.0
    assert best_of(back["colosseum"], "expert") is None
    assert back["colosseum"]["hard (50 playouts)"].ordinal == pytest.approx(23.0)


def test_level_rating_of_an_unmeasured_game_is_none():
    assert level_rating("no such game", "normal") is None


def _strength_script():
    return script("strength")


def test_a_strength_run_resumes_from_its_record_and_plays_no_game_twice(tmp_path, capsys):
    """A run too long for one sitting is played in parts: the games of the same run (levels,
    players, budget, code) already recorded are skipped and counted; a damaged line or a game
    another version of the code played is not."""
    strength = _strength_script()
    record = tmp_path / "runs.jsonl"
    base = ["--game", "municipium", "--levels", "easy,random", "--seed", "40", "--record", str(record)]
    assert strength.main([*base, "--games", "2"]) == 0
    first = record.read_text(encoding="utf-8").splitlines()
    assert len(first) == 2
    with record.open("a", encoding="utf-8") as f:
        f.write('{"game": "municipium", "seed": 42, "levels": ["ea\n')  # a write cut short
        other = first[0].replace(strength.code_digest(), "0" * 16).replace('"seed": 40', '"seed": 43')
        f.write(other + "\n")  # seed 43, by other code
    capsys.readouterr()
    assert strength.main([*base, "--games", "4", "--resume"]) == 0
    out, err = capsys.readouterr()
    assert "resuming: 2 games of this run recorded before" in err
    assert "(1 recorded by other code left out)" in err
    played = [line for line in err.splitlines() if line.startswith("game seed")]
    assert sorted(line.split()[2] for line in played) == ["42", "43"]  # 40 and 41 were not played again
    assert "easy (1 seat) vs random (2 seats), 4 games" in out
    assert "think times of the 2 games played in this sitting" in out
    assert strength.main([*base, "--games", "4", "--resume"]) == 0  # everything recorded: nothing played
    out, err = capsys.readouterr()
    assert "resuming: 4 games" in err and "game seed" not in err and "4 games" in out


def test_a_strength_run_gives_the_single_seat_a_budget_of_its_own(tmp_path, capsys):
    """``--one-playouts``: what more search buys against the same level.  The single seat and
    the others are rated under their own budgets, in the run's table and by ``--fit``."""
    strength = _strength_script()
    record = tmp_path / "runs.jsonl"
    args = ["--levels", "hard,hard", "--playouts", "2", "--one-playouts", "4", "--games", "1", "--record", str(record)]
    assert strength.main(args) == 0
    out, _err = capsys.readouterr()
    assert "4 playouts a decision against 2 playouts a decision" in out
    assert "hard (4 playouts)" in out and "hard (2 playouts)" in out
    table = tmp_path / "ratings.json"
    assert strength.main(["--fit", str(record), "--out", str(table)]) == 0
    fitted = json.loads(table.read_text(encoding="utf-8"))
    names = set(fitted["games"]["colosseum"])
    assert {"hard (4 playouts)", "hard (2 playouts)"} <= names
    assert strength.seat_budgets("1 s CPU clock") == ("1 s CPU clock", "1 s CPU clock")  # older records


def test_a_bot_counts_as_far_from_normal_as_the_strength_runs_measured_it(monkeypatch):
    """In a rated game a bot is a fixed anchor: where the strength runs measured its level and
    the game's ``normal``, as far above or below ``normal``'s anchor as the fit puts it; a level
    they did not measure keeps its fixed distance from the measured level nearest to it (the
    levels stay in order); a game with nothing measured has the fixed anchors; ``greedy`` is
    ``normal``."""
    from colosseum.core import ratings

    table = {
        "municipium": {
            "normal": LevelRating(30.0, 1.5, 400),
            "hard (1 s CPU clock)": LevelRating(38.5, 1.8, 200, "1 s CPU clock"),
            "hard (0.3 s CPU clock)": LevelRating(36.0, 3.0, 12, "0.3 s CPU clock"),
        }
    }
    monkeypatch.setattr(ratings, "ratings_table", lambda: table)
    normal_mu = ratings.BOT_ANCHORS["normal"][0]
    assert ratings.bot_anchor("municipium", "hard") == (normal_mu + 8.5, 1.0, True)  # the budget of most games
    assert ratings.bot_anchor("municipium", "normal") == (normal_mu, 1.0, True)
    assert ratings.bot_anchor("municipium", "greedy") == (normal_mu, 1.0, True)
    anchors = ratings.BOT_ANCHORS
    expert = normal_mu + 8.5 + anchors["expert"][0] - anchors["hard"][0]  # above the measured hard
    assert ratings.bot_anchor("municipium", "expert") == (expert, 1.0, False)
    assert ratings.bot_anchor("municipium", "easy") == (
        normal_mu + anchors["easy"][0] - anchors["normal"][0],
        1.0,
        False,
    )
    assert ratings.bot_anchor("colosseum", "hard") == (*ratings.BOT_ANCHORS["hard"], False)
    assert ratings.shown(25.0, 25 / 3) == 1500  # a newcomer
    assert ratings.shown(normal_mu + 8.5, 1.0) > ratings.shown(normal_mu, 1.0)


def test_the_shipped_table_keeps_every_games_bot_levels_in_order():
    """What the lobby counts each bot as (the fitted table shipped in the package, D-90): for
    every game, each level at least as high as the one below it (above it unless both were
    measured: D-106), and the table's games are the registry's."""
    from colosseum.core import ratings
    from colosseum.core.registry import game_names, spec

    table = ratings.ratings_table()
    assert set(table) <= set(game_names(discover=False))
    for game in game_names(discover=False):
        levels = ("random", *spec(game).bot_levels)
        found = [ratings.bot_anchor(game, level) for level in levels]
        mus = [mu for mu, _, _ in found]
        assert mus == sorted(mus), (game, dict(zip(levels, mus, strict=True)))
        for (low, _, low_measured), (high, _, high_measured) in itertools.pairwise(found):
            assert high > low or (low_measured and high_measured), (game, dict(zip(levels, mus, strict=True)))


def test_a_level_measured_below_a_weaker_one_counts_as_that_one(monkeypatch):
    """``expert`` measured as strong as ``hard`` but a little below it (the runs' noise) counts as
    ``hard``, not less (D-106); a measured level above keeps its own distance."""
    from colosseum.core import ratings

    table = {
        "colosseum": {
            "normal": LevelRating(29.5, 1.3, 800),
            "hard (1 s CPU clock)": LevelRating(46.6, 1.3, 324, "1 s CPU clock"),
            "expert (1 s CPU clock)": LevelRating(45.6, 1.3, 200, "1 s CPU clock"),
            "easy": LevelRating(26.3, 1.5, 600),
        }
    }
    monkeypatch.setattr(ratings, "ratings_table", lambda: table)
    normal_mu = ratings.BOT_ANCHORS["normal"][0]
    hard = ratings.bot_anchor("colosseum", "hard")
    assert hard == (normal_mu + 46.6 - 29.5, 1.0, True)
    assert ratings.bot_anchor("colosseum", "expert") == hard  # not 1.0 below it
    assert ratings.bot_anchor("colosseum", "easy") == (normal_mu + 26.3 - 29.5, 1.0, True)
    assert ratings.bot_anchor("colosseum", "normal") == (normal_mu, 1.0, True)
