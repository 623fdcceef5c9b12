"""The bots' trusted engine path (``apply_trusted``: no revalidation of what ``legal`` offered)
plays the very same games as the checked ``apply``: identical states, events and logs."""

from __future__ import annotations

import datetime

import pytest

from colosseum.core.gamelog import dump_log, make_header
from colosseum.core.games.colosseum import apply, encode_state, new_game, to_act
from colosseum.core.games.colosseum.engine import apply_trusted
from colosseum.core.simulate import make_bots, make_setup


def play(seed: int, variant: str, bots: list[str], step) -> tuple[bytes, list, bytes]:
    state = new_game(make_setup(4, seed, variant=variant))
    players = make_bots(bots, seed)
    actions, events = [], []
    while (seat := to_act(state)) >= 0:
        action = players[seat].act(state)
        state, ev = step(state, action)
        actions.append(action)
        events.append(ev)
    # a fixed time: two headers made a second apart must not differ
    created = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    log = dump_log(make_header(state.setup, bots, created=created), actions, end=True)
    return encode_state(state), events, log


@pytest.mark.parametrize("variant", ["grand", "classic", "original"])
def test_a_batch_of_seeded_games_gives_identical_logs(variant):
    lineups = (["greedy"] * 4, ["random"] * 4, ["greedy", "random", "easy", "random"])
    for seed in range(1, 5):
        bots = lineups[seed % len(lineups)]
        fast = play(seed, variant, bots, apply_trusted)
        checked = play(seed, variant, bots, apply)
        assert fast[0] == checked[0], f"seed {seed}: final states differ"
        assert fast[1] == checked[1], f"seed {seed}: events differ"
        assert fast[2] == checked[2], f"seed {seed}: logs differ"
