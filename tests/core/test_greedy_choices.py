"""Greedy (and easy, built on it) make exactly the choices they made before the speed work:
the action sequences of seeded games in every variant, digested, against digests recorded from
the slower code.  A faster valuation must never change a choice."""

from __future__ import annotations

import hashlib

import pytest

from colosseum.core import apply, new_game, to_act
from colosseum.core.simulate import make_bots, make_setup

# (players, seed, variant, greedy digest, easy digest)
EXPECTED = [
    (4, 1, "grand", "73d0655610cd86b6", "f624a2fdd23872dc"),
    (3, 2, "classic", "3525b1eb4e4ef2bf", "db4e6f0503b5f8ba"),
    (5, 3, "original", "a7a94da138d4ac45", "1429e6a0119bad9d"),
    (4, 4, "grand", "abff67777352f6ce", "b94b95880986006f"),
    (4, 5, "classic", "2e3c566b61c6465a", "3a8dc50366cfa29e"),
    (3, 6, "original", "4f17ef1dc496f0a1", "ce68f8f8d41ced3c"),
]


def _digest(players: int, seed: int, variant: str, bot: str) -> str:
    state = new_game(make_setup(players, seed, variant=variant))
    bots = make_bots([bot] * players, seed)
    h = hashlib.sha256()
    while (seat := to_act(state)) >= 0:
        action = bots[seat].act(state)
        h.update(repr(action).encode())
        state, _ = apply(state, action)
    h.update(repr(state).encode())
    return h.hexdigest()[:16]


@pytest.mark.parametrize(("players", "seed", "variant", "greedy", "easy"), EXPECTED)
def test_same_choices_as_before(players: int, seed: int, variant: str, greedy: str, easy: str) -> None:
    assert _digest(players, seed, variant, "greedy") == greedy
    assert _digest(players, seed, variant, "easy") == easy


def test_same_playouts_as_before() -> None:
    """The hard bot's playouts (greedy play on the trusted path, no proposals) end as before."""
    from colosseum.core.bots.greedy import GreedyBot
    from colosseum.core.bots.playout import playout

    h = hashlib.sha256()
    for players, seed, variant in [(4, 7, "grand"), (3, 8, "classic"), (5, 9, "original")]:
        state = new_game(make_setup(players, seed, variant=variant))
        bots = make_bots(["greedy"] * players, seed)
        k = 0
        while (seat := to_act(state)) >= 0:
            if k % 40 == 0:
                o = playout(state, GreedyBot(0).act(state), seat, 1000 + k, None)
                h.update(repr((o.won, o.acclaim, o.score) if o else None).encode())
            state, _ = apply(state, bots[seat].act(state))
            k += 1
    assert h.hexdigest()[:16] == "1dce345746920569"
