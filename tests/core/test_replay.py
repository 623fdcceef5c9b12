"""Replay and encoding: the same setup and the same actions give the same state, byte for
byte; states and actions survive a JSON round trip."""

from __future__ import annotations

import pytest

from colosseum.core.games.colosseum import (
    GameSetup,
    apply,
    decode_action,
    decode_state,
    encode_action,
    encode_state,
    new_game,
    replay,
    to_act,
)
from colosseum.core.games.colosseum.bots.random_bot import RandomBot

CASES = [
    (3, 1, "grand", ()),
    (4, 2, "grand", ()),
    (5, 3, "grand", ("auction-2007",)),
    (3, 4, "classic", ()),
    (5, 5, "classic", ("auction-2007",)),
]


def record(n, seed, variant, options):
    setup = GameSetup(players=tuple(f"P{i}" for i in range(n)), seed=seed, variant=variant, options=options)
    st = new_game(setup)
    bots = [RandomBot(seed * 31 + i) for i in range(n)]
    actions, states, events = [], [st], []
    while st.phase != "over":
        a = bots[to_act(st)].act(st)
        st, ev = apply(st, a)
        actions.append(a)
        states.append(st)
        events.extend(ev)
    return setup, actions, states, events


@pytest.mark.parametrize("n,seed,variant,options", CASES)
def test_replay_reproduces_the_final_state_byte_for_byte(n, seed, variant, options):
    setup, actions, states, events = record(n, seed, variant, options)
    # through JSON, as a saved game would be
    wire = [decode_action(encode_action(a)) for a in actions]
    assert wire == actions
    final, replayed_events = replay(setup, wire)
    assert encode_state(final) == encode_state(states[-1])
    assert final == states[-1]
    assert [e.text for e in replayed_events] == [e.text for e in events]
    assert final.actions == len(actions)


@pytest.mark.parametrize("n,seed,variant,options", CASES[:3])
def test_encode_decode_round_trip_of_every_state(n, seed, variant, options):
    _, _, states, _ = record(n, seed, variant, options)
    for st in states:
        data = encode_state(st)
        back = decode_state(data)
        assert back == st
        assert encode_state(back) == data


def test_a_decoded_state_plays_on_like_the_original():
    setup, actions, states, _ = record(4, 9, "grand", ())
    mid = len(actions) // 2
    st = decode_state(encode_state(states[mid]))
    for a in actions[mid:]:
        st, _ = apply(st, a)
    assert encode_state(st) == encode_state(states[-1])
