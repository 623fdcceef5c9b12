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


def _seat_scores_as_written(state):
    """``seat_scores`` spelled out (the M-4.2 ranking by sorting): the one-pass version the
    playouts run must give the same scores in every position."""
    players = state.players
    n = len(players)
    order = [state.temple.index(s) for s in range(n)] if state.temple else list(range(n))
    out = []
    for s, p in enumerate(players):
        kinds = len(p.citizens) - p.citizens.count(0)
        score = 100.0 * p.decurions + 18.0 * min(4, kinds + p.favours)
        score += 4.0 * (sum(p.citizens) - kinds) + 3.0 * p.favours + 3.0 * sum(p.crowned)
        out.append(score + (2.0 * (n - order[s]) if state.temple else 0.0))
    for i in range(7):
        ranked = sorted(
            (-(p.plain[i] + 2 * p.crowned[i]), order[s], s) for s, p in enumerate(players) if p.plain[i] + p.crowned[i]
        )
        if len(ranked) > 1:
            out[ranked[1][2]] += 2.0
        if ranked:
            out[ranked[0][2]] += 7.0 + 2.0 * sum(state.banners[i])
    return out


def test_the_greedy_valuation_is_the_rule_of_thumb_written_out():
    from colosseum.core.games.municipium.bots.greedy import seat_scores
    from colosseum.core.registry import rules

    game = rules("municipium")
    positions = 0
    for seed in range(12):
        n = 2 + seed % 3
        state = game.new_game(game.spec.make_setup(tuple("ABCD"[:n]), seed=seed, options=()))
        bots = [game.make_bot("random" if seed % 2 else "normal", seed + i) for i in range(n)]
        while True:
            assert seat_scores(state) == _seat_scores_as_written(state), (seed, state.actions)
            positions += 1
            if game.is_over(state):
                break
            state, _ = game.apply(state, bots[game.to_act(state)].act(state))
    assert positions > 1000
