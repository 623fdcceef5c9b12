"""The playouts' quiet engine path (``apply_fast``: no events, no log sentences composed) gives
the very states the checked ``apply`` gives, in every ruleset, for every kind of bot."""

from __future__ import annotations

import pytest

from colosseum.core import apply, encode_state, new_game, to_act
from colosseum.core.engine import apply_fast
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
