"""Municipium's game state: frozen msgspec Structs of tuples.

Institutions are indices 0-6 (Temple … Praetorium) and citizen kinds indices 0-3 (priest,
soldier, merchant, advocate), as in ``catalog.py``; per-kind counts are 4-tuples.  A card in
progress is a stack of *frames* (``State.stack``, top last): each frame is one pending piece of
work, and the frames that wait for a player's choice make ``to_act`` that player (M-10.7).
The log line type is the shared :class:`~colosseum.core.events.Event`.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, Union

import msgspec
from msgspec import Meta

from colosseum.core.events import Event
from colosseum.core.options import SetupBase

NOBODY = -1
NO_KIND = -1

Phase = Literal["place", "move", "card", "over"]

OPTION_SHORT = "short"  # M-13.1: 4 decurions end the game
OPTION_SINGLE = "single-chamber"  # M-13.2: one chamber citizen on the whole board
OPTIONS = (OPTION_SHORT, OPTION_SINGLE)

__all__ = ["Event"]


class MuniSetup(SetupBase, frozen=True, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    """Everything that, with the action list, determines a game: the players, the seed (or the
    secret) and Municipium's options (M-13), declared once (:mod:`colosseum.core.options`)."""

    game: ClassVar[str] = "municipium"
    #: a log of a game with a secret is version 4: its version 3 logs meant less by it (D-96)
    secret_since: ClassVar[int] = 4

    options: Annotated[
        tuple[Literal["short", "single-chamber"], ...],
        Meta(
            title="Options",
            description="the short game (4 decurions end it, M-13.1); one chamber citizen on the board (M-13.2)",
            extra={"labels": {"short": "short game", "single-chamber": "single chamber citizen"}},
        ),
    ] = ()
    #: D-96: the secret keys every draw.  Before, only the setup's first draws (the start player,
    #: the deck) were keyed and every later one came from an unkeyed generator whose state
    #: anyone could follow; a version 3 log of a game with a secret was played so and replays so
    #: (set by ``read_from_log``: no player, form or message chooses it).
    legacy_draws: Annotated[bool, Meta(extra={"internal": True, "since": 4})] = False

    def read_from_log(self, version: int) -> MuniSetup:
        if version < self.secret_since and self.secret and not self.legacy_draws:
            return msgspec.structs.replace(self, legacy_draws=True)
        return self


class Player(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    colour: str
    plain: tuple[int, ...]  # uncrowned members per institution
    crowned: tuple[int, ...]  # crowned members per institution (M-4.1: each counts 2)
    citizens: tuple[int, ...] = (0, 0, 0, 0)  # held, per kind
    favours: int = 0
    decurions: int = 0
    family: tuple[str, ...] = ()  # face-up family cards (M-2.7)
    spent: tuple[str, ...] = ()  # family cards turned face down (M-5.3)


# ---------------------------------------------------------------- frames (M-10)


class _Frame(msgspec.Struct, frozen=True, tag_field="f", kw_only=True):
    player: int  # who owes the choice (or whose card drives the frame)


class CardFrame(_Frame, frozen=True, tag="card"):
    """Drives the card in play; ``i`` is its progress (a seat offset or an institution)."""

    card: str
    i: int = 0


class PlaceFrame(_Frame, frozen=True, tag="place"):
    """``player`` places one of the held citizens on a matching banner (M-7.2)."""


class CitizenEventFrame(_Frame, frozen=True, tag="citizen_event"):
    """The first player at ``institution`` chooses which of the 3 citizens to leave (M-7.2)."""

    institution: int


class GreatFamilyFrame(_Frame, frozen=True, tag="great_family"):
    """Great Family: governor or rearrangement (M-6.4)."""


class OfferFrame(_Frame, frozen=True, tag="offer"):
    """``player`` may use the power of one of ``options`` or pass (M-6.5-M-6.8)."""

    options: tuple[int, ...]


class TavernFrame(_Frame, frozen=True, tag="tavern"):
    """The Tavern's pull (M-8.1)."""


class EmporiumFrame(_Frame, frozen=True, tag="emporium"):
    """The Emporium's drawing (M-8.3); ``mark`` is ``State.citizen_events`` at its start."""

    mark: int


class BasilicaFrame(_Frame, frozen=True, tag="basilica"):
    """The Basilica's choice (M-8.4)."""


class ForumFrame(_Frame, frozen=True, tag="forum"):
    """The Forum's take (M-8.5)."""


class RearrangeFrame(_Frame, frozen=True, tag="rearrange"):
    """Great Family (b) or the Praetorium: up to ``left`` relocations, then pass (M-6.4, M-8.6)."""

    left: int


class ChamberFrame(_Frame, frozen=True, tag="chamber"):
    """Option single-chamber: put the held citizen on a chamber of its kind (M-13.2)."""


Frame = Union[
    CardFrame,
    PlaceFrame,
    CitizenEventFrame,
    GreatFamilyFrame,
    OfferFrame,
    TavernFrame,
    EmporiumFrame,
    BasilicaFrame,
    ForumFrame,
    RearrangeFrame,
    ChamberFrame,
]


class Standing(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    rank: int
    decurions: int
    held: int  # favours plus citizens still held (M-11.2 tie-break)
    temple: int  # Temple space, 1 = I (final tie-break)
    decided_by: str  # "decurions", "held", "temple" or "" for the last


class Result(msgspec.Struct, frozen=True, kw_only=True):
    winner: int
    standings: tuple[Standing, ...]


class State(msgspec.Struct, frozen=True, kw_only=True):
    setup: MuniSetup
    rng: int  # PRNG state; every chance outcome comes from here
    phase: Phase = "place"
    start: int = 0  # start player (M-3.1)
    active: int = 0  # whose turn (or whose initial placement)
    turn: int = 0  # turns begun (0 during initial placement)
    placed: int = 0  # initial placements made (M-3.2)
    players: tuple[Player, ...]
    temple: tuple[int, ...] = ()  # seats by Temple space, space I first
    banners: tuple[tuple[int, ...], ...]  # per institution, citizens per kind
    favour_spaces: tuple[bool, ...]  # per institution (the Temple's is always False)
    chamber: tuple[int, ...]  # per institution: citizen kind on the citizen space, or -1
    governor: int
    bag: tuple[int, ...]  # citizens per kind
    held: tuple[int, ...] = (0, 0, 0, 0)  # drawn, not yet placed (M-6.2, M-6.3, M-8.3)
    favour_supply: int
    wreaths: int  # wreath supply
    deck: tuple[str, ...]  # common deck, top first (hidden order)
    discard: tuple[str, ...] = ()  # common discard, oldest first
    in_play: str = ""  # the card being carried out
    stack: tuple[Frame, ...] = ()
    citizen_events: int = 0  # citizen events so far (ends the Emporium, M-8.3)
    result: Result | None = None
    actions: int = 0

    @property
    def n(self) -> int:
        return len(self.players)
