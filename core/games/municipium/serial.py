"""Encoding Municipium states as JSON and replaying action lists."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from colosseum.core.events import Event
from colosseum.core.games.municipium.actions import MuniAction
from colosseum.core.games.municipium.engine import apply, new_game
from colosseum.core.games.municipium.model import MuniSetup, State

_enc = msgspec.json.Encoder()
_dec = msgspec.json.Decoder(State)


def encode_state(state: State) -> bytes:
    return _enc.encode(state)


def decode_state(data: bytes | str) -> State:
    return _dec.decode(data)


def replay(setup: MuniSetup, actions: Iterable[MuniAction]) -> tuple[State, list[Event]]:
    """Re-apply ``actions`` from the initial state; the engine's replay is the truth."""
    state = new_game(setup)
    events: list[Event] = []
    for a in actions:
        state, ev = apply(state, a)
        events.extend(ev)
    return state, events
