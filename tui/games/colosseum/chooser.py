"""Colosseum's words for the shell's plain chooser (the fallback for a decision no dialog of the
game serves): each action in words, a few amounts of each bid range, the spaces a move would
highlight on the board."""

from __future__ import annotations

from typing import Any

from colosseum.core.gamelog import describe_action
from colosseum.core.games.colosseum import actions as A
from colosseum.core.games.colosseum import catalog, legal

from .common import NOBLE_NAMES, a_word


def describe(state: Any, action: Any) -> str:
    cat = catalog(state)
    names = [p.name for p in state.players]
    extra = ""
    if getattr(action, "extra", ""):
        extra = f" (extra, paid with {action.extra})"
    if isinstance(action, A.PlaceStartGates):
        return f"Starting gates on {action.space} and {(action.space + 1) % cat.track_spaces}"
    if isinstance(action, A.BuildGate):
        return f"Build {cat.term('a gate bought')} on space {action.space} ({cat.common.gate_cost})" + extra
    if isinstance(action, A.HirePromoter):
        return f"Hire a {cat.term('promoter')} ({cat.promoter_price})" + extra
    if isinstance(action, A.BuySeasonTicket):
        return f"Buy a {cat.term('promoter')} ({cat.promoter_price})" + extra
    if isinstance(action, A.BuildLoge):
        return f"Build the {cat.term('temple')} ({cat.temple_price})" + extra
    if isinstance(action, A.PlanSpectacle):
        spec = next(s for s in cat.spectacles if s.key == action.spectacle)
        return f"Plan {cat.label(spec)} ({spec.cost}, {spec.size})" + extra
    if isinstance(action, A.BuildTemple):
        return f"Build the {cat.term('temple')} ({cat.temple_price})" + extra
    if isinstance(action, A.ExchangeAquilas):
        return f"Exchange {cat.count_term(action.count, 'aquilas')} for {action.count * cat.common.aquila_coins} coins"
    if isinstance(action, A.ConstructionForAquila):
        return f"Discard a construction tile for {cat.a_term('aquila')}"
    if isinstance(action, A.OpenAuction):
        return f"Open market {'ABCDE'[action.market]} at {action.bid}"
    if isinstance(action, A.Raise):
        return f"Raise to {action.bid}"
    if isinstance(action, A.PassBid):
        return "Pass on this lot"
    if isinstance(action, A.AcceptDeal):
        return "Accept the deal"
    if isinstance(action, A.RejectDeal):
        return "Reject the deal"
    if isinstance(action, A.CloseDeal):
        return "Close the deal"
    if isinstance(action, A.CancelDeal):
        return "Cancel the deal"
    if isinstance(action, A.Roll):
        return "Roll the dice"
    if isinstance(action, A.ChooseDice):
        return "Move two nobles, one by each die" if action.mode == "split" else "Move one noble by the sum"
    if isinstance(action, A.MoveNoble):
        die = "the sum" if action.die < 0 else f"die {action.die + 1}"
        return f"Move the {NOBLE_NAMES[action.noble]} {action.steps} ({die})"
    if isinstance(action, A.AquilaMove):
        way = "clockwise" if action.steps > 0 else "counter-clockwise"
        return f"Spend {cat.a_term('aquila')}: {NOBLE_NAMES[action.noble]} {abs(action.steps)} {way}"
    if isinstance(action, A.Perform):
        spec = next(s for s in cat.spectacles if s.key == action.spectacle)
        spend = f", spending {cat.count_term(action.aquilas, 'aquilas')}" if action.aquilas else ""
        return f"Perform {cat.label(spec)}{spend}"
    if isinstance(action, A.Retire):
        return f"Retire {a_word(cat.tiles[cat.index[action.tile]].name)}"
    if isinstance(action, A.Steal):
        return f"Steal {a_word(cat.tiles[cat.index[action.tile]].name)}"
    if isinstance(action, A.ChooseFirstPlayer):
        return f"{names[action.first]} is first player next round"
    if isinstance(action, A.EndTurn):
        return {"perform": "Skip / end the turn", "closing": "Steal nothing"}.get(state.phase, "End the turn / pass")
    # an action this list does not know yet: its words from the game log, not a class name
    return describe_action(action)


def choices(state: Any) -> list[Any]:
    """Concrete actions to offer: the legal ones, and a few amounts of each bid range."""
    ch = legal(state)
    out: list[A.Action] = []
    for b in ch.bids:
        amounts = sorted({a for a in (b.low, b.low + 1, b.low + 2, b.low + 5, b.low + 10) if a <= b.high})
        out.extend(b.action(ch.player, a) for a in amounts)
    out.extend(ch.actions)
    return out


def preview(state: Any, a: Any) -> frozenset[int]:
    """The track spaces a highlighted choice would put something on."""
    if isinstance(a, (A.MoveNoble, A.AquilaMove)):
        from colosseum.core.games.colosseum.engine import walk

        return frozenset({walk(state, a.noble, a.steps)})
    if isinstance(a, A.PlaceStartGates):
        return frozenset({a.space, (a.space + 1) % 36})
    if isinstance(a, A.BuildGate):
        return frozenset({a.space})
    return frozenset()
