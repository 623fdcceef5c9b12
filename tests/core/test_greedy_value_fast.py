"""Greedy's shortcuts value exactly what the plain computation values: a hand's neighbours valued
from one pass over it, the remembered bids and performances, the dice search shared by the mode
and the first move.  Floats are compared with ``==``: a shortcut that changed a last bit could
flip a tie between two choices."""

from __future__ import annotations

import random

import pytest

from colosseum.core.games.colosseum import apply, new_game, to_act
from colosseum.core.games.colosseum.actions import ChooseDice
from colosseum.core.games.colosseum.bots.greedy import GreedyBot
from colosseum.core.games.colosseum.components import load_catalog
from colosseum.core.games.colosseum.model import State
from colosseum.core.simulate import make_bots, make_setup


def _positions(players: int, seed: int, variant: str, every: int = 7) -> list[State]:
    state = new_game(make_setup(players, seed, variant=variant))
    bots = make_bots(["greedy"] * players, seed)
    out = []
    k = 0
    while (seat := to_act(state)) >= 0:
        if k % every == 0:
            out.append(state)
        state, _ = apply(state, bots[seat].act(state))
        k += 1
    return out


GAMES = [(4, 11, "grand"), (3, 12, "classic"), (5, 13, "original")]


@pytest.mark.parametrize(("players", "seed", "variant"), GAMES)
def test_neighbours_valued_as_in_full(players: int, seed: int, variant: str) -> None:
    """``tile_utility_each`` (a tile more or less of each kind, from one pass over the hand)
    equals ``tile_utility`` of each changed hand, computed afresh."""
    cat = load_catalog(variant)
    rng = random.Random(seed)
    kinds = list(range(len(cat.codes)))
    for state in _positions(players, seed, variant)[::3]:
        for seat in range(state.n):
            hand = list(state.players[seat].tiles)
            # also hands around the Star Performer thresholds and with balatros
            for _ in range(2):
                k = rng.choice(kinds)
                hand[k] += rng.randint(0, 3)
            for sign in (1, -1):
                ks = [k for k in kinds if sign > 0 or hand[k] > 0]
                each = GreedyBot(0).tile_utility_each(state, cat, seat, hand, ks, sign)
                for k, got in zip(ks, each, strict=True):
                    changed = list(hand)
                    changed[k] += sign
                    assert got == GreedyBot(0).tile_utility(state, cat, seat, changed), (seat, k, sign)


@pytest.mark.parametrize(("players", "seed", "variant"), GAMES)
def test_remembered_values_are_the_computed_ones(players: int, seed: int, variant: str) -> None:
    """A bot that has valued other states gives the values a fresh bot computes: max_bid for
    every lot, the performance, the dice searches (the one made for the mode also serves the
    move after it)."""
    cat = load_catalog(variant)
    bot = GreedyBot(0)
    for state in _positions(players, seed, variant, every=3):
        seat = to_act(state)
        for lot in state.markets:
            assert bot.max_bid(state, cat, seat, lot) == GreedyBot(0).max_bid(state, cat, seat, lot)
        assert bot.performance(state, cat, seat) == GreedyBot(0).performance(state, cat, seat)
        pt = state.perform
        if pt is not None and pt.stage == "mode":
            for mode in ("split", "sum"):
                searched = bot.best_moves(state, cat, seat, mode)
                after, _ = apply(state, ChooseDice(player=seat, mode=mode))
                assert bot.best_moves(after, cat, seat, mode) == GreedyBot(0).best_moves(after, cat, seat, mode)
                assert searched == GreedyBot(0).best_moves(after, cat, seat, mode)
