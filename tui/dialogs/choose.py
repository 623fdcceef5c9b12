"""A plain chooser over the engine's legal actions: the fallback when the decision dialogs
(``colosseum.tui.dialogs``) have no dialog for a decision.  Deals cannot
be composed here (the trade dialog does that); every other decision can be made."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets.option_list import Option

from colosseum.core.gamelog import describe_action
from colosseum.core.games.colosseum import actions as A
from colosseum.core.games.colosseum import catalog, legal
from colosseum.tui.base import submit_or_notify
from colosseum.tui.plain import Label, OptionList
from colosseum.tui.widgets.board import PreviewSpaces
from colosseum.tui.widgets.common import NOBLE_NAMES, prompt


def describe(state, action) -> str:
    cat = catalog(state)
    names = [p.name for p in state.players]
    extra = ""
    if getattr(action, "extra", ""):
        extra = f" (extra, paid with {action.extra})"
    if isinstance(action, A.PlaceStartGates):
        return f"Starting gates on {action.space} and {(action.space + 1) % cat.track_spaces}"
    if isinstance(action, A.BuildGate):
        return f"Build a gate on space {action.space} ({cat.common.gate_cost})" + extra
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
        return f"Exchange {action.count} Aquila{'s' if action.count > 1 else ''} for {action.count * cat.common.aquila_coins} coins"
    if isinstance(action, A.ConstructionForAquila):
        return "Discard a construction tile for an Aquila"
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
        return f"Spend an Aquila: {NOBLE_NAMES[action.noble]} {abs(action.steps)} {way}"
    if isinstance(action, A.Perform):
        spec = next(s for s in cat.spectacles if s.key == action.spectacle)
        spend = f", spending {action.aquilas} Aquila{'s' if action.aquilas > 1 else ''}" if action.aquilas else ""
        return f"Perform {cat.label(spec)}{spend}"
    if isinstance(action, A.Retire):
        return f"Retire a {cat.tiles[cat.index[action.tile]].name}"
    if isinstance(action, A.Steal):
        return f"Steal a {cat.tiles[cat.index[action.tile]].name}"
    if isinstance(action, A.ChooseFirstPlayer):
        return f"{names[action.first]} is first player next round"
    if isinstance(action, A.EndTurn):
        return {"perform": "Skip / end the turn", "closing": "Steal nothing"}.get(state.phase, "End the turn / pass")
    # an action this list does not know yet: its words from the game log, not a class name
    return describe_action(action)


def choices(state) -> list:
    """Concrete actions to offer: the legal ones, and a few amounts of each bid range."""
    ch = legal(state)
    out: list[A.Action] = []
    for b in ch.bids:
        amounts = sorted({a for a in (b.low, b.low + 1, b.low + 2, b.low + 5, b.low + 10) if a <= b.high})
        out.extend(b.action(ch.player, a) for a in amounts)
    out.extend(ch.actions)
    return out


class ActionChooser(ModalScreen):
    DEFAULT_CSS = """
    ActionChooser { align: right bottom; background: $background 0%; }
    ActionChooser > Vertical { width: 39; height: auto; max-height: 70%; border: heavy $accent; background: $surface; padding: 0 1; margin: 0 0 1 0; }
    ActionChooser OptionList { height: auto; max-height: 16; border: none; }
    ActionChooser Label { width: 1fr; }
    """
    BINDINGS = [Binding("escape", "close", "Close", id="choose.close")]

    def __init__(self, session, seat: int) -> None:
        super().__init__()
        self.session = session
        self.seat = seat
        self._actions: list = []

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(prompt(self.session.state)[1], id="choose-prompt")
            yield OptionList(id="choose-list")

    def on_mount(self) -> None:
        self._fill()
        self.query_one(OptionList).focus()

    def _fill(self) -> None:
        st = self.session.state
        self._actions = choices(st)
        ol = self.query_one(OptionList)
        ol.clear_options()
        ol.add_options([Option(describe(st, a)) for a in self._actions])
        if self._actions:
            ol.highlighted = 0
        self.query_one("#choose-prompt", Label).update(prompt(st)[1])

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        from colosseum.core.games.colosseum.engine import walk

        i = event.option_index
        if not 0 <= i < len(self._actions):
            return
        a = self._actions[i]
        preview: frozenset[int] = frozenset()
        if isinstance(a, (A.MoveNoble, A.AquilaMove)):
            preview = frozenset({walk(self.session.state, a.noble, a.steps)})
        elif isinstance(a, (A.PlaceStartGates,)):
            preview = frozenset({a.space, (a.space + 1) % 36})
        elif isinstance(a, A.BuildGate):
            preview = frozenset({a.space})
        self.app.post_message(PreviewSpaces(preview))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        i = event.option_index
        if not 0 <= i < len(self._actions):
            return
        if submit_or_notify(self, self.session, self._actions[i]):
            self.dismiss(True)

    def action_close(self) -> None:
        self.dismiss(None)
