"""Encoding states and replaying action lists."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from colosseum.core.events import Event
from colosseum.core.games.colosseum.actions import Action
from colosseum.core.games.colosseum.engine import apply, new_game
from colosseum.core.games.colosseum.model import GameSetup, State

_enc = msgspec.json.Encoder()
_dec = msgspec.json.Decoder(State)


def encode_state(state: State) -> bytes:
    return _enc.encode(state)


def decode_state(data: bytes | str) -> State:
    """The state encoded in ``data``; raises ``msgspec.DecodeError`` (``ValidationError`` when the
    JSON is well formed but not a state) for anything else, however malformed."""
    try:
        return _dec.decode(data)
    except RecursionError:
        raise msgspec.DecodeError("JSON is malformed: nested too deeply") from None
    except (UnicodeDecodeError, UnicodeEncodeError) as e:  # bad UTF-8 in a string, or a lone surrogate
        raise msgspec.DecodeError(f"JSON is malformed: not UTF-8 text ({e.reason})") from None


def replay(setup: GameSetup, actions: Iterable[Action]) -> tuple[State, list[Event]]:
    """Re-apply ``actions`` from the initial state; the engine's replay is the truth."""
    state = new_game(setup)
    events: list[Event] = []
    for a in actions:
        state, ev = apply(state, a)
        events.extend(ev)
    return state, events
