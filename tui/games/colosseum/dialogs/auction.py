"""G-3 Phase 2: the active player opens an auction on a full market (or passes); in a running
auction the bidder raises or passes.  ``+``/``-`` change the bid, digits type it, Enter bids."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding

from colosseum.core.games.colosseum import credit
from colosseum.core.games.colosseum.actions import Action, EndTurn, PassBid
from colosseum.core.games.colosseum.model import State
from colosseum.core.games.colosseum.queries import bid_limit
from colosseum.tui.plain import OptionList, Static
from colosseum.tui.session import GameSession

from ._text import coins, lot_effects, lot_text, market_name, name
from .base import ChoiceList, DecisionDialog, option


class Amount:
    """A number edited with +/- and typed digits, kept within [low, high] by +/-."""

    def __init__(self) -> None:
        self.value = 0
        self.low = 0
        self.high = 0
        self.typing = False

    def set_range(self, low: int, high: int, reset: bool = False) -> None:
        self.low, self.high = low, high
        if reset or not self.typing:
            self.value = min(max(self.value, low), high) if not reset else low
        self.typing = self.typing and not reset

    def step(self, d: int) -> None:
        self.typing = False
        self.value = min(max(self.value + d, self.low), max(self.low, self.high))

    def digit(self, ch: str) -> None:
        text = str(self.value) if self.typing else ""
        text = (text + ch).lstrip("0")[-3:]
        self.value = int(text or "0")
        self.typing = True

    def backspace(self) -> None:
        text = str(self.value)[:-1] if self.typing else ""
        self.value = int(text or "0")
        self.typing = True

    @property
    def in_range(self) -> bool:
        return self.low <= self.value <= self.high


class AuctionDialog(DecisionDialog):
    heading = "Auction"

    BINDINGS = [
        Binding("enter", "bid", "open", id="auction.open", key_display="enter", priority=True),
        Binding("enter", "raise_bid", "raise", id="auction.raise", key_display="enter", priority=True),
        Binding("plus,equals_sign,right", "change(1)", "bid", id="auction.more", key_display="+/-"),
        Binding("minus,left", "change(-1)", "lower bid", id="auction.less", show=False),
        Binding("p", "pass_bid", "pass", id="auction.pass"),
        Binding("p", "pass_turn", "pass turn", id="auction.pass_turn"),
    ]

    def __init__(self, session: GameSession[State, Action], seat: int) -> None:
        super().__init__(session, seat)
        self.amount = Amount()
        self._bid_ctx: tuple | None = None

    @classmethod
    def decision_key(cls, state, seat):
        h = state.hire
        if state.phase != "hire" or h is None:
            return None
        if h.active == seat:
            return ("hire", state.round, state.turn)
        if h.auction is not None and not h.auction.out[seat]:
            return ("bid", state.round, state.turn, h.auctions)
        return None

    def compose_body(self) -> ComposeResult:
        yield Static(classes="info", id="info")
        yield ChoiceList(id="markets", classes="gap")
        yield Static(classes="info gap", id="lot")
        yield Static(classes="info gap", id="bidders")
        yield Static(classes="gap", id="bid")

    # ------------------------------------------------------------------ facts

    @property
    def running(self):
        h = self.state.hire
        return h.auction if h is not None else None

    def _bid_option(self):
        """The engine's bid range for what is highlighted (opening) or the raise."""
        ch = self.choices()
        if self.running is not None:
            return next((b for b in ch.bids if b.market < 0), None)
        chosen = self.query_one("#markets", ChoiceList).chosen
        if chosen is None:
            return None
        return next((b for b in ch.bids if b.market == int(chosen)), None)

    # ------------------------------------------------------------------ view

    def refresh_view(self) -> None:
        st = self.state
        p = self.me
        auc = self.running
        markets = self.query_one("#markets", ChoiceList)
        markets.display = auc is None
        self.query_one("#bidders", Static).display = auc is not None
        cat = self.cat
        if cat.rules.credit:
            limit = f"Credit {credit(p)} = {coins(p.coins)} + {p.aquilas} {cat.term('aquila' if p.aquilas == 1 else 'aquilas')} x 6."
        else:  # O-18: only coins are bid
            limit = f"You may bid up to {coins(bid_limit(cat, p))} (coins only; {cat.term('aquilas')} do not count)."
        self.query_one("#info", Static).update(limit + ("" if p.pillar else " Your pillar is out: you cannot bid."))
        if auc is None:
            self.set_prompt(f"{p.name}: open an auction on a full market, or pass")
            ch = self.choices()
            open_markets = {b.market for b in ch.bids}
            opts = []
            for i, lot in enumerate(st.markets):
                label = f"{market_name(i)}  {lot_text(st, i):<12}"
                if i in open_markets:
                    opts.append(option(str(i), (f"{market_name(i)}  ", "bold"), f"{lot_text(st, i):<12}"))
                else:
                    if st.pillars[i] >= 0:
                        why = f"pillar of {name(st, st.pillars[i])}"
                    elif len(lot) < 3:
                        why = "not full" if lot else "empty"
                    else:
                        why = "you cannot open"
                    opts.append(option(str(i), label, disabled=True, why=why))
            markets.set_choices(opts)
            if not open_markets:
                self.set_prompt(f"{p.name}: no auction can be opened; pass")
        else:
            if self.my_turn():
                self.set_prompt(f"{p.name}: raise above {auc.high} or pass")
            else:
                self.set_prompt(self.waiting_text())
            self._show_bidders()
        self._show_lot()
        self._show_bid()

    def _market(self) -> int | None:
        auc = self.running
        if auc is not None:
            return auc.market
        chosen = self.query_one("#markets", ChoiceList).chosen
        return int(chosen) if chosen is not None else None

    def _show_lot(self) -> None:
        st = self.state
        m = self._market()
        if m is None:
            self.show("lot", "")
            return
        effects = lot_effects(st, self.seat, m)
        text = Text()
        text.append(f"Market {market_name(m)}: {lot_text(st, m)}\n", "bold")
        if effects:
            text.append("For you:")
            for line in effects:
                text.append(f"\n  {line}")
        else:
            text.append(f"For you: helps none of your {self.cat.term('spectacles')}")
        self.show("lot", text)

    def _show_bidders(self) -> None:
        st = self.state
        auc = self.running
        if auc is None:
            return
        text = Text()
        text.append(f"High bid {auc.high} by {name(st, auc.bidder)}", "bold")
        text.append("\n")
        parts = []
        for s in range(st.n):
            who = "you" if s == self.seat else name(st, s)
            if s == auc.bidder:
                status = "high"
            elif auc.out[s]:
                status = "out"
            elif s == auc.to_bid:
                status = "to bid"
            else:
                status = "in"
            parts.append(f"{who} {status}")
        text.append("Bidders: " + ", ".join(parts))
        self.query_one("#bidders", Static).update(text)

    def _show_bid(self) -> None:
        opt = self._bid_option()
        if opt is None:
            self._bid_ctx = None
            self.show("bid", "")
            return
        auc = self.running
        context = (auc.high, auc.bidder) if auc is not None else ("open", opt.low)
        reset = context != self._bid_ctx
        if reset:
            self.amount.value = opt.low
            self.amount.typing = False
        self._bid_ctx = context
        self.amount.set_range(opt.low, opt.high)
        verb = "Raise to" if auc is not None else "Opening bid"
        text = Text()
        text.append(f"{verb}: ")
        text.append(f" {self.amount.value} ", "reverse bold")
        text.append(f"  ({opt.low} to {opt.high})")
        if not self.amount.in_range:
            text.append(" out of range", "bold")
        text.append("\n+/- change, digits type, Enter bids", "italic")
        self.show("bid", text)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_lot()
        self._show_bid()
        self.refresh_bindings()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_bid()

    # ------------------------------------------------------------------ keys

    def on_key(self, event: events.Key) -> None:
        if self._bid_option() is None:
            return
        if event.character and event.character.isdigit():
            self.amount.digit(event.character)
        elif event.key == "backspace":
            self.amount.backspace()
        else:
            return
        event.stop()
        event.prevent_default()
        self._show_bid()

    def can_change(self) -> bool:
        return self._bid_option() is not None

    def action_change(self, d: int) -> None:
        self.amount.step(d)
        self._show_bid()

    def can_bid(self) -> bool:
        return self.running is None and self._bid_option() is not None

    def action_bid(self) -> None:
        opt = self._bid_option()
        if opt is None or self.running is not None:
            return
        self.submit(opt.action(self.seat, self.amount.value))

    def can_raise_bid(self) -> bool:
        return self.running is not None and self._bid_option() is not None

    def action_raise_bid(self) -> None:
        opt = self._bid_option()
        if opt is None or self.running is None:
            return
        self.submit(opt.action(self.seat, self.amount.value))

    def can_pass_bid(self) -> bool:
        return self.running is not None and any(isinstance(a, PassBid) for a in self.choices().actions)

    def action_pass_bid(self) -> None:
        self.submit(PassBid(player=self.seat))

    def can_pass_turn(self) -> bool:
        return self.running is None and any(isinstance(a, EndTurn) for a in self.choices().actions)

    def action_pass_turn(self) -> None:
        self.submit(EndTurn(player=self.seat))
