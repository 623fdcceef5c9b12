"""The rules engine: ``new_game(setup)``, ``to_act(state)`` and ``apply(state, action)``.

``apply`` is a pure reducer: it returns a new state and the events the action caused, or raises
:class:`RuleError` naming the rule broken.  States are immutable, so a rejected action leaves
the state exactly as it was.  Rule ids refer to docs/rules.md (G-*, C-*, A07-*).

This module is the dispatcher: action type -> the handler of the phase that owns it
(``core/phases/*``), phase -> who is to act, and ``EndTurn`` -> the phase's meaning of it.  The
one action that belongs to no phase (C-5, a construction tile for an Aquila, any time) is here.
The phases' handlers work on the context of :mod:`colosseum.core.games.colosseum.context`; the pure rules they
share with the bots and the client are in :mod:`colosseum.core.games.colosseum.queries`.  The names other
packages have always imported from here are re-exported.
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from colosseum.core.errors import RuleError
from colosseum.core.events import Event
from colosseum.core.games.colosseum.actions import FIELDS_OK, Action, ConstructionForAquila, EndTurn, field_error
from colosseum.core.games.colosseum.choices import Handler
from colosseum.core.games.colosseum.components import load_catalog
from colosseum.core.games.colosseum.context import Ctx
from colosseum.core.games.colosseum.model import NOBODY, State
from colosseum.core.games.colosseum.phases import closing, hire, invest, perform, setup, trade
from colosseum.core.games.colosseum.phases.hire import MARKET_NAMES, can_open_auction
from colosseum.core.games.colosseum.phases.perform import NOBLE_NAMES, walk
from colosseum.core.games.colosseum.phases.setup import new_game, setup_order_seat, start_game
from colosseum.core.games.colosseum.phases.trade import (
    MAX_TRANSFERS,
    TRADABLE_EXTRA,
    check_deal,
    deal_pending,
    describe_deal,
    tradable_items,
)
from colosseum.core.games.colosseum.queries import (
    ANY_SEAT_ACTIONS,
    NO_STAR,
    Breakdown,
    Match,
    aquilas_gained,
    breakdown,
    catalog,
    credit,
    gate_owner,
    least_acclaimed,
    match,
    missing,
    most_acclaimed,
    noble_step_range,
    rank,
    spectacle_by_key,
    stack_key,
    star_count,
    turn_order,
    why_not_performable,
)

__all__ = [
    "MARKET_NAMES",
    "MAX_TRANSFERS",
    "NOBLE_NAMES",
    "NOBODY",
    "NO_STAR",
    "TRADABLE_EXTRA",
    "Breakdown",
    "Match",
    "apply",
    "apply_fast",
    "apply_trusted",
    "breakdown",
    "can_open_auction",
    "catalog",
    "check_deal",
    "credit",
    "deal_pending",
    "describe_deal",
    "gate_owner",
    "least_acclaimed",
    "match",
    "missing",
    "most_acclaimed",
    "new_game",
    "noble_step_range",
    "rank",
    "setup_order_seat",
    "spectacle_by_key",
    "start_game",
    "stack_key",
    "star_count",
    "to_act",
    "turn_order",
    "walk",
    "why_not_performable",
    "tradable_items",
]

_PHASES = {"setup": setup, "invest": invest, "hire": hire, "trade": trade, "perform": perform, "closing": closing}

_TO_ACT: dict[str, Callable[[State], int]] = {name: module.to_act for name, module in _PHASES.items()}
_END_TURN: dict[str, Handler] = {name: module.end_turn for name, module in _PHASES.items()}


#: The last state asked about and its answer: a loop asks ``to_act``, then ``legal`` asks again
#: for the same state.  One tuple, replaced whole, so that threads never see a torn pair; it
#: holds its state, which therefore cannot be freed and its identity reused.
_last_to_act: tuple[State | None, int] = (None, NOBODY)


def to_act(state: State) -> int:
    """The seat whose decision the game waits for, or -1 when the game is over."""
    global _last_to_act
    last = _last_to_act
    if last[0] is state:
        return last[1]
    who = _TO_ACT.get(state.phase)
    seat = NOBODY if who is None else who(state)
    _last_to_act = (state, seat)
    return seat


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Apply ``action``; return the new state and its events.  Raises RuleError if illegal."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise RuleError("G-0", f"unknown action {type(action).__name__}")
    if state.phase == "over":
        raise RuleError("G-9", "the game is over")
    # built in code with a field of the wrong type: refused as decoding would refuse it (D-17)
    if not FIELDS_OK[type(action)](action):
        wrong = field_error(action) or ("G-0", "a field of the wrong type")
        raise RuleError(wrong[0], f"malformed {type(action).__name__}: {wrong[1]}")
    seat = action.player
    if not 0 <= seat < len(state.players):
        raise RuleError("G-0", f"there is no seat {seat!r}")
    if type(action) not in ANY_SEAT_ACTIONS:
        actor = to_act(state)
        if seat != actor:
            raise RuleError("G-0", f"it is {state.players[actor].name}'s turn, not {state.players[seat].name}'s")
    ctx = Ctx(state, load_catalog(state.setup.variant))
    try:
        handler(ctx, action)
    except TypeError as exc:  # a field of the wrong type (actions built in code, not decoded)
        raise RuleError("G-0", f"malformed {type(action).__name__}: {exc}") from None
    ctx.st = replace(ctx.st, actions=state.actions + 1)
    return ctx.st, ctx.events


def apply_trusted(state: State, action: Action) -> tuple[State, list[Event]]:
    """``apply`` for an action taken straight from ``legal(state)`` by a bot's own playouts:
    the checks of the seat and of the game being over are skipped (the phase's handler still
    applies its rules).  Never for actions from a client, a log or the network: use ``apply``."""
    ctx = Ctx(state, load_catalog(state.setup.variant))
    _HANDLERS[type(action)](ctx, action)
    ctx.st = replace(ctx.st, actions=state.actions + 1)
    return ctx.st, ctx.events


def apply_fast(state: State, action: Action) -> tuple[State, list[Event]]:
    """``apply_trusted`` without the events (the list is always empty): the very same states,
    for playouts, which throw the events away; composing the log's sentences was a good part
    of an action's cost.  The same rule: only for actions straight from ``legal(state)``."""
    ctx = Ctx(state, load_catalog(state.setup.variant), True)
    kind = type(action)
    if kind is EndTurn:  # a third of all actions: straight to the phase's own
        _END_TURN[state.phase](ctx, action)
    else:
        _HANDLERS[kind](ctx, action)
    return replace(ctx.st, actions=state.actions + 1), ctx.events


def _end_turn(ctx: Ctx, a: EndTurn) -> None:
    """EndTurn means something different in each phase: the phase's own ``end_turn`` decides."""
    _END_TURN[ctx.st.phase](ctx, a)


def _construction_for_aquila(ctx: Ctx, a: ConstructionForAquila) -> None:
    if not ctx.cat.rules.construction_for_aquila:
        raise RuleError("C-5", "construction tiles belong to the classic game")
    p = ctx.player(a.player)
    con = ctx.cat.construction
    if p.tiles[con] < 1:
        raise RuleError("C-5", f"{p.name} has no construction tile")
    if not aquilas_gained(ctx.cat, ctx.st, 1):
        raise RuleError("O-2", "no medal is left in the supply")
    tiles = list(p.tiles)
    tiles[con] -= 1
    box = list(ctx.st.box)
    box[con] += 1
    ctx.set_player(a.player, tiles=tuple(tiles), aquilas=p.aquilas + 1)
    ctx.st = replace(ctx.st, box=tuple(box))
    aq = ctx.cat.term("aquila")
    if not ctx.quiet:
        ctx.log(
            "aquila", f"{p.name} discards a construction tile for {'an' if aq[0] in 'AEIOU' else 'a'} {aq}.", a.player
        )


_HANDLERS: dict[type, Handler] = {
    **setup.HANDLERS,
    **invest.HANDLERS,
    **hire.HANDLERS,
    **trade.HANDLERS,
    **perform.HANDLERS,
    **closing.HANDLERS,
    ConstructionForAquila: _construction_for_aquila,
    EndTurn: _end_turn,
}
