"""G-5.2 / G-5.3: choose a spectacle to perform, with the engine's full breakdown, the total and
how far the marker moves; Aquilas to spend; or perform nothing.  Aquila noble moves (G-5.1) open
from here."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding

from colosseum.core.games.colosseum import breakdown, spectacle_by_key, why_not_performable
from colosseum.core.games.colosseum.actions import Action, AquilaMove, EndTurn, Perform
from colosseum.core.games.colosseum.model import State
from colosseum.tui.games.colosseum.common import a_word, score_word
from colosseum.tui.plain import OptionList, Static
from colosseum.tui.session import GameSession
from colosseum.tui.text import pad

from ._text import plural
from .base import ChoiceList, DecisionDialog, option
from .nobles import AquilaMoveDialog


class PerformDialog(DecisionDialog):
    heading = "Perform a spectacle"

    BINDINGS = [
        Binding("enter", "perform", "perform", id="perform.confirm", key_display="enter", priority=True),
        Binding("plus,equals_sign,right", "aquilas(1)", "Aquilas", id="perform.more", key_display="+/-"),
        Binding("minus,left", "aquilas(-1)", "fewer Aquilas", id="perform.less", show=False),
        Binding("m", "aquila_move", "move noble", id="perform.aquila_move"),
        Binding("p", "nothing", "pass", id="perform.nothing"),
    ]

    def __init__(self, session: GameSession[State, Action], seat: int) -> None:
        super().__init__(session, seat)
        self.spend = 0
        self.heading = f"Perform {self.cat.a_term('spectacle')}"  # the original's "Perform a program"

    def key_labels(self) -> dict[str, str]:
        aquilas = self.cat.term("aquilas")
        return {"perform.more": aquilas, "perform.less": f"fewer {aquilas}"}

    @classmethod
    def decision_key(cls, state, seat):
        pt = state.perform
        if state.phase == "perform" and pt is not None and pt.player == seat and pt.stage == "after":
            return ("perform-after", state.round, seat)
        return None

    def compose_body(self) -> ComposeResult:
        yield Static(classes="info", id="info")
        yield ChoiceList(id="choices", classes="gap")
        yield Static(classes="gap", id="breakdown")
        yield Static(classes="muted tall-only", id="hint")

    def _performable(self) -> set[str]:
        return {a.spectacle for a in self.choices().actions if isinstance(a, Perform)}

    def _spec(self):
        chosen = self.query_one("#choices", ChoiceList).chosen
        return spectacle_by_key(self.cat, chosen) if chosen is not None else None

    def refresh_view(self) -> None:
        st = self.state
        p = self.me
        cat = self.cat
        self.spend = min(max(self.spend, 0), p.aquilas)
        ok = self._performable()
        self.set_prompt(
            f"{p.name}: choose a {cat.term('spectacle')} to perform"
            if ok
            else f"{p.name}: nothing can be performed; pass"
        )
        term = cat.term  # the edition's words (the original's spectators, medals)
        score, aquila, aquilas = term("acclaim"), term("aquila"), term("aquilas")
        self.show("info", f"{score_word(st)}: {p.acclaim}; {plural(p.aquilas, aquila)}.")
        self.show(
            "hint",
            "p: perform nothing this round."
            + (
                f" m: move a noble with {a_word(aquila)}. +/-: {aquilas} to spend, +{cat.common.aquila_acclaim} {score} each."
                if p.aquilas
                else ""
            ),
        )
        opts = []
        for sid in (*p.face_down, *p.face_up):
            spec = cat.spectacles[sid]
            up = " (up)" if sid in p.face_up else ""
            label = f"{cat.label(spec)}{up}"
            if spec.key in ok:
                total = breakdown(st, self.seat, spec, self.spend).total
                w = 29 if self.has_class("-narrow") else 44
                opts.append(option(spec.key, (pad(label, w), "bold"), f"{total:>4}"))
            else:
                why = why_not_performable(st, self.seat, spec) or "not now"
                why = why.replace(f"{spec.name} needs", "needs").replace(f" {p.name} has", " you have")
                opts.append(option(spec.key, label, disabled=True, why=why))
        self.query_one("#choices", ChoiceList).set_choices(opts)
        self._show_breakdown()

    def _show_breakdown(self) -> None:
        spec = self._spec()
        if spec is None:
            self.show("breakdown", "")
            return
        st = self.state
        p = self.me
        b = breakdown(st, self.seat, spec, self.spend)
        text = Text()
        width = 33 if self.has_class("-narrow") else 48
        heading = f"{score_word(st)} ({self.cat.term('scoring')})"
        text.append(f"{heading:<{width}}\n", "bold underline")
        # On a short terminal the lines worth nothing are left out (the spectacle's own line
        # and the Aquilas line, which +/- changes, always stay), so Total shows without
        # scrolling even beside four spectacles.
        short = self.has_class("-short")
        last = len(b.lines) - 1
        hidden = 0
        for i, (label, value) in enumerate(b.lines):
            if short and not value and 0 < i < last:
                hidden += 1
                continue
            text.append(f"{pad(label, width - 6)}{value:>6}\n", "" if value else "dim")
        if hidden:
            text.append(f"({hidden} more worth 0)\n", "dim")
        text.append(f"{'Total':<{width - 6}}{b.total:>6}\n", "bold")
        if b.total > p.acclaim:
            text.append(f"Marker moves {p.acclaim} -> {b.total}; +{b.total} coins.")
        else:
            text.append(f"Marker stays at {p.acclaim}; +{b.total} coins.")
        self.show("breakdown", text)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_breakdown()
        self.refresh_bindings()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_perform()

    # ------------------------------------------------------------------ actions

    def can_perform(self) -> bool:
        return self.my_turn() and self._spec() is not None

    def action_perform(self) -> None:
        spec = self._spec()
        if spec is None:
            return
        self.submit(Perform(player=self.seat, spectacle=spec.key, aquilas=self.spend))

    def can_aquilas(self) -> bool:
        return self.me.aquilas > 0 and self._spec() is not None

    def action_aquilas(self, d: int) -> None:
        self.spend = min(max(self.spend + d, 0), self.me.aquilas)
        self.refresh_view()

    def can_aquila_move(self) -> bool:
        return any(isinstance(a, AquilaMove) for a in self.choices().actions)

    def action_aquila_move(self) -> None:
        self.app.push_screen(AquilaMoveDialog(self.session, self.seat))

    def can_nothing(self) -> bool:
        return any(isinstance(a, EndTurn) for a in self.choices().actions)

    def action_nothing(self) -> None:
        self.submit(EndTurn(player=self.seat))
