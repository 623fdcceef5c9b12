"""The playouts' quiet engine path (``apply_fast``: no events, no log sentences composed) gives
the very states the checked ``apply`` gives, in every ruleset, for every kind of bot."""

from __future__ import annotations

import pytest

from colosseum.core.games.colosseum import apply, encode_state, new_game, to_act
from colosseum.core.games.colosseum.engine import apply_fast
from colosseum.core.simulate import make_bots, make_setup


@pytest.mark.parametrize("variant", ["grand", "classic", "original"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_apply_fast_is_apply_without_events(variant, players):
    lineups = (["random"] * players, ["greedy"] * players, (["easy", "random", "greedy"] * 2)[:players])
    for seed in range(1, 4):
        bots = lineups[seed % len(lineups)]
        state = new_game(make_setup(players, seed, variant=variant))
        seats = make_bots(bots, seed)
        steps = 0
        while (seat := to_act(state)) >= 0:
            action = seats[seat].act(state)
            checked, _ = apply(state, action)
            quiet, events = apply_fast(state, action)
            assert events == []
            assert encode_state(quiet) == encode_state(checked), f"seed {seed}, step {steps}: {action}"
            state = checked
            steps += 1
        assert state.phase == "over"


@pytest.mark.parametrize("seed", range(6))
def test_draws_and_rolls_in_one_go_are_the_single_ones(seed):
    """``Ctx.draws``/``Ctx.rolls`` give the tiles, dice and state of as many ``draw``/``roll``
    calls, the bag running dry included."""
    from msgspec.structs import replace

    from colosseum.core.games.colosseum.components import load_catalog
    from colosseum.core.games.colosseum.context import Ctx

    state = new_game(make_setup(4, seed))
    cat = load_catalog(state.setup.variant)
    small = replace(state, bag=(0, 2, 0, 1) + (0,) * (len(state.bag) - 4))  # 3 tiles: runs dry
    full = replace(state, bag=cat.counts)
    for st, count in ((full, 40), (small, 5), (small, 3), (replace(small, bag=(0,) * len(small.bag)), 2)):
        one, many = Ctx(st, cat), Ctx(st, cat)
        assert many.draws(count) == [one.draw() for _ in range(count)]
        assert many.st == one.st
        assert many.rolls(3) == tuple(one.roll() for _ in range(3))
        assert many.st == one.st
