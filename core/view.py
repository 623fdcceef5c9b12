"""What a player may see of a game: the state without what decides the chance outcomes to come.

A state's ``rng`` (the PRNG state) and its setup's ``seed`` together let anyone compute every
future die roll and draw.  A server hands players ``player_view(state)``: the same state with
both set to zero.  Such a state is fine for display and for asking ``legal``; ``apply`` still
runs on it, but any chance outcome it produces is not the real game's.
"""

from __future__ import annotations

import msgspec

from colosseum.core.model import GameSetup, State


def setup_view(setup: GameSetup) -> GameSetup:
    """``setup`` without its seed (0)."""
    return msgspec.structs.replace(setup, seed=0) if setup.seed else setup


def player_view(state: State) -> State:
    """``state`` with the generator state and the seed replaced by zeros."""
    if not state.rng and not state.setup.seed:
        return state
    return msgspec.structs.replace(state, rng=0, setup=setup_view(state.setup))
