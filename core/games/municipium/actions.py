"""Every decision in Municipium, as a tagged union of frozen Structs (JSON tag ``"a"``).

Each action names the ``player`` (seat, 0-based) who takes it.  Institutions are indices 0-6,
citizen kinds are ids ("priest", "soldier", "merchant", "advocate").
"""

from __future__ import annotations

from typing import Literal, Union

import msgspec


class _Action(msgspec.Struct, frozen=True, tag_field="a", kw_only=True):
    player: int


class Path(msgspec.Struct, frozen=True, kw_only=True):
    """One member's move (M-5.1): one step ``frm``→``to``, or two steps through ``via``."""

    frm: int
    to: int
    via: int = -1
    crowned: bool = False


class PlaceMember(_Action, frozen=True, tag="place_member"):
    """M-3.2: one member onto any institution."""

    institution: int


class Move(_Action, frozen=True, tag="move"):
    """M-5.1: one or two one-step paths, or one two-step path."""

    paths: tuple[Path, ...]


class Pass(_Action, frozen=True, tag="pass"):
    """Decline: no move (M-5.1), no power (M-6.8), stop the Emporium (M-8.3), end a rearrangement."""


class DrawCommon(_Action, frozen=True, tag="draw_common"):
    """M-5.2 (a): turn over the top common card."""


class PlayFamily(_Action, frozen=True, tag="play_family"):
    """M-5.2 (b): carry out a face-up family card."""

    card: str


class PlaceCitizen(_Action, frozen=True, tag="place_citizen"):
    """M-7.2: a held citizen onto a matching banner."""

    kind: str
    institution: int


class KeepCitizens(_Action, frozen=True, tag="keep"):
    """M-7.2: the first player keeps 2 of the 3 and leaves ``leave``."""

    leave: str


class GreatFamilyOption(_Action, frozen=True, tag="great_family"):
    option: Literal["governor", "rearrange"]


class UsePower(_Action, frozen=True, tag="use_power"):
    institution: int


class Relocate(_Action, frozen=True, tag="relocate"):
    """M-6.4 (b), M-8.6: one of your members to any institution."""

    frm: int
    to: int
    crowned: bool = False


class Pull(_Action, frozen=True, tag="pull"):
    """M-8.1: ``plain`` + ``crowned`` members of ``owner`` from ``frm`` to the Tavern."""

    owner: int
    frm: int
    plain: int
    crowned: int = 0


class Exchange(_Action, frozen=True, tag="exchange"):
    """M-8.4 (a): exactly 3 citizens and/or favours for 1 decurion."""

    citizens: tuple[int, int, int, int]  # per kind
    favours: int = 0


class BasilicaDraw(_Action, frozen=True, tag="basilica_draw"):
    """M-8.4 (b): draw one citizen and keep it."""


class Take(_Action, frozen=True, tag="take"):
    """M-8.5: one citizen of ``kind`` from seat ``seat`` or from ``institution``'s banner."""

    kind: str
    seat: int = -1
    institution: int = -1


class EmporiumDraw(_Action, frozen=True, tag="emporium_draw"):
    """M-8.3: draw the next citizen."""


class PlaceChamber(_Action, frozen=True, tag="place_chamber"):
    """M-13.2: the held chamber citizen onto a chamber of its kind."""

    institution: int


MuniAction = Union[
    PlaceMember,
    Move,
    Pass,
    DrawCommon,
    PlayFamily,
    PlaceCitizen,
    KeepCitizens,
    GreatFamilyOption,
    UsePower,
    Relocate,
    Pull,
    Exchange,
    BasilicaDraw,
    Take,
    EmporiumDraw,
    PlaceChamber,
]

ACTION_TYPES: tuple[type, ...] = MuniAction.__args__  # type: ignore[attr-defined]

_encoder = msgspec.json.Encoder()
_decoder: msgspec.json.Decoder[MuniAction] = msgspec.json.Decoder(MuniAction)


def encode_action(action: MuniAction) -> bytes:
    return _encoder.encode(action)


def decode_action(data: bytes | str) -> MuniAction:
    """Decode one action; raises msgspec.DecodeError / ValidationError on bad input."""
    return _decoder.decode(data)
