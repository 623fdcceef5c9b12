"""G-4 Phase 3: compose a deal with one or more players (performer tiles, coins and Aquilas each
way), propose it, see each party's answer as it comes, close or withdraw it; answer a deal;
end the trade turn."""

from __future__ import annotations

import weakref

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding

from colosseum.core.games.colosseum import RuleError, Transfer, may_propose
from colosseum.core.games.colosseum.actions import (
    AcceptDeal,
    Action,
    CancelDeal,
    CloseDeal,
    EndTurn,
    ProposeDeal,
    RejectDeal,
)
from colosseum.core.games.colosseum.engine import check_deal, deal_pending, tradable_items
from colosseum.core.games.colosseum.model import State
from colosseum.tui.plain import OptionList, Static
from colosseum.tui.session import GameSession
from colosseum.tui.text import fit, pad

from .base import ChoiceList, DecisionDialog, option

EXTRA_ITEMS = ("coins", "aquilas")

# The deal a player is composing outlives the dialog: Escape, a help screen or another
# player's dialog in hot seat must not throw it away; only sending or clearing it does.
# By session, then seat: (round, the offer).
_DRAFTS: weakref.WeakKeyDictionary[object, dict[int, tuple[int, dict[tuple[int, str, int], int]]]] = (
    weakref.WeakKeyDictionary()
)


def draft(session: GameSession[State, Action], seat: int, round_: int) -> dict[tuple[int, str, int], int]:
    """The offer ``seat`` is composing this round (a new empty one in a new round)."""
    by_seat = _DRAFTS.setdefault(session, {})
    kept = by_seat.get(seat)
    if kept is None or kept[0] != round_:
        kept = by_seat[seat] = (round_, {})
    return kept[1]


def counter_draft(offer: dict[tuple[int, str, int], int], transfers: tuple[Transfer, ...], seat: int) -> bool:
    """Fill ``offer`` (a draft, emptied first) with ``seat``'s side of a deal; whether any
    transfer was left out (one between two other players: the grid has no row for it)."""
    offer.clear()
    left_out = False
    for tr in transfers:
        if tr.receiver == seat:
            key = (tr.giver, tr.item, 0)
        elif tr.giver == seat:
            key = (tr.receiver, tr.item, 1)
        else:
            left_out = True
            continue
        offer[key] = offer.get(key, 0) + tr.count
    return left_out


class TradeGrid(ChoiceList):
    """Rows of tradable items; the dialog draws the cells."""

    # one line a row even when the dialog's scrollbar narrows it (a wrapped row's counts
    # read as another row)
    DEFAULT_CSS = """
    TradeGrid { max-height: 8; text-wrap: nowrap; text-overflow: ellipsis; }
    """


class TradeDialog(DecisionDialog):
    heading = "Trade"

    BINDINGS = [
        Binding("enter", "propose", "propose", id="trade.propose", key_display="enter", priority=True),
        Binding("enter", "accept", "accept", id="trade.accept", key_display="enter", priority=True),
        Binding("enter", "close_deal", "close deal", id="trade.close", key_display="enter", priority=True),
        Binding("y", "accept", "accept", show=False, id="trade.accept_y"),
        Binding("n", "reject", "reject", id="trade.reject"),
        # D-81: the firmer no, and the deal edited and sent back
        Binding("N", "not_this_round", "not this round", id="trade.not_round", key_display="N"),
        Binding("C", "counter", "counter", id="trade.counter", key_display="C"),
        Binding("w", "withdraw", "withdraw", id="trade.withdraw"),
        Binding("plus,equals_sign", "change(1)", "count", id="trade.more", key_display="+/-"),
        Binding("minus", "change(-1)", "less", id="trade.less", show=False),
        Binding("left,right", "column", "gives/gets", id="trade.column", key_display="<>", show=False),
        Binding("tab", "partner(1)", "next player", id="trade.next", key_display="tab"),
        Binding("shift+tab", "partner(-1)", "previous player", show=False, id="trade.prev"),
        Binding("c", "clear", "clear", show=False, id="trade.clear"),
        Binding("p", "end_turn", "end trade turn", id="trade.end"),
    ]

    def __init__(self, session: GameSession[State, Action], seat: int) -> None:
        super().__init__(session, seat)
        st = session.state
        self.partners = [s for s in range(st.n) if s != seat]
        if st.trade is not None and st.trade.active != seat and st.trade.active in self.partners:
            self.partner_i = self.partners.index(st.trade.active)
        else:
            self.partner_i = 0
        self.col = 0  # 0: the partner gives (to you), 1: the partner gets (from you)
        self.offer = draft(session, seat, st.round)
        self._opened = self._seen = len(session.events)
        self.status = ""
        self.last_answers: dict[int, str] = {}
        self._rows: list[str] = []
        self._countering = False  # rejected to send the deal back edited (D-81)

    @classmethod
    def decision_key(cls, state, seat):
        t = state.trade
        if state.phase != "trade" or t is None:
            return None
        if t.active == seat:
            return ("trade", state.round, state.turn)
        if t.deal is not None and t.deal.answers[seat] == "pending":
            return ("answer", state.round, state.turn, t.proposals)
        if (t.deal is None and may_propose(state, seat)) or (t.deal is not None and t.deal.proposer == seat):
            return ("propose", state.round, state.turn)
        return None

    def decision_open(self, state: State | None = None) -> bool:
        if super().decision_open(state):
            return True
        old = self.key
        if not self._countering or not isinstance(old, tuple):
            return False
        # a counter-offer: the answer is given, the same dialog goes on composing (D-81)
        self._countering = False
        new = self.decision_key(self.session.state if state is None else state, self.seat)
        if not isinstance(new, tuple) or new[0] not in ("trade", "propose") or new[1:3] != old[1:3]:
            return False
        self.key = new
        return True

    def compose_body(self) -> ComposeResult:
        yield Static(id="partners")
        yield Static(classes="gap", id="header")
        yield TradeGrid(id="grid")
        yield Static(classes="gap", id="deal")
        yield Static(classes="status", id="status")

    # ------------------------------------------------------------------ facts

    @property
    def deal(self):
        t = self.state.trade
        return t.deal if t is not None else None

    @property
    def active(self) -> int:
        t = self.state.trade
        return t.active if t is not None else -1

    @property
    def partner(self) -> int:
        return self.partners[self.partner_i % len(self.partners)]

    def items(self) -> list[str]:
        cat = self.cat
        allowed = tradable_items(cat.variant)  # the engine's rule (O-19: the original trades no medals)
        return [cat.codes[k] for k in cat.holdable] + [x for x in EXTRA_ITEMS if x in allowed]  # D-11

    def holding(self, seat: int, item: str) -> int:
        p = self.state.players[seat]
        if item == "coins":
            return p.coins
        if item == "aquilas":
            return p.aquilas
        return p.tiles[self.cat.index[item]]

    def item_name(self, item: str, count: int = 1) -> str:
        if item == "coins":
            return "coin" if count == 1 else "coins"
        if item == "aquilas":
            return self.cat.term("aquila" if count == 1 else "aquilas")
        return self.cat.name_of(self.cat.index[item], count)

    def item_short(self, item: str, count: int = 1) -> str:
        if item in EXTRA_ITEMS:
            return self.item_name(item, count)
        return self.cat.tiles[self.cat.index[item]].short

    def transfers(self) -> tuple[Transfer, ...]:
        out = []
        for q in self.partners:
            for item in self.items():
                give = self.offer.get((q, item, 0), 0)
                if give:
                    out.append(Transfer(q, self.seat, item, give))
                get = self.offer.get((q, item, 1), 0)
                if get:
                    out.append(Transfer(self.seat, q, item, get))
        return tuple(out)

    def composing(self) -> bool:
        return self.deal is None

    def may_propose_now(self) -> bool:
        if self.deal is not None:
            return False
        if self.my_turn() and self.active == self.seat:
            return self.choices().can_propose
        return self.active != self.seat and may_propose(self.state, self.seat)

    # ------------------------------------------------------------------ view

    def _read_events(self) -> None:
        events = self.session.events
        news = events[self._seen :]
        again = len(events) < self._seen or any(ev.kind == "undo" for ev in news)
        if again:
            # a take-back: what was read of the moves taken back (a partner's "rejected") goes
            # with them; what is left since the dialog opened is read again
            self.status, self.last_answers = "", {}
            news = [ev for ev in events[min(self._opened, len(events)) :] if ev.kind != "undo"]
        for ev in news:
            if ev.kind in ("deal", "trade"):
                self.status = ev.text
                if "rejects" in ev.text and ev.seat >= 0:
                    # the deal is off: the others' answers were to a deal that is gone
                    self.last_answers = {ev.seat: "rejected"}
                elif "withdraws" in ev.text:
                    self.last_answers.clear()
                if ev.kind == "trade":  # closed: start afresh
                    if not again:  # (the draft made since then stays)
                        self.offer.clear()
                    self.last_answers.clear()
        self._seen = len(events)

    def refresh_view(self) -> None:
        st = self.state
        t = st.trade
        assert t is not None  # refreshed only while its decision is open (decision_key)
        p = self.me
        self._read_events()
        deal = self.deal
        if deal is not None:
            self.last_answers = {s: a for s, a in enumerate(deal.answers) if a}
        # prompt
        if deal is None:
            if self.active == self.seat:
                self.set_prompt(f"{p.name}: propose a deal, or end the trade turn")
            else:
                self.set_prompt(f"{p.name}: propose a deal to {st.players[self.active].name}")
        elif deal.answers[self.seat] == "pending" and deal_pending(st) == self.seat:
            self.set_prompt(f"{p.name}: accept or reject {st.players[deal.proposer].name}'s deal")
        elif deal.answers[self.seat] == "pending":
            self.set_prompt(f"{p.name}: your answer is due after the others'")
        elif "pending" in deal.answers:
            self.set_prompt(self.waiting_text())
        elif self.active == self.seat:
            self.set_prompt(f"{p.name}: every party accepted: close the deal?")
        else:
            self.set_prompt(f"Waiting for {st.players[self.active].name} to close the deal...")
        limit = self.cat.common.max_deal_proposals
        # partners line: who the grid shows; the answers of the last deal beside their names
        line = Text("With")
        for s in self.partners:
            nm = st.players[s].name
            line.append(f" {nm} ", "reverse bold" if s == self.partner else "")
            ans = self.last_answers.get(s)
            if ans:
                line.append(f"({ans})")
        line.append(f"  deals {t.proposals}/{limit}", "italic")
        self.query_one("#partners", Static).display = deal is None
        self.query_one("#partners", Static).update(line)
        grid = self.query_one("#grid", TradeGrid)
        header = self.query_one("#header", Static)
        if deal is None:
            grid.display = True
            header.display = True
            self._fill_grid()
            self.query_one("#deal", Static).update(self._composed_text())
        else:
            grid.display = False
            header.display = False
            self.query_one("#deal", Static).update(self._deal_text(deal))
        self.show("status", self._status_text())

    def _fill_grid(self) -> None:
        st = self.state
        q = self.partner
        rows = [
            item
            for item in self.items()
            if self.holding(self.seat, item)
            or self.holding(q, item)
            or self.offer.get((q, item, 0))
            or self.offer.get((q, item, 1))
        ]
        qn = st.players[q].name
        w = self._label_width()
        head = Text()
        head.append(pad(fit(qn, w - 1), w), "bold underline")
        head.append(f"{'gives':>6}{'gets':>6}{'you':>4}", "bold")
        # the partner's holdings: at 80 columns a name of up to 4 cells ([/a], 小明, Kat) whole
        hold = self._partner_width()
        head.append(pad(fit(qn, hold - 1), hold, ">"), "bold")
        # which way each column goes, in words (the bare "gives/gets" read both ways)
        head.append("\n")
        head.append(pad(f"{fit(qn, w - 4)} gives you | gets from you", w + 22), "italic")
        self.query_one("#header", Static).update(head)
        grid = self.query_one("#grid", TradeGrid)
        if rows != self._rows or grid.option_count != len(rows):
            self._rows = rows
            grid.set_choices([option(item, self._row_text(item, False)) for item in rows])
        self._redraw_rows()

    def _label_width(self) -> int:
        """Cells of the item column (and of the partner's name above it): 10 of a name at 80
        columns (Charioteer, Scenery B~)."""
        return 16 if self.has_class("-wide") else 11

    def _partner_width(self) -> int:
        """Cells of the partner's holdings column, whose head is the partner's name."""
        return 8 if self.has_class("-wide") else 5

    def _row_text(self, item: str, cursor: bool) -> Text:
        q = self.partner
        w = self._label_width()
        label = self.item_name(item, 2).capitalize() if item in EXTRA_ITEMS else self.item_name(item)
        # one line per item whatever the box's width (a wrapped row reads as two items)
        text = Text(pad(fit(label, w - 1), w), no_wrap=True, overflow="ellipsis")
        for col in (0, 1):
            n = self.offer.get((q, item, col), 0)
            cell = f"[{n:>2}]" if cursor and col == self.col else f" {n:>2} " if n else "  . "
            text.append(f"{cell:>6}", "bold" if n else "")
        # 4 cells for yours, 5 for the partner's at 80 columns (a name of 4 above it): the row
        # fits beside the dialog's and the grid's scrollbars
        text.append(f"{self.holding(self.seat, item):>4}{self.holding(q, item):>{self._partner_width()}}")

        return text

    def _redraw_rows(self) -> None:
        grid = self.query_one("#grid", TradeGrid)
        hi = grid.highlighted
        for i, item in enumerate(self._rows):
            grid.replace_option_prompt_at_index(i, self._row_text(item, i == hi))

    def _composed_text(self) -> Text:
        st = self.state
        text = Text()
        trs = self.transfers()
        if not trs:
            text.append("+/- change the cell, left/right gives or gets, tab another player.", "italic")
            return text
        text.append(self._parties_text(trs))
        try:
            check_deal(st, trs, self.seat)
        except RuleError as err:
            text.append(f"\nNot valid: {err.detail}", "italic")
        return text

    def _parties_text(self, trs, answers=None) -> Text:
        """One line per party: '<name> (answer): gives ...; gets ...'."""
        st = self.state
        parties = []
        for tr in trs:
            for s in (tr.giver, tr.receiver):
                if s not in parties:
                    parties.append(s)
        if answers is None:  # composing: the partners only, from their side
            parties = [s for s in parties if s != self.seat]
        text = Text()
        for i, s in enumerate(parties):
            if i:
                text.append("\n")
            nm = "You" if s == self.seat else st.players[s].name
            text.append(nm, "bold")
            if answers is not None and answers[s]:
                text.append(f" ({answers[s]}):", "bold")
            gives = [f"{tr.count} {self.item_short(tr.item, tr.count)}" for tr in trs if tr.giver == s]
            gets = [f"{tr.count} {self.item_short(tr.item, tr.count)}" for tr in trs if tr.receiver == s]
            text.append(f"\n  gives {', '.join(gives) or 'nothing'}; gets {', '.join(gets) or 'nothing'}")
        return text

    def _deal_text(self, deal) -> Text:
        st = self.state
        text = Text()
        who = "you" if deal.proposer == self.seat else st.players[deal.proposer].name
        text.append(f"Deal proposed by {who}:\n", "bold")
        text.append(self._parties_text(deal.transfers, deal.answers))
        items = []
        for tr in deal.transfers:
            if tr.item not in items:
                items.append(tr.item)
        have = ", ".join(f"{self.holding(self.seat, i)} {self.item_short(i, 2)}" for i in items)
        text.append(f"\nYou have {have}.", "italic")
        return text

    def _status_text(self) -> str:
        return self.status

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self.composing():
            self._redraw_rows()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        pass

    # ------------------------------------------------------------------ composing

    def _item(self) -> str | None:
        return self.query_one("#grid", TradeGrid).chosen

    def can_change(self) -> bool:
        return self.composing() and self._item() is not None

    def action_change(self, d: int) -> None:
        item = self._item()
        if item is None:
            return
        key = (self.partner, item, self.col)
        giver = self.partner if self.col == 0 else self.seat
        held = self.holding(giver, item)
        want = self.offer.get(key, 0) + d
        n = max(0, min(want, held))
        if want > held:
            who = "You have" if giver == self.seat else f"{fit(self.state.players[giver].name, 16)} has"
            # said in the dialog's status line (a toast would cover the log), with a bell
            self.status = f"{who} only {held} {self.item_name(item, held)}."
            self.app.bell()
        if n:
            self.offer[key] = n
        else:
            self.offer.pop(key, None)
        self.refresh_view()
        self.refresh_bindings()

    def can_column(self) -> bool:
        return self.composing()

    def action_column(self) -> None:
        self.col = 1 - self.col
        self._redraw_rows()

    def can_partner(self) -> bool:
        return self.composing() and len(self.partners) > 1

    def action_partner(self, d: int) -> None:
        self.partner_i = (self.partner_i + d) % len(self.partners)
        self.refresh_view()

    def can_clear(self) -> bool:
        return self.composing() and bool(self.offer)

    def action_clear(self) -> None:
        self.offer.clear()
        self.refresh_view()
        self.refresh_bindings()

    def can_propose(self) -> bool:
        return self.may_propose_now() and bool(self.transfers())

    def action_propose(self) -> None:
        trs = self.transfers()
        if not trs:
            return
        self.last_answers.clear()
        self.status = ""
        self.submit(ProposeDeal(player=self.seat, transfers=trs))

    # ------------------------------------------------------------------ a deal on the table

    def _answer_due(self) -> bool:
        deal = self.deal
        return deal is not None and self.my_turn() and deal.answers[self.seat] == "pending"

    def can_accept(self) -> bool:
        return self._answer_due()

    def action_accept(self) -> None:
        if self._answer_due():
            self.submit(AcceptDeal(player=self.seat))

    def can_reject(self) -> bool:
        return self._answer_due()

    def action_reject(self) -> None:
        self.submit(RejectDeal(player=self.seat))

    def can_not_this_round(self) -> bool:
        return self._answer_due()

    def action_not_this_round(self) -> None:
        """D-69: no, and no more deals from this proposer to this player this round."""
        if self._answer_due():
            self.submit(RejectDeal(player=self.seat, whole_round=True))

    def can_counter(self) -> bool:
        t = self.state.trade
        return self._answer_due() and t is not None and t.proposals < self.cat.common.max_deal_proposals

    def action_counter(self) -> None:
        """Reject the deal and compose it again, pre-filled, to edit and send back (D-81)."""
        deal = self.deal
        if deal is None or not self.can_counter():
            return
        left_out = counter_draft(self.offer, deal.transfers, self.seat)
        self.partner_i = self.partners.index(deal.proposer)
        self.col = 0
        self._countering = True
        self.session.hold(self)  # the bots wait for it (released when the dialog closes)
        if not self.submit(RejectDeal(player=self.seat)):
            self._countering = False
            return
        name = fit(self.state.players[deal.proposer].name, 16)
        self.status = f"Rejected. Edit the deal and send it back to {name} (enter)."
        if left_out:
            self.status += " Transfers between others are left out."
        self.refresh_view()
        self.refresh_bindings()

    def can_close_deal(self) -> bool:
        return (
            self.deal is not None and self.my_turn() and any(isinstance(a, CloseDeal) for a in self.choices().actions)
        )

    def action_close_deal(self) -> None:
        self.submit(CloseDeal(player=self.seat))

    def can_withdraw(self) -> bool:
        deal = self.deal
        return deal is not None and self.seat in (self.active, deal.proposer) and not self._answer_due()

    def action_withdraw(self) -> None:
        self.submit(CancelDeal(player=self.seat))

    def can_end_turn(self) -> bool:
        return (
            self.active == self.seat
            and self.deal is None
            and any(isinstance(a, EndTurn) for a in self.choices().actions)
        )

    def action_end_turn(self) -> None:
        self.submit(EndTurn(player=self.seat))
