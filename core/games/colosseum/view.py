"""What a player may see of a game: the state without what decides the chance outcomes to come,
and without what lies face down.

A state's ``rng`` (the generator state) with its setup's ``seed`` (or ``secret``) lets anyone
compute every future die roll and draw; the original edition's green tiles left face down by
the board (``aside``, O-9) are turned up one by one as the markets are refilled (O-18).  A server
hands players ``player_view(state, seat)``: the same state with the generator state, the seed
and the secret blanked and each tile aside shown as :data:`HIDDEN` (how many lie there is seen;
what they are is not, until one is turned up and goes to a market).  Such a state is fine for
display and for asking ``legal``; ``apply`` still runs on it, but any chance outcome it produces
(a draw, a tile turned up) is not the real game's: :func:`determinised` first makes those up.
"""

from __future__ import annotations

import msgspec

from colosseum.core import rng
from colosseum.core.games.colosseum.components import load_catalog
from colosseum.core.games.colosseum.model import GameSetup, State

#: a tile lying face down, as a player's view shows it (``State.aside``)
HIDDEN = -1


def setup_view(setup: GameSetup) -> GameSetup:
    """``setup`` without its seed (0) and secret ("")."""
    if not setup.seed and not setup.secret:
        return setup
    return msgspec.structs.replace(setup, seed=0, secret="")


def player_view(state: State, seat: int | None = None) -> State:
    """``state`` as ``seat`` may see it (None: a spectator; every seat sees the same): the
    generator state, the seed and the secret blanked, the tiles aside face down."""
    aside = (HIDDEN,) * len(state.aside)
    if not state.rng and not state.setup.seed and not state.setup.secret and state.aside == aside:
        return state
    return msgspec.structs.replace(state, rng=0, setup=setup_view(state.setup), aside=aside)


def _face_down(state: State, luck: int) -> tuple[int, ...]:
    """The tiles aside of a view (all :data:`HIDDEN`) made up: what every player can count
    (each kind's tiles less those in the bag, the box, the markets and the players' hands),
    in an order drawn from ``luck``."""
    cat = load_catalog(state.setup.variant)
    tiles: list[int] = []
    for k, total in enumerate(cat.counts):
        seen = state.bag[k] + state.box[k] + sum(p.tiles[k] for p in state.players)
        seen += sum(1 for m in state.markets for t in m if t == k)
        tiles += [k] * max(0, total - seen)
    if len(tiles) != len(state.aside):  # (not a view of a reachable state: keep the count)
        tiles = (tiles + [0] * len(state.aside))[: len(state.aside)]
    return rng.shuffled(rng.seed_state(luck), tuple(tiles))[1]


def determinised(state: State, luck: int) -> State:
    """``state`` with its chance to come replaced by ``luck``: a SplitMix64 generator state (the
    secret, if any, dropped), and the tiles aside of a player's view made up from it.  What a
    bot's playout runs on: never the game's real future."""
    if HIDDEN in state.aside:
        state = msgspec.structs.replace(state, aside=_face_down(state, luck))
    if state.setup.secret:
        return msgspec.structs.replace(state, rng=luck, setup=msgspec.structs.replace(state.setup, secret=""))
    return msgspec.structs.replace(state, rng=luck)
