"""G-1.6: choose a free pair of starting gate spaces."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding

from colosseum.core.games.colosseum.actions import PlaceStartGates
from colosseum.core.games.colosseum.engine import gate_owner
from colosseum.tui.plain import OptionList, Static

from ._text import name, noble_title
from .base import ChoiceList, DecisionDialog, option


class SetupDialog(DecisionDialog):
    heading = "Starting gates"

    BINDINGS = [
        Binding("enter", "confirm", "place gates", id="dialog.confirm", key_display="enter", priority=True),
    ]

    @classmethod
    def decision_key(cls, state, seat):
        from colosseum.core.games.colosseum import to_act

        if state.phase == "setup" and to_act(state) == seat:
            return ("setup", seat, state.turn)
        return None

    def compose_body(self) -> ComposeResult:
        yield Static(classes="info", id="info")
        yield ChoiceList(id="choices", classes="gap")
        yield Static(classes="info gap", id="detail")

    def refresh_view(self) -> None:
        st = self.state
        self.set_prompt(f"{self.me.name}: choose a pair of starting gates")
        self.query_one("#info", Static).update(
            "Players choose in reverse turn order. Each pair gets one of your gates on both spaces."
        )
        free = {a.space for a in self.choices().actions if isinstance(a, PlaceStartGates)}
        opts = []
        for a, b in self.cat.gate_pairs[st.n]:
            owner = gate_owner(st, a)
            if a in free:
                opts.append(option(str(a), f"Spaces {a:>2} and {b:>2}"))
            else:
                why = f"taken by {name(st, owner)}" if owner >= 0 else "taken"
                opts.append(option(str(a), f"Spaces {a:>2} and {b:>2}", disabled=True, why=why))
        self.query_one("#choices", ChoiceList).set_choices(opts)
        self._show_detail()

    def _pair(self) -> tuple[int, int] | None:
        chosen = self.query_one("#choices", ChoiceList).chosen
        if chosen is None:
            return None
        a = int(chosen)
        return next(((x, y) for x, y in self.cat.gate_pairs[self.state.n] if x == a), None)

    def _show_detail(self) -> None:
        pair = self._pair()
        if pair is None:
            self.show("detail", "")
            self.set_preview(())
            return
        st = self.state
        n_sp = self.cat.track_spaces
        near = [
            f"{noble_title(st, i)} on {pos}"
            for i, pos in enumerate(st.nobles)
            if min((pos - pair[0]) % n_sp, (pair[1] - pos) % n_sp) <= 3
        ]
        text = f"Spaces {pair[0]} and {pair[1]} are highlighted on the board."
        if near:
            text += " Nobles near: " + ", ".join(near) + "."
        self.show("detail", text)
        self.set_preview(pair)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_detail()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_confirm()

    def can_confirm(self) -> bool:
        return self.my_turn() and self._pair() is not None

    def action_confirm(self) -> None:
        pair = self._pair()
        if pair is None:
            return
        self.submit(PlaceStartGates(player=self.seat, space=pair[0]))
