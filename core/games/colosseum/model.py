"""The game state: frozen msgspec Structs holding tuples only.

Everything a player could ask about is here; nothing is derived from hidden bookkeeping.
Tile kinds are indices into ``Catalog.tiles`` (codes G, Co, M, H, FE, P, S, L, Sc, D, Ch, E,
Bal, Aq, Con); per-kind counts are tuples in that order.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec
from msgspec import Meta

from colosseum.core.options import SetupBase

Phase = Literal["setup", "invest", "hire", "trade", "perform", "closing", "over"]
PHASES: tuple[str, ...] = ("setup", "invest", "hire", "trade", "perform", "closing", "over")

NOBODY = -1


class GameSetup(SetupBase, frozen=True, kw_only=True, gc=False, omit_defaults=True, forbid_unknown_fields=True):
    """Everything that, with the action list, determines a game: the players, the seed (or the
    secret: :class:`~colosseum.core.options.SetupBase`) and Colosseum's options, each declared
    here once (:mod:`colosseum.core.options` makes the command line's flags, the new-game and
    new-table forms and the export's words from these fields)."""

    game: ClassVar[str] = "colosseum"

    variant: Annotated[
        Literal["grand", "classic", "original"],
        Meta(
            title="Edition",
            description="The Grand Spectacle (2026), its classic mode, or the original 2007 edition",
            extra={"labels": {"grand": "The Grand Spectacle", "classic": "Classic", "original": "Original 2007"}},
        ),
    ] = "grand"
    options: Annotated[
        tuple[Literal["auction-2007"], ...],
        Meta(
            title="Rules options",
            description="the 2007 auctions: a lot's winner places a pillar and bids no more that phase (A07)",
            extra={"labels": {"auction-2007": "2007 auctions"}},
        ),
    ] = ()
    first_player: Annotated[
        int | None,
        Meta(
            title="First player",
            description="who starts the first round; drawn by lot unless chosen (G-1.4)",
            extra={"seat": True},
        ),
    ] = None
    starting_coins: Annotated[
        Annotated[int, Meta(ge=0, le=99)] | None,
        Meta(
            title="Starting coins",
            description="a house rule: every player starts with this many coins instead of the edition's",
            extra={"since": 3},
        ),
    ] = None

    def settled(self) -> GameSetup:
        """The original edition has one win per phase already (O-17): the 2007 auctions
        option, which would say so again, is dropped (it is not recorded as chosen)."""
        if self.variant == "original" and "auction-2007" in self.options:
            return msgspec.structs.replace(self, options=tuple(o for o in self.options if o != "auction-2007"))
        return self


class Player(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    name: str
    coins: int
    aquilas: int = 0
    tiles: tuple[int, ...]  # count per tile kind
    face_down: tuple[int, ...] = ()  # spectacle ids, planned or dealt, not yet performed
    face_up: tuple[int, ...] = ()  # performed in an earlier round
    arena: int = NOBODY  # spectacle performed this round (until Phase 5)
    arena_used: tuple[int, ...] = ()  # tiles per kind matched in that performance
    gates: tuple[int, ...] = ()  # track spaces, in the order they were built
    promoters: int = 0
    temple: bool = False
    gifts: int = 0
    pillar: bool = True
    acclaim: int = 0  # Acclaim marker position
    seq: int = 0  # stack order: lower = further down a stack
    history: tuple[int, ...] = ()  # Acclaim scored per round (0 when not performed)


class Auction(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    market: int
    high: int
    bidder: int
    out: tuple[bool, ...]  # passed, or cannot bid on this lot
    to_bid: int


class HireTurn(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    active: int
    auctions: int = 0  # auctions conducted this turn
    auction: Auction | None = None
    had_pillar: bool = True  # A07-1: pillar held at the start of the turn


class Transfer(msgspec.Struct, frozen=True, gc=False):
    """``count`` of ``item`` (a tile code, 'coins' or 'aquilas') from ``giver`` to ``receiver``."""

    giver: int
    receiver: int
    item: str
    count: int


class Deal(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    proposer: int
    transfers: tuple[Transfer, ...]
    answers: tuple[str, ...]  # per seat: "" not a party, "pending", "accepted"


class Refusal(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A deal rejected in this round's Phase 3 (D-69): by whom, whose proposal, in which trade
    turn (its active player and how many proposals it had seen), and whether the answer was "not
    this round" (no more proposals from that proposer to that player until the next round)."""

    by: int
    proposer: int
    transfers: tuple[Transfer, ...]
    active: int
    at: int  # ``TradeTurn.proposals`` when it was rejected
    whole_round: bool = False


class TradeTurn(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    active: int
    proposals: int = 0
    deals_closed: int = 0
    deal: Deal | None = None


class InvestTurn(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    player: int
    made: tuple[str, ...] = ()  # kinds of investment made this turn
    extras: int = 0  # C-3 extra investments paid for


class PerformTurn(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    player: int
    stage: Literal["roll", "mode", "move", "after"] = "roll"
    dice: tuple[int, ...] = ()
    mode: Literal["", "split", "sum"] = ""
    used: tuple[bool, ...] = ()  # per die (split mode)
    moved: tuple[int, ...] = ()  # nobles moved by dice this turn


class ClosingTurn(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    stage: Literal["retire", "steal", "first"]
    player: int  # who must act at this stage
    victim: int = NOBODY  # the most acclaimed (steal stage); O-26: the podium winner (all stages)


class Standing(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    seat: int
    rank: int
    acclaim: int
    coins: int
    stars: int
    seq: int
    decided_by: str  # "acclaim", "coins", "stars", "stack" or "" for the last


class Result(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    winner: int
    standings: tuple[Standing, ...]
    # O-29: everyone sharing the win when no tie-break separates them (winner first); empty
    # when one player wins alone, as always in The Grand Spectacle (the stack breaks ties).
    shared: tuple[int, ...] = ()


class State(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    setup: GameSetup
    rng: int  # PRNG state; every chance outcome comes from here
    round: int = 1
    phase: Phase = "setup"
    first: int = 0  # first player of this round
    turn: int = 0  # position in this phase's order
    players: tuple[Player, ...]
    bag: tuple[int, ...]  # tiles per kind
    markets: tuple[tuple[int, ...], ...]
    pillars: tuple[int, ...]  # per market: seat whose pillar stands there, or -1
    display: tuple[int, ...]  # spectacles still to buy
    nobles: tuple[int, ...]  # emperor, consul, consul, senator, senator, senator
    stars: tuple[int, ...]  # per tile kind: holder seat, -1 on the board
    promoters_left: int
    gifts_left: int
    box: tuple[int, ...]  # tiles per kind out of the game
    aside: tuple[int, ...] = ()  # O-9: starting tiles left face down by the board, used first in refills
    next_seq: int = 0
    invest: InvestTurn | None = None
    hire: HireTurn | None = None
    trade: TradeTurn | None = None
    refusals: tuple[Refusal, ...] = ()  # deals rejected in this round's Phase 3 (empty after it)
    perform: PerformTurn | None = None
    closing: ClosingTurn | None = None
    result: Result | None = None
    actions: int = 0  # actions applied so far

    @property
    def n(self) -> int:
        return len(self.players)
