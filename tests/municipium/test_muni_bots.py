"""Bots: names, legality, and greedy clearly beating random in seat-rotated games."""

from __future__ import annotations

from collections import Counter

import pytest

from colosseum.core.games.municipium.bots import BOTS, make_bot
from colosseum.core.simulate import make_bots, make_setup, play_game


def test_bot_names():
    assert set(BOTS) == {"random", "easy", "greedy", "hard", "expert"}
    with pytest.raises(ValueError):
        make_bot("nope")


def test_greedy_beats_random_in_seat_rotated_games():
    wins: Counter[str] = Counter()
    games = 40
    for g in range(games):
        n = 2 + g % 3
        names = ["random"] * n
        names[g % n] = "greedy"  # the greedy seat rotates
        rec = play_game(make_setup(n, 1000 + g, game="municipium"), make_bots(names, g, game="municipium"), check=True)
        wins[rec.winner_bot] += 1
    assert wins["greedy"] >= 0.7 * games, wins


def test_greedy_against_itself_finishes_with_checks():
    for n in (2, 3, 4):
        rec = play_game(
            make_setup(n, 77 + n, game="municipium"), make_bots(["greedy"] * n, 5, game="municipium"), check=True
        )
        assert max(rec.scores) >= 5 and rec.ranks.count(1) == 1
