"""More of greedy's shortcuts value exactly what the plain computation values: a hand's
neighbours with a sign for each kind (some tiles more, some less, from one pass; including a
tile taken from a kind not held), the hand valued by the pass over its neighbours, the bids
remembered for every lot, the spectacle fits remembered across states.  Floats are compared with
``==``: a shortcut that changed a last bit could flip a tie between two choices."""

from __future__ import annotations

import random

import pytest
from test_greedy_value_fast import _positions  # the positions of seeded greedy games

from colosseum.core.games.colosseum.bots.greedy import GreedyBot
from colosseum.core.games.colosseum.components import load_catalog

GAMES = [(4, 21, "grand"), (3, 22, "classic"), (5, 23, "original")]


@pytest.mark.parametrize(("players", "seed", "variant"), GAMES)
def test_neighbours_with_mixed_signs(players: int, seed: int, variant: str) -> None:
    cat = load_catalog(variant)
    rng = random.Random(seed)
    kinds = list(range(len(cat.codes)))
    for state in _positions(players, seed, variant)[::4]:
        for seat in range(state.n):
            hand = list(state.players[seat].tiles)
            k = rng.choice(kinds)
            hand[k] += rng.randint(0, 3)
            ks = [k for k in kinds for _ in range(2)]
            signs = [rng.choice((1, -1)) for _ in ks]
            bot = GreedyBot(0)
            each = bot.tile_utility_each(state, cat, seat, hand, ks, signs)
            for k, sign, got in zip(ks, signs, each, strict=True):
                changed = list(hand)
                changed[k] += sign
                assert got == GreedyBot(0).tile_utility(state, cat, seat, changed), (seat, k, sign)
            # the hand itself, valued by that pass
            assert bot.tile_utility(state, cat, seat, hand) == GreedyBot(0).tile_utility(state, cat, seat, hand)


@pytest.mark.parametrize(("players", "seed", "variant"), GAMES)
def test_remembered_bids_and_fits(players: int, seed: int, variant: str) -> None:
    cat = load_catalog(variant)
    bot = GreedyBot(0)
    for state in _positions(players, seed, variant, every=3):
        for seat in range(state.n):
            # every lot in turn, then again in the reverse order: the remembered ones
            for lot in [*state.markets, *reversed(state.markets)]:
                assert bot.max_bid(state, cat, seat, lot) == GreedyBot(0).max_bid(state, cat, seat, lot)
            sids = (*bot.owned_specs(state, seat), *state.display)
            now: dict[int, float] = {}
            fresh_now: dict[int, float] = {}
            assert bot.spectacle_fits(state, cat, seat, sids, now) == GreedyBot(0).spectacle_fits(
                state, cat, seat, sids, fresh_now
            )
            assert now == fresh_now
