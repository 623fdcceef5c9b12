"""The legal actions of the player to act.

Finite choices are listed as concrete actions.  Bids are given as ranges (``BidOption``) rather
than one action per amount, and a deal proposal (whose space is unbounded) as a flag; an
action built from them is legal when it is within the range and passes ``check_deal``.
"""

from __future__ import annotations

from functools import cache

import msgspec

from .actions import (
    AcceptDeal,
    Action,
    AquilaMove,
    BuildGate,
    BuildTemple,
    CancelDeal,
    ChooseDice,
    ChooseFirstPlayer,
    CloseDeal,
    ConstructionForAquila,
    EndTurn,
    ExchangeAquilas,
    HirePromoter,
    MoveNoble,
    OpenAuction,
    PassBid,
    Perform,
    PlaceStartGates,
    PlanSpectacle,
    Raise,
    RejectDeal,
    Retire,
    Roll,
    Steal,
)
from .catalog import load_catalog
from .engine import (
    NOBODY,
    _stealable,
    can_open_auction,
    credit,
    deal_pending,
    missing,
    noble_step_range,
    to_act,
)
from .model import State


class BidOption(msgspec.Struct, frozen=True):
    """Any bid from ``low`` to ``high`` (inclusive): an opening bid on ``market``, or a raise in
    the running auction when ``market`` is -1."""

    market: int
    low: int
    high: int

    def action(self, player: int, amount: int) -> Action:
        if self.market < 0:
            return Raise(player=player, bid=amount)
        return OpenAuction(player=player, market=self.market, bid=amount)


class Choices(msgspec.Struct, frozen=True):
    player: int
    actions: tuple[Action, ...]
    bids: tuple[BidOption, ...] = ()
    can_propose: bool = False

    def __len__(self) -> int:
        return len(self.actions) + len(self.bids) + (1 if self.can_propose else 0)


def may_propose(state: State, seat: int) -> bool:
    """G-4: any player may propose a deal while no deal is on the table."""
    t = state.trade
    if state.phase != "trade" or t is None or t.deal is not None:
        return False
    return t.proposals < load_catalog(state.setup.variant).common.max_deal_proposals


def performable(state: State, seat: int) -> list[int]:
    """Spectacle ids ``seat`` could perform now (G-5.2), ignoring the phase."""
    cat = load_catalog(state.setup.variant)
    p = state.players[seat]
    tiles = p.tiles
    n_gates = len(p.gates)
    out = []
    for sid in (*p.face_down, *p.face_up):
        spec = cat.spectacles[sid]
        if n_gates >= spec.gates and missing(cat, tiles, spec) <= spec.max_missing:
            out.append(sid)
    return out


# Actions are immutable, so the few kinds offered again and again are built once and shared.


@cache
def _simple(kind: type, seat: int) -> Action:
    return kind(player=seat)


@cache
def _roll_or_skip(seat: int) -> tuple[Action, ...]:
    return (Roll(player=seat), EndTurn(player=seat))


@cache
def _dice_modes(seat: int) -> tuple[Action, ...]:
    return (ChooseDice(player=seat, mode="split"), ChooseDice(player=seat, mode="sum"))


@cache
def _noble_moves(seat: int, die: int, lo: int, hi: int, moved: tuple[int, ...]) -> tuple[Action, ...]:
    return tuple(
        MoveNoble(player=seat, noble=noble, die=die, steps=s)
        for noble in range(6)
        if noble not in moved
        for s in range(lo, hi + 1)
    )


@cache
def _aquila_moves(seat: int, reach: int) -> tuple[Action, ...]:
    out: list[Action] = []
    for noble in range(6):
        for s in range(1, reach + 1):
            out.append(AquilaMove(player=seat, noble=noble, steps=s))
            out.append(AquilaMove(player=seat, noble=noble, steps=-s))
    return tuple(out)


@cache
def _performs(seat: int, key: str, aquilas: int) -> tuple[Action, ...]:
    return tuple(Perform(player=seat, spectacle=key, aquilas=k) for k in range(aquilas + 1))


@cache
def _plan(seat: int, key: str, extra: str) -> Action:
    return PlanSpectacle(player=seat, spectacle=key, extra=extra)


@cache
def _gate(seat: int, space: int, extra: str) -> Action:
    return BuildGate(player=seat, space=space, extra=extra)


@cache
def _investment(kind: type, seat: int, extra: str) -> Action:
    return kind(player=seat, extra=extra)


@cache
def _exchanges(seat: int, count: int) -> tuple[Action, ...]:
    return tuple(ExchangeAquilas(player=seat, count=k) for k in range(1, count + 1))


@cache
def _first_players(seat: int, n: int) -> tuple[Action, ...]:
    return tuple(ChooseFirstPlayer(player=seat, first=i) for i in range(n))


@cache
def _tile_action(kind: type, seat: int, code: str) -> Action:
    return kind(player=seat, tile=code)


def legal(state: State) -> Choices:
    """Everything the player to act may do now."""
    seat = to_act(state)
    if seat == NOBODY:
        return Choices(player=NOBODY, actions=())
    cat = load_catalog(state.setup.variant)
    p = state.players[seat]
    acts: list[Action] = []
    bids: list[BidOption] = []
    propose = False
    ph = state.phase
    if cat.rules.construction_for_aquila and p.tiles[cat.construction] > 0:
        acts.append(_simple(ConstructionForAquila, seat))
    if ph == "perform":
        pt = state.perform
        assert pt is not None
        stage = pt.stage
        if stage == "roll":
            acts += _roll_or_skip(seat)
        elif stage == "mode":
            acts += _dice_modes(seat)
        elif stage == "move":
            dice = (-1,) if pt.mode == "sum" else [i for i, u in enumerate(pt.used) if not u]
            for die in dice:
                lo, hi = noble_step_range(state, die)
                acts += _noble_moves(seat, die, lo, hi, pt.moved)
        else:
            if p.aquilas:
                acts += _aquila_moves(seat, cat.common.aquila_noble_steps)
            for sid in performable(state, seat):
                acts += _performs(seat, cat.spectacles[sid].key, p.aquilas)
            acts.append(_simple(EndTurn, seat))
    elif ph == "trade":
        t = state.trade
        assert t is not None
        if t.deal is not None:
            if deal_pending(state) == seat:
                acts += (_simple(AcceptDeal, seat), _simple(RejectDeal, seat))
            else:
                acts += (_simple(CloseDeal, seat), _simple(CancelDeal, seat))
        else:
            propose = t.proposals < cat.common.max_deal_proposals
            acts.append(_simple(EndTurn, seat))
    elif ph == "invest":
        turn = state.invest
        assert turn is not None
        rules = cat.rules
        c = cat.common
        normal = len(turn.made) - turn.extras
        pays: list[str] = []
        if normal < rules.investments_per_turn:
            pays.append("")
        elif rules.extra_investment_aquilas > 0:
            if p.aquilas >= rules.extra_investment_aquilas:
                pays.append("aquilas")
            if p.tiles[cat.construction] > 0:
                pays.append("construction")
        distinct = rules.investment_kinds_distinct
        n_sp = cat.track_spaces
        for extra in pays:
            made = turn.made if (extra == "" and distinct) else ()
            if "gate" not in made and len(p.gates) < c.gates and p.coins >= c.gate_cost:
                taken = {g for q in state.players for g in q.gates}
                spaces = sorted({s for g in p.gates for s in ((g + 1) % n_sp, (g - 1) % n_sp) if s not in taken})
                acts.extend(_gate(seat, s, extra) for s in spaces)
            if "promoter" not in made and state.promoters_left > 0 and p.coins >= c.promoter_cost:
                acts.append(_investment(HirePromoter, seat, extra))
            if "spectacle" not in made:
                for sid in state.display:
                    spec = cat.spectacles[sid]
                    if spec.cost <= p.coins:
                        acts.append(_plan(seat, spec.key, extra))
            if "temple" not in made and not p.temple and p.coins >= c.temple_cost:
                acts.append(_investment(BuildTemple, seat, extra))
        if p.aquilas:
            acts += _exchanges(seat, p.aquilas)
        acts.append(_simple(EndTurn, seat))
    elif ph == "hire":
        h = state.hire
        assert h is not None
        if h.auction is not None:
            bids.append(BidOption(market=-1, low=h.auction.high + 1, high=credit(p)))
            acts.append(_simple(PassBid, seat))
        else:
            if can_open_auction(state, seat):
                for i, m in enumerate(state.markets):
                    if len(m) == 3 and state.pillars[i] == NOBODY:
                        bids.append(BidOption(market=i, low=cat.common.min_opening_bid, high=credit(p)))
            acts.append(_simple(EndTurn, seat))
    elif ph == "closing":
        cl = state.closing
        assert cl is not None
        if cl.stage == "retire":
            for k, u in enumerate(p.arena_used):
                if u and p.tiles[k]:
                    acts.append(_tile_action(Retire, seat, cat.codes[k]))
        elif cl.stage == "steal":
            victim = state.players[cl.victim]
            acts.extend(_tile_action(Steal, seat, cat.codes[k]) for k in _stealable(cat, victim))
            acts.append(_simple(EndTurn, seat))
        else:
            acts += _first_players(seat, state.n)
    elif ph == "setup":
        taken = {g for q in state.players for g in q.gates}
        for a, b in cat.gate_pairs[state.n]:
            if a not in taken and b not in taken:
                acts.append(PlaceStartGates(player=seat, space=a))
    return Choices(player=seat, actions=tuple(acts), bids=tuple(bids), can_propose=propose)
