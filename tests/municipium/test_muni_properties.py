"""Property tests over random games (2, 3 and 4 players, both options): every state passes the
invariants, every action ``legal`` offers applies, actions it does not offer are rejected,
replay is byte-exact and states survive a JSON round trip."""

from __future__ import annotations

import random

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_
from muni_builders import setup

from colosseum.core.errors import RuleError
from colosseum.core.games.municipium import (
    OPTION_SHORT,
    OPTION_SINGLE,
    apply,
    decode_action,
    decode_state,
    encode_action,
    encode_state,
    legal,
    new_game,
    replay,
    to_act,
)
from colosseum.core.games.municipium.actions import Pass, PlaceMember
from colosseum.core.games.municipium.invariants import check

PROPS = settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
OPTION_SETS = st_.sampled_from([(), (OPTION_SHORT,), (OPTION_SINGLE,), (OPTION_SHORT, OPTION_SINGLE)])


def random_game(n, seed, options, probe):
    st = new_game(setup(n, seed, options))
    assert check(st) == []
    r = random.Random(seed)
    actions = []
    while st.phase != "over":
        opts = legal(st)
        assert opts, f"no legal action for seat {to_act(st)}"
        assert all(a.player == to_act(st) for a in opts)
        if probe:
            # every offered action applies (sampled to keep the test fast)
            for a in r.sample(opts, min(4, len(opts))):
                apply(st, a)
        a = r.choice(opts)
        nxt, _ = apply(st, a)
        problems = check(nxt, st)
        assert problems == [], (a, problems)
        actions.append(a)
        st = nxt
        assert len(actions) < 5000
    return st, actions


@PROPS
@given(n=st_.sampled_from([2, 3, 4]), seed=st_.integers(0, 2**32), options=OPTION_SETS)
def test_random_games_keep_the_invariants(n, seed, options):
    st, actions = random_game(n, seed, options, probe=True)
    assert st.result is not None
    assert max(p.decurions for p in st.players) >= (4 if OPTION_SHORT in options else 5)


@PROPS
@given(n=st_.sampled_from([2, 3, 4]), seed=st_.integers(0, 2**32), options=OPTION_SETS)
def test_replay_is_byte_exact_and_states_round_trip(n, seed, options):
    st, actions = random_game(n, seed, options, probe=False)
    wire = [decode_action(encode_action(a)) for a in actions]
    again, _ = replay(setup(n, seed, options), wire)
    assert encode_state(again) == encode_state(st)
    assert decode_state(encode_state(st)) == st


def test_actions_not_offered_are_rejected_and_leave_the_state():
    st = new_game(setup(3, 4))
    r = random.Random(4)
    for _ in range(400):
        if st.phase == "over":
            break
        seat = to_act(st)
        offered = set(legal(st))
        for cand in (Pass(player=seat), PlaceMember(player=seat, institution=0), Pass(player=(seat + 1) % 3)):
            if cand not in offered:
                before = encode_state(st)
                try:
                    apply(st, cand)
                except RuleError as e:
                    assert e.rule.startswith("M-")
                else:
                    raise AssertionError(f"{cand!r} applied though not offered")
                assert encode_state(st) == before
        st, _ = apply(st, r.choice(sorted(offered, key=msgspec.json.encode)))
