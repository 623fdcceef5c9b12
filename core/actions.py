"""Every decision in the game, as a tagged union of frozen Structs.

Each action names the ``player`` (seat, 0-based) who takes it; the engine checks it is theirs
to take.  Tile kinds are given by code ('G', 'Co', ..., 'Bal'); spectacles by their key.
Encoded as JSON the tag is the field ``"a"``.
"""

from __future__ import annotations

from typing import Literal, Union

import msgspec

from .model import Transfer

#: How an extra investment is paid (C-3): "" for a regular one.
Extra = Literal["", "aquilas", "construction"]


class _Action(msgspec.Struct, frozen=True, tag_field="a", kw_only=True):
    player: int


# ---- setup (G-1.6)
class PlaceStartGates(_Action, frozen=True, tag="start_gates"):
    space: int  # the first space of a free starting pair


# ---- Phase 1 (G-2; C-3, C-5; O-11 to O-15)
class BuildGate(_Action, frozen=True, tag="gate"):
    space: int
    extra: Extra = ""


class HirePromoter(_Action, frozen=True, tag="promoter"):
    extra: Extra = ""


class PlanSpectacle(_Action, frozen=True, tag="plan"):
    spectacle: str
    extra: Extra = ""


class BuildTemple(_Action, frozen=True, tag="temple"):
    extra: Extra = ""


class BuySeasonTicket(_Action, frozen=True, tag="season_ticket"):
    """O-14 (original): a season ticket, +5 spectators in every later performance."""

    extra: Extra = ""


class BuildLoge(_Action, frozen=True, tag="loge"):
    """O-15 (original): the Emperor's loge, 2 dice in Phase 4."""

    extra: Extra = ""


class ExchangeAquilas(_Action, frozen=True, tag="exchange"):
    count: int


class ConstructionForAquila(_Action, frozen=True, tag="construction_aquila"):
    """C-5 (classic): discard a construction tile for an Aquila, at any time."""


# ---- Phase 2 (G-3)
class OpenAuction(_Action, frozen=True, tag="open"):
    market: int
    bid: int


class Raise(_Action, frozen=True, tag="raise"):
    bid: int


class PassBid(_Action, frozen=True, tag="pass_bid"):
    pass


# ---- Phase 3 (G-4)
class ProposeDeal(_Action, frozen=True, tag="propose"):
    transfers: tuple[Transfer, ...]


class AcceptDeal(_Action, frozen=True, tag="accept"):
    pass


class RejectDeal(_Action, frozen=True, tag="reject"):
    pass


class CloseDeal(_Action, frozen=True, tag="close"):
    pass


class CancelDeal(_Action, frozen=True, tag="cancel"):
    pass


# ---- Phase 4 (G-5)
class Roll(_Action, frozen=True, tag="roll"):
    pass


class ChooseDice(_Action, frozen=True, tag="dice"):
    mode: Literal["split", "sum"]


class MoveNoble(_Action, frozen=True, tag="move"):
    noble: int  # 0 emperor, 1-2 consuls, 3-5 senators
    die: int  # 0 or 1 (split mode), -1 for the sum
    steps: int


class AquilaMove(_Action, frozen=True, tag="aquila_move"):
    noble: int
    steps: int  # -3..-1 counter-clockwise, 1..3 clockwise


class Perform(_Action, frozen=True, tag="perform"):
    spectacle: str
    aquilas: int = 0  # G-5.3 step 7


# ---- Phase 5 (G-6)
class Retire(_Action, frozen=True, tag="retire"):
    tile: str


class Steal(_Action, frozen=True, tag="steal"):
    tile: str


class ChooseFirstPlayer(_Action, frozen=True, tag="first"):
    first: int


# ---- any phase (G-0: a player may always skip their turn)
class EndTurn(_Action, frozen=True, tag="end"):
    pass


Action = Union[
    PlaceStartGates,
    BuildGate,
    HirePromoter,
    PlanSpectacle,
    BuildTemple,
    BuySeasonTicket,
    BuildLoge,
    ExchangeAquilas,
    ConstructionForAquila,
    OpenAuction,
    Raise,
    PassBid,
    ProposeDeal,
    AcceptDeal,
    RejectDeal,
    CloseDeal,
    CancelDeal,
    Roll,
    ChooseDice,
    MoveNoble,
    AquilaMove,
    Perform,
    Retire,
    Steal,
    ChooseFirstPlayer,
    EndTurn,
]

ACTION_TYPES: tuple[type, ...] = Action.__args__  # type: ignore[attr-defined]

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Action)


def encode_action(action: Action) -> bytes:
    return _encoder.encode(action)


def decode_action(data: bytes | str) -> Action:
    """Decode one action; raises msgspec.DecodeError / ValidationError on bad input, however
    malformed (deep nesting and bad UTF-8 inside a string included)."""
    try:
        action: Action = _decoder.decode(data)  # a Decoder of a Union is typed Decoder[Any]
    except RecursionError:
        raise msgspec.DecodeError("JSON is malformed: nested too deeply") from None
    except (UnicodeDecodeError, UnicodeEncodeError) as e:  # bad UTF-8 in a string, or a lone surrogate
        raise msgspec.DecodeError(f"JSON is malformed: not UTF-8 text ({e.reason})") from None
    return action
