"""G-6 Phase 5: retire a performer, steal from the most acclaimed (or not), choose the first
player."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding

from colosseum.core.games.colosseum.actions import Action, ChooseFirstPlayer, EndTurn, Retire, Steal
from colosseum.core.games.colosseum.model import State
from colosseum.tui.plain import OptionList, Static
from colosseum.tui.session import GameSession
from colosseum.tui.text import fit, pad

from ._text import coins, name, star_changes
from .base import ChoiceList, DecisionDialog, option


class _ListDialog(DecisionDialog):
    """A prompt, an explanation, a list; Enter takes the highlighted choice."""

    BINDINGS = [
        Binding("enter", "confirm", "confirm", id="dialog.confirm", key_display="enter", priority=True),
    ]

    def compose_body(self) -> ComposeResult:
        yield Static(classes="info", id="info")
        yield ChoiceList(id="choices", classes="gap")
        yield Static(classes="info gap", id="detail")

    def chosen(self) -> str | None:
        return self.query_one("#choices", ChoiceList).chosen

    def detail_for(self, chosen: str) -> str:
        return ""

    def _show_detail(self) -> None:
        chosen = self.chosen()
        self.show("detail", self.detail_for(chosen) if chosen is not None else "")

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_detail()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_confirm()

    def can_confirm(self) -> bool:
        return self.my_turn() and self.chosen() is not None

    def action_confirm(self) -> None:
        chosen = self.chosen()
        if chosen is not None:
            self.submit(self.action_for(chosen))

    def action_for(self, chosen: str):
        raise NotImplementedError

    def star_note(self, deltas) -> str:
        won, lost = star_changes(self.state, self.seat, deltas)
        notes = [f"you take the {self.cat.tiles[k].name} star" for k in won]
        notes += [f"you lose the {self.cat.tiles[k].name} star" for k in lost]
        if not notes:
            return ""
        text = "; ".join(notes) + "."
        return text[0].upper() + text[1:]


class RetireDialog(_ListDialog):
    heading = "Retire a performer"

    @classmethod
    def decision_key(cls, state, seat):
        cl = state.closing
        if state.phase == "closing" and cl is not None and cl.stage == "retire" and cl.player == seat:
            return ("retire", state.round, seat)
        return None

    def __init__(self, session: GameSession[State, Action], seat: int) -> None:
        super().__init__(session, seat)
        self.heading = f"Retire {self.cat.a_term('performer')}"  # the original's "Retire an asset tile"

    def refresh_view(self) -> None:
        p = self.me
        cat = self.cat
        spec = cat.spectacles[p.arena] if p.arena >= 0 else None
        self.set_prompt(f"{p.name}: retire {cat.a_term('performer')} used in your {cat.term('spectacle')}")
        used = ", ".join(f"{n} {cat.tiles[k].short}" for k, n in enumerate(p.arena_used) if n)
        self.query_one("#info", Static).update(
            (f"{spec.name} was performed with {used}. " if spec else "")
            + f"The tile you choose goes to the box; the {cat.term('spectacle')} goes face up."
        )
        opts = []
        for a in self.choices().actions:
            if isinstance(a, Retire):
                k = cat.index[a.tile]
                opts.append(option(a.tile, (pad(cat.tiles[k].name, 16), "bold"), f"you have {p.tiles[k]}"))
        self.query_one("#choices", ChoiceList).set_choices(opts)
        self._show_detail()

    def detail_for(self, chosen: str) -> str:
        k = self.cat.index[chosen]
        return self.star_note({self.seat: {k: -1}})

    def action_for(self, chosen: str):
        return Retire(player=self.seat, tile=chosen)


class StealDialog(_ListDialog):
    heading = "Steal a performer"

    BINDINGS = [
        Binding("enter", "confirm", "steal", id="dialog.confirm", key_display="enter", priority=True),
        Binding("n", "decline", "steal nothing", id="steal.decline"),
    ]

    def __init__(self, session: GameSession[State, Action], seat: int) -> None:
        super().__init__(session, seat)
        self.podium = self.cat.rules.steal_from == "gift"  # O-26: taken from the podium's winner
        if self.podium:
            self.heading = f"Take {self.cat.a_term('performer')}"  # the original's "Take an asset tile"

    def key_labels(self) -> dict[str, str]:
        return {"dialog.confirm": "take", "steal.decline": "take nothing"} if self.podium else {}

    @classmethod
    def decision_key(cls, state, seat):
        cl = state.closing
        if state.phase == "closing" and cl is not None and cl.stage == "steal" and cl.player == seat:
            return ("steal", state.round, seat)
        return None

    def refresh_view(self) -> None:
        st = self.state
        cl = st.closing
        assert cl is not None  # refreshed only while its decision is open (decision_key)
        p = self.me
        cat = self.cat
        victim = st.players[cl.victim]
        if self.podium:  # O-26: the lowest of the others takes a normal tile from the podium's winner
            self.set_prompt(f"{p.name}: take {cat.a_term('performer')} from {victim.name}")
            why = (
                f"{victim.name} won the podium ({victim.acclaim}); of the others your marker is the "
                f"lowest ({p.acclaim}). Take one normal tile from them, or nothing (n)."
            )
        else:
            self.set_prompt(f"{p.name}: steal a performer from {victim.name}")
            why = (
                f"You are the least acclaimed ({p.acclaim}); {victim.name} is the most acclaimed "
                f"({victim.acclaim}). Take one tile of any type, or nothing (n)."
            )
        self.query_one("#info", Static).update(why)
        # one line an option: the victim's name (in full just above) cut to the room there is
        whose = f"{fit(victim.name, 14 if self.app.size.width >= 100 else 5)} "
        opts = []
        for a in self.choices().actions:
            if isinstance(a, Steal):
                k = cat.index[a.tile]
                opts.append(
                    option(
                        a.tile,
                        (pad(cat.tiles[k].name, 16), "bold"),
                        f"{whose}has {victim.tiles[k]}, you {p.tiles[k]}",
                    )
                )
        self.query_one("#choices", ChoiceList).set_choices(opts)
        self._show_detail()

    def detail_for(self, chosen: str) -> str:
        k = self.cat.index[chosen]
        cl = self.state.closing
        assert cl is not None  # refreshed only while its decision is open (decision_key)
        return self.star_note({self.seat: {k: 1}, cl.victim: {k: -1}})

    def action_for(self, chosen: str):
        return Steal(player=self.seat, tile=chosen)

    def can_decline(self) -> bool:
        return any(isinstance(a, EndTurn) for a in self.choices().actions)

    def action_decline(self) -> None:
        self.submit(EndTurn(player=self.seat))


class FirstPlayerDialog(_ListDialog):
    heading = "First player"

    BINDINGS = [
        Binding("enter", "confirm", "choose", id="dialog.confirm", key_display="enter", priority=True),
    ]

    @classmethod
    def decision_key(cls, state, seat):
        cl = state.closing
        if state.phase == "closing" and cl is not None and cl.stage == "first" and cl.player == seat:
            return ("first", state.round, seat)
        return None

    def refresh_view(self) -> None:
        st = self.state
        p = self.me
        self.set_prompt(f"{p.name}: choose next round's first player")
        self.query_one("#info", Static).update(
            "As the least acclaimed you choose who starts round "
            f"{st.round + 1}; play then goes clockwise. You may choose yourself."
        )
        opts = []
        for a in self.choices().actions:
            if isinstance(a, ChooseFirstPlayer):
                q = st.players[a.first]
                # the name in its own column of 14 cells, cut with an ellipsis (the "(you)" kept)
                who = f"{fit(q.name, 7)} (you)" if a.first == self.seat else fit(q.name, 13)
                opts.append(
                    option(str(a.first), (pad(who, 14), "bold"), f"Acclaim {q.acclaim:>3}  {coins(q.coins):>4}")
                )
        self.query_one("#choices", ChoiceList).set_choices(opts)
        self._show_detail()

    def detail_for(self, chosen: str) -> str:
        st = self.state
        first = int(chosen)
        order = [name(st, (first + k) % st.n) for k in range(st.n)]
        return "Order: " + ", ".join(order) + "."

    def action_for(self, chosen: str):
        return ChooseFirstPlayer(player=self.seat, first=int(chosen))
