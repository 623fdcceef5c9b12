"""The public rule queries (core/queries.py) agree with the engine that shares them."""

from __future__ import annotations

import itertools
import random

from builders import cat, skip_to, start

from colosseum.core.games.colosseum import RuleError, apply, legal, safe_action
from colosseum.core.games.colosseum.engine import walk
from colosseum.core.games.colosseum.model import NOBODY
from colosseum.core.games.colosseum.queries import (
    landing,
    match,
    missing,
    missings,
    star_holder,
    star_need,
    stars_after,
    stars_held,
)


def test_star_need_is_star_holder_solved_for_one_seat() -> None:
    """G-7: ``star_need`` (one seat's threshold) is the closed form of ``star_holder``."""
    for counts in itertools.product(range(5), repeat=3):
        for holder in (NOBODY, 0, 1, 2):
            for minimum in (1, 2, 3):
                for seat in range(3):
                    others = [c for i, c in enumerate(counts) if i != seat]
                    other = max(others)
                    need = max(minimum, other if holder == seat else other + 1)
                    for mine in range(7):
                        trial = list(counts)
                        trial[seat] = mine
                        holds = star_holder(trial, holder, minimum) == seat
                        assert holds == (mine >= need), (counts, holder, minimum, seat, mine)


def test_stars_after_and_stars_held_follow_the_engine() -> None:
    """The G-7 queries answer what the engine does after tiles change hands."""
    st = start(4, seed=3)
    st = skip_to(st, "trade")
    c = cat(st)
    rnd = random.Random(5)
    for _ in range(40):
        seat = rnd.randrange(4)
        k = rnd.choice(c.star_types)
        n = rnd.choice((1, 2, 3))
        after = stars_after(st, {seat: {k: n}})
        tiles = list(st.players[seat].tiles)
        tiles[k] += n
        held = stars_held(st, c, seat, tiles)
        assert (after[k] == seat) == (k in held)
        assert (tiles[k] >= star_need(st, c, seat, k)) == (k in held)


def test_missing_and_missings_agree_with_match() -> None:
    st = start(3, seed=2)
    c = cat(st)
    rnd = random.Random(1)
    for _ in range(50):
        tiles = tuple(rnd.randrange(4) for _ in c.tiles)
        specs = list(c.spectacles)
        got = missings(c, tiles, specs)
        for spec, m in zip(specs, got, strict=True):
            assert m == match(c, tiles, spec).missing == missing(c, tiles, spec)


def test_landing_is_the_engine_walk() -> None:
    for variant in ("grand", "classic"):
        st = start(4, seed=4, variant=variant)
        c = cat(st)
        for noble in range(6):
            occupied = {p for i, p in enumerate(st.nobles) if i != noble}
            for steps in (-3, -2, -1, 1, 2, 5, 9, 12):
                dest = walk(st, noble, steps)
                assert landing(c, st.nobles, noble, steps) == dest
                assert landing(c, st.nobles, noble, steps, occupied) == dest


def test_safe_action_is_always_legal() -> None:
    st = start(3, seed=9)
    rnd = random.Random(2)
    for _ in range(300):
        if st.phase == "over":
            break
        a = safe_action(st)
        assert a in legal(st).actions
        ch = legal(st)
        pick = rnd.choice(ch.actions)
        try:
            st, _ = apply(st, pick)
        except RuleError:
            st, _ = apply(st, a)
