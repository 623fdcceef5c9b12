"""``Ctx.draws`` and ``Ctx.rolls`` take the generator's numbers in a row (``rng.u64s``, the step
written out for a loop): they must give what the same number of ``draw`` / ``roll`` calls give
(and leave the same state)."""

from __future__ import annotations

from msgspec.structs import replace

from colosseum.core import rng
from colosseum.core.games.colosseum import new_game
from colosseum.core.games.colosseum.components import load_catalog
from colosseum.core.games.colosseum.context import Ctx
from colosseum.core.simulate import make_setup


def test_draws_and_rolls_as_one_at_a_time() -> None:
    base = new_game(make_setup(4, 7))
    cat = load_catalog(base.setup.variant)
    for seed in range(40):
        for bag in ((3, 0, 5, 1, 0, 2), (0, 0, 1), (2, 2, 2, 2, 2, 2, 2, 2), (0, 0, 0)):
            st = replace(base, rng=seed * 0x9E3779B9 + 12345, bag=bag)
            many, one = Ctx(st, cat), Ctx(st, cat)
            count = sum(bag) + 2
            assert many.draws(count) == [one.draw() for _ in range(count)]
            assert many.st == one.st
            assert many.rolls(5) == tuple(one.roll() for _ in range(5))
            assert many.st == one.st


def test_u64s_is_next_u64_in_a_row() -> None:
    for seed in (0, 1, 12345, (1 << 64) - 1):
        s = t = rng.seed_state(seed)
        t, many = rng.u64s(s, 50)
        one = []
        for _ in range(50):
            s, z = rng.next_u64(s)
            one.append(z)
        assert many == one and s == t
    assert rng.u64s(7, 0) == (7, [])
