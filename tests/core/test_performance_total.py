"""The quiet path totals a performance without the breakdown's text: the same total and tiles."""

from __future__ import annotations

from colosseum.core.games.colosseum import apply, legal, new_game, to_act
from colosseum.core.games.colosseum.actions import Perform
from colosseum.core.games.colosseum.bots.random_bot import RandomBot
from colosseum.core.games.colosseum.components import VARIANTS
from colosseum.core.games.colosseum.queries import breakdown, catalog, performance_total, spectacle_by_key
from colosseum.core.simulate import make_setup


def test_performance_total_is_the_breakdowns() -> None:
    checked = 0
    for variant in VARIANTS:
        for g in range(8):
            state = new_game(make_setup(4, 500 + g, variant=variant))
            bots = [RandomBot(g * 31 + i) for i in range(4)]
            while (seat := to_act(state)) >= 0:
                for a in legal(state).actions:
                    if isinstance(a, Perform):
                        spec = spectacle_by_key(catalog(state), a.spectacle)
                        b = breakdown(state, seat, spec, a.aquilas)
                        assert performance_total(state, seat, spec, a.aquilas) == (b.total, b.used)
                        checked += 1
                state, _ = apply(state, bots[seat].act(state))
    assert checked > 100
