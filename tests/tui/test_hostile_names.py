"""Whole games of every ruleset, of Municipium and of the tests' toy game (the plain client),
every seat a person with a hostile name, every decision's dialog opened and read (see
``hostile_play``): no ``MarkupError``, no name read as markup, every line within 80 cells, no
error shown."""

from __future__ import annotations

import asyncio

import pytest
import toygame
from hostile_play import hostile_argv, play_hostile

from colosseum.core.registry import unregister

GAMES = [
    pytest.param(("colosseum", 4, "grand", ()), id="grand-4", marks=pytest.mark.long(100)),
    pytest.param(
        ("colosseum", 3, "classic", ("auction-2007",)), id="classic-3-auction2007", marks=pytest.mark.long(65)
    ),
    pytest.param(("colosseum", 5, "original", ()), id="original-5", marks=pytest.mark.long(150)),
    pytest.param(("municipium", 4, None, ()), id="municipium-4", marks=pytest.mark.long(65)),
]


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_with_hostile_names_in_every_seat(game):
    name, players, variant, options = game
    actions = asyncio.run(play_hostile(hostile_argv(name, players, variant, options, seed=3), extra_every=60))
    assert actions > 100


def test_the_toy_game_with_hostile_names_through_the_plain_client():
    toygame.register()
    try:
        argv = hostile_argv("nim", 4, seed=3) + ["--heap", "12"]
        actions = asyncio.run(play_hostile(argv, extra_every=5))
    finally:
        unregister("nim")
    assert actions > 8
