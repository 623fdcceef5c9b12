"""Bot levels' ratings: the fit (openskill's Bradley-Terry Full model, as the lobby rates people)
reproduces known numbers on a fixed set of results, and the table the strength script writes
reads back."""

from __future__ import annotations

import pytest

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
