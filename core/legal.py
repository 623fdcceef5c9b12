"""The legal actions of the player to act.

Finite choices are listed as concrete actions.  Bids are given as ranges (``BidOption``) rather
than one action per amount, and a deal proposal (whose space is unbounded) as a flag; an
action built from them is legal when it is within the range and passes ``check_deal``.
"""

from __future__ import annotations

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
from .engine import (
    NOBODY,
    _stealable,
    can_open_auction,
    credit,
    deal_pending,
    gate_owner,
    match,
    noble_step_range,
    to_act,
)
from .catalog import load_catalog
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
    out = []
    for sid in (*p.face_down, *p.face_up):
        spec = cat.spectacles[sid]
        if len(p.gates) < spec.gates:
            continue
        if match(cat, p.tiles, spec).missing <= spec.max_missing:
            out.append(sid)
    return out


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
        acts.append(ConstructionForAquila(player=seat))
    if ph == "setup":
        for a, b in cat.gate_pairs[state.n]:
            if gate_owner(state, a) == NOBODY and gate_owner(state, b) == NOBODY:
                acts.append(PlaceStartGates(player=seat, space=a))
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
        for extra in pays:

            def fresh(kind: str) -> bool:
                return extra != "" or not rules.investment_kinds_distinct or kind not in turn.made

            n_sp = cat.track_spaces
            if fresh("gate") and len(p.gates) < c.gates and p.coins >= c.gate_cost:
                spaces = sorted(
                    {s for g in p.gates for s in ((g + 1) % n_sp, (g - 1) % n_sp) if gate_owner(state, s) == NOBODY}
                )
                acts.extend(BuildGate(player=seat, space=s, extra=extra) for s in spaces)
            if fresh("promoter") and state.promoters_left > 0 and p.coins >= c.promoter_cost:
                acts.append(HirePromoter(player=seat, extra=extra))
            if fresh("spectacle"):
                for sid in state.display:
                    spec = cat.spectacles[sid]
                    if spec.cost <= p.coins:
                        acts.append(PlanSpectacle(player=seat, spectacle=spec.key, extra=extra))
            if fresh("temple") and not p.temple and p.coins >= c.temple_cost:
                acts.append(BuildTemple(player=seat, extra=extra))
        acts.extend(ExchangeAquilas(player=seat, count=k) for k in range(1, p.aquilas + 1))
        acts.append(EndTurn(player=seat))
    elif ph == "hire":
        h = state.hire
        assert h is not None
        if h.auction is not None:
            bids.append(BidOption(market=-1, low=h.auction.high + 1, high=credit(p)))
            acts.append(PassBid(player=seat))
        else:
            if can_open_auction(state, seat):
                for i, m in enumerate(state.markets):
                    if len(m) == 3 and state.pillars[i] == NOBODY:
                        bids.append(BidOption(market=i, low=cat.common.min_opening_bid, high=credit(p)))
            acts.append(EndTurn(player=seat))
    elif ph == "trade":
        t = state.trade
        assert t is not None
        if t.deal is not None:
            if deal_pending(state) == seat:
                acts += [AcceptDeal(player=seat), RejectDeal(player=seat)]
            else:
                acts += [CloseDeal(player=seat), CancelDeal(player=seat)]
        else:
            propose = may_propose(state, seat)
            acts.append(EndTurn(player=seat))
    elif ph == "perform":
        pt = state.perform
        assert pt is not None
        if pt.stage == "roll":
            acts += [Roll(player=seat), EndTurn(player=seat)]
        elif pt.stage == "mode":
            acts += [ChooseDice(player=seat, mode="split"), ChooseDice(player=seat, mode="sum")]
        elif pt.stage == "move":
            dice = [-1] if pt.mode == "sum" else [i for i, u in enumerate(pt.used) if not u]
            for die in dice:
                lo, hi = noble_step_range(state, die)
                for noble in range(6):
                    if noble in pt.moved:
                        continue
                    acts.extend(MoveNoble(player=seat, noble=noble, die=die, steps=s) for s in range(lo, hi + 1))
        else:
            if p.aquilas:
                reach = cat.common.aquila_noble_steps
                for noble in range(6):
                    for s in range(1, reach + 1):
                        acts.append(AquilaMove(player=seat, noble=noble, steps=s))
                        acts.append(AquilaMove(player=seat, noble=noble, steps=-s))
            for sid in performable(state, seat):
                key = cat.spectacles[sid].key
                acts.extend(Perform(player=seat, spectacle=key, aquilas=k) for k in range(p.aquilas + 1))
            acts.append(EndTurn(player=seat))
    elif ph == "closing":
        cl = state.closing
        assert cl is not None
        if cl.stage == "retire":
            for k, u in enumerate(p.arena_used):
                if u and p.tiles[k]:
                    acts.append(Retire(player=seat, tile=cat.codes[k]))
        elif cl.stage == "steal":
            victim = state.players[cl.victim]
            acts.extend(Steal(player=seat, tile=cat.codes[k]) for k in _stealable(cat, victim))
            acts.append(EndTurn(player=seat))
        else:
            acts.extend(ChooseFirstPlayer(player=seat, first=i) for i in range(state.n))
    return Choices(player=seat, actions=tuple(acts), bids=tuple(bids), can_propose=propose)
