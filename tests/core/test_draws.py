"""``Ctx.draws`` and ``Ctx.rolls`` write the generator's step out: they must give what the same
number of ``draw`` / ``roll`` calls give (and leave the same state)."""

from __future__ import annotations

from msgspec.structs import replace

from colosseum.core import new_game
from colosseum.core.catalog import load_catalog
from colosseum.core.context import Ctx
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
