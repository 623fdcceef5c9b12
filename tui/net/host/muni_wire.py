"""Municipium's messages between a table and its clients, carried in ``protocol.GameMsg``
(``body``: one of these, msgpack).  Headless: no Textual, no Rich, nothing of the client.

As for Colosseum, every setup and state a client receives is the player's view (no seed, no
generator state: ``core.games.MUNICIPIUM.player_view``), and a client never applies actions: it
sends ``MuniAct`` and receives the resulting state in ``MuniUpdate``.
"""

from __future__ import annotations

from typing import Union

import msgspec

from colosseum.core.events import Event
from colosseum.core.games.municipium import MuniAction, MuniSetup, State


class _W(msgspec.Struct, tag_field="w", kw_only=True, forbid_unknown_fields=True):
    pass


class MuniGame(_W, tag="game", kw_only=True):
    """Server -> client, after ``Joined`` and with every ``TableChanged`` of a started game:
    the game so far.  ``seat`` -1: watching."""

    seat: int = -1
    setup: MuniSetup
    state: State
    actions: list[MuniAction] = []
    events: list[Event] = []


class MuniUpdate(_W, tag="update", kw_only=True):
    """Server -> client: ``actions`` applied (in order), ``state`` the result, ``n`` the actions
    so far at the table."""

    n: int
    actions: list[MuniAction]
    events: list[Event]
    state: State
    deadline: float = 0.0
    clock_seat: int = -1


class MuniAct(_W, tag="act", kw_only=True):
    """Client -> server: an action; ``at`` the actions the client had seen (-1: not checked)."""

    action: MuniAction
    at: int = -1


WireMsg = Union[MuniGame, MuniUpdate, MuniAct]

_enc = msgspec.msgpack.Encoder()
_dec = msgspec.msgpack.Decoder(WireMsg)


def encode(msg: _W) -> bytes:
    return _enc.encode(msg)


def decode(body: bytes) -> MuniGame | MuniUpdate | MuniAct:
    """Raises msgspec.DecodeError (ValidationError included) for a body that is not one."""
    msg: MuniGame | MuniUpdate | MuniAct = _dec.decode(body)
    return msg
