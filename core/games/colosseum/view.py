"""What a player may see of a game: the state without what decides the chance outcomes to come.

A state's ``rng`` (the generator state) with its setup's ``seed`` (or ``secret``) lets anyone
compute every future die roll and draw.  A server hands players ``player_view(state)``: the same
state with all three blanked.  Such a state is fine for display and for asking ``legal``;
``apply`` still runs on it, but any chance outcome it produces is not the real game's.
"""

from __future__ import annotations

import msgspec

from colosseum.core.games.colosseum.model import GameSetup, State


def setup_view(setup: GameSetup) -> GameSetup:
    """``setup`` without its seed (0) and secret ("")."""
    if not setup.seed and not setup.secret:
        return setup
    return msgspec.structs.replace(setup, seed=0, secret="")


def player_view(state: State, seat: int | None = None) -> State:
    """``state`` as ``seat`` may see it (None: a spectator): the generator state, the seed and
    the secret blanked."""
    if not state.rng and not state.setup.seed and not state.setup.secret:
        return state
    return msgspec.structs.replace(state, rng=0, setup=setup_view(state.setup))


def determinised(state: State, luck: int) -> State:
    """``state`` with its chance to come replaced by ``luck``: a SplitMix64 generator state (the
    secret, if any, dropped).  What a bot's playout runs on: never the game's real future."""
    if state.setup.secret:
        return msgspec.structs.replace(state, rng=luck, setup=msgspec.structs.replace(state.setup, secret=""))
    return msgspec.structs.replace(state, rng=luck)
