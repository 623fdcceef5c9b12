"""Shared helpers for rules tests: build a real game, then bend it into the position a rule
needs with ``msgspec.structs.replace`` while keeping every tile accounted for.

Positions are built from a real ``new_game`` so that they are reachable-looking states the
engine has to cope with; helpers that move tiles take them from (or return them to) the bag so
that ``core.invariants.check`` still holds.
"""

from __future__ import annotations

import os

import pytest
from msgspec.structs import replace

from colosseum.core.games.colosseum import GameSetup, RuleError, apply, encode_state, legal, new_game, to_act
from colosseum.core.games.colosseum.actions import EndTurn
from colosseum.core.games.colosseum.components import load_catalog
from colosseum.core.games.colosseum.engine import spectacle_by_key
from colosseum.core.games.colosseum.invariants import check
from colosseum.core.games.colosseum.queries import next_stars

NAMES = ("Becky", "Kat", "Laura", "Mia", "Nora")

# COLOSSEUM_SOAK=N multiplies the number of random games the property tests play.
SOAK = max(1, int(os.environ.get("COLOSSEUM_SOAK", "1") or "1"))


def cat(state):
    return load_catalog(state.setup.variant)


def code_index(state, code: str) -> int:
    return cat(state).index[code]


def spec_id(state, key: str) -> int:
    return spectacle_by_key(cat(state), key).id


def start(n: int = 3, seed: int = 1, variant: str = "grand", options=(), first: int = 0):
    """A game after setup: starting gates placed (each player takes the first free pair),
    tiles and spectacles dealt; round 1, Phase 1, ``first`` to invest."""
    st = new_game(GameSetup(players=NAMES[:n], seed=seed, variant=variant, options=tuple(options), first_player=first))
    while st.phase == "setup":
        st, _ = apply(st, legal(st).actions[0])
    return st


def play(state, *actions):
    """Apply ``actions`` in order; return the final state and all events."""
    events = []
    for a in actions:
        state, ev = apply(state, a)
        events.extend(ev)
    return state, events


def skip_to(state, phase: str):
    """Everyone passes / ends their turn until ``phase`` begins (same round or the next)."""
    guard = 0
    while state.phase != phase:
        seat = to_act(state)
        state, _ = apply(state, EndTurn(player=seat))
        guard += 1
        assert guard < 100, f"could not reach {phase}"
    return state


def set_player(state, seat: int, **changes):
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def _counts(state, tiles) -> list[int]:
    c = cat(state)
    out = [0] * len(c.tiles)
    for code, n in dict(tiles).items():
        out[c.index[code]] = n
    return out


def set_tiles(state, seat: int, tiles: dict[str, int], recheck: bool = True, keep_others: bool = False):
    """Give ``seat`` exactly ``tiles`` (code -> count; other kinds 0 unless ``keep_others``).
    Differences come from / go back to the bag (then the box).  With ``recheck`` the Star
    Performers are then placed by G-7 as the engine would after the change."""
    c = cat(state)
    p = state.players[seat]
    want = list(p.tiles) if keep_others else [0] * len(c.tiles)
    for code, n in tiles.items():
        want[c.index[code]] = n
    bag, box = list(state.bag), list(state.box)
    for k in range(len(want)):
        diff = want[k] - p.tiles[k]
        if diff > 0:
            take = min(diff, bag[k])
            bag[k] -= take
            box[k] -= diff - take
            assert box[k] >= 0, f"not enough {c.codes[k]} tiles for this position"
        else:
            bag[k] -= diff
    state = replace(set_player(state, seat, tiles=tuple(want)), bag=tuple(bag), box=tuple(box))
    if recheck:
        state = recheck_stars(state)
    return state


def recheck_stars(state):
    """Apply G-7 to every star type (as the engine does after a change)."""
    c = cat(state)
    return replace(state, stars=next_stars(c, state.players, state.stars, c.star_types))


def set_market(state, market: int, codes):
    """Put exactly ``codes`` in ``market`` (returning what was there to the bag)."""
    c = cat(state)
    bag = list(state.bag)
    for k in state.markets[market]:
        bag[k] += 1
    for code in codes:
        k = c.index[code]
        assert bag[k] > 0, f"no {code} left in the bag"
        bag[k] -= 1
    markets = list(state.markets)
    markets[market] = tuple(c.index[x] for x in codes)
    return replace(state, bag=tuple(bag), markets=tuple(markets))


def give_spectacle(state, seat: int, key: str, face_up: bool = False):
    """Move spectacle ``key`` from wherever it is (display or another player) to ``seat``."""
    sid = spec_id(state, key)
    display = tuple(i for i in state.display if i != sid)
    players = []
    for i, p in enumerate(state.players):
        fd = tuple(x for x in p.face_down if x != sid)
        fu = tuple(x for x in p.face_up if x != sid)
        if i == seat:
            if face_up:
                fu += (sid,)
            else:
                fd += (sid,)
        players.append(replace(p, face_down=fd, face_up=fu))
    return replace(state, display=display, players=tuple(players))


def clear_gates(state):
    return replace(state, players=tuple(replace(p, gates=()) for p in state.players))


def assert_illegal(state, action, rule: str):
    """``action`` raises RuleError citing ``rule`` and leaves ``state`` exactly as it was."""
    before = encode_state(state)
    with pytest.raises(RuleError) as info:
        apply(state, action)
    assert str(info.value).startswith(rule), f"expected {rule}, got {info.value}"
    assert info.value.rule.startswith(rule)
    assert encode_state(state) == before
    return info.value


def assert_ok(state, previous=None):
    problems = check(state, previous)
    assert not problems, problems
    return state


def texts(events) -> str:
    return "\n".join(e.text for e in events)


def with_dice(state, *faces):
    """``state`` with its PRNG set so that the next rolls of a die give ``faces`` in order
    (searching PRNG states near the current one)."""
    from colosseum.core import rng

    for r in range(state.rng, state.rng + 100_000):
        s = r & rng.MASK
        got = []
        for _ in faces:
            s, v = rng.below(s, 6)
            got.append(v + 1)
        if tuple(got) == faces:
            return replace(state, rng=r & rng.MASK)
    raise AssertionError(f"no PRNG state rolls {faces}")
