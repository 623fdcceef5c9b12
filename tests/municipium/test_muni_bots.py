"""Bots: names, legality, and greedy clearly beating random in seat-rotated games."""

from __future__ import annotations

from collections import Counter

import pytest

from colosseum.core.games.municipium.bots import BOTS, make_bot
from colosseum.core.games.municipium.simulate import make_bots, make_setup, play_game


def test_bot_names():
    assert set(BOTS) == {"random", "greedy"}
    with pytest.raises(ValueError):
        make_bot("nope")


def test_greedy_beats_random_in_seat_rotated_games():
    wins: Counter[str] = Counter()
    games = 40
    for g in range(games):
        n = 2 + g % 3
        names = ["random"] * n
        names[g % n] = "greedy"  # the greedy seat rotates
        rec = play_game(make_setup(n, 1000 + g), make_bots(names, g), check=True)
        wins[rec.winner_bot] += 1
    assert wins["greedy"] >= 0.7 * games, wins


def test_greedy_against_itself_finishes_with_checks():
    for n in (2, 3, 4):
        rec = play_game(make_setup(n, 77 + n), make_bots(["greedy"] * n, 5), check=True)
        assert max(rec.decurions) >= 5 and rec.ranks.count(1) == 1
