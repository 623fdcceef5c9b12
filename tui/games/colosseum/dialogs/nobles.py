"""G-5.1: roll (or skip the performance), split or sum, move nobles within the Temple range,
with the landing space previewed on the board; then (from the perform dialog) Aquila moves."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding

from colosseum.core.games.colosseum.actions import Action, AquilaMove, ChooseDice, EndTurn, MoveNoble, Roll
from colosseum.core.games.colosseum.engine import catalog, noble_step_range, walk
from colosseum.core.games.colosseum.model import State
from colosseum.core.games.colosseum.offers import performable
from colosseum.tui.plain import OptionList, Static
from colosseum.tui.session import GameSession

from ._text import after, gate_nobles_acclaim, noble_title, space_text
from .base import ChoiceList, DecisionDialog, option


def _gates_note(state, seat, action) -> str:
    """' Nobles at your gates: 3 -> 8 Acclaim.' if the move changes it."""
    now = gate_nobles_acclaim(state, seat)
    nxt = after(state, action)
    then = gate_nobles_acclaim(nxt, seat) if nxt is not None else None
    if now is None or then is None or now == then:
        return ""
    cat = catalog(state)
    return f" Nobles at your {cat.term('gates')}: {now} -> {then} {cat.term('acclaim')}."


class NobleDialog(DecisionDialog):
    """The dice part of a Perform turn: stages roll, mode and move."""

    heading = "Move the nobles"

    BINDINGS = [
        Binding("enter", "confirm", "select", id="nobles.confirm", key_display="enter", priority=True),
        Binding("enter", "move", "move noble", id="nobles.move", key_display="enter", priority=True),
        Binding("p", "skip", "skip", id="nobles.skip"),
        Binding("plus,equals_sign,right", "change(1)", "distance", id="nobles.more", key_display="+/-"),
        Binding("minus,left", "change(-1)", "nearer", id="nobles.less", show=False),
        Binding("tab", "next_die", "other die", id="nobles.die", key_display="tab"),
    ]

    def __init__(self, session: GameSession[State, Action], seat: int) -> None:
        super().__init__(session, seat)
        self.die: int | None = None
        self.steps: int = 0

    @classmethod
    def decision_key(cls, state, seat):
        pt = state.perform
        if state.phase == "perform" and pt is not None and pt.player == seat and pt.stage in ("roll", "mode", "move"):
            return ("perform-move", state.round, seat)
        return None

    def compose_body(self) -> ComposeResult:
        yield Static(classes="info", id="info")
        yield Static(classes="gap", id="dice")
        yield ChoiceList(id="choices", classes="gap")
        yield Static(classes="info gap", id="detail")

    @property
    def stage(self) -> str:
        pt = self.state.perform
        return pt.stage if pt is not None else ""

    # ------------------------------------------------------------------ move facts (from legal)

    def _moves(self) -> list[MoveNoble]:
        return [a for a in self.choices().actions if isinstance(a, MoveNoble)]

    def _dice(self) -> list[int]:
        seen: list[int] = []
        for a in self._moves():
            if a.die not in seen:
                seen.append(a.die)
        return seen

    def _range(self) -> tuple[int, int] | None:
        if self.die is None:
            return None
        return noble_step_range(self.state, self.die)

    def _noble(self) -> int | None:
        chosen = self.query_one("#choices", ChoiceList).chosen
        if chosen is None or not chosen.startswith("noble:"):
            return None
        return int(chosen.split(":")[1])

    # ------------------------------------------------------------------ view

    def refresh_view(self) -> None:
        st = self.state
        pt = st.perform
        assert pt is not None  # refreshed only while its decision is open (decision_key)
        p = self.me
        cat = self.cat
        info = self.query_one("#info", Static)
        lst = self.query_one("#choices", ChoiceList)
        temple = cat.rules.temple_ranges and p.temple
        if self.stage == "roll":
            self.set_prompt(f"{p.name}: roll the dice, or skip the performance")
            can = [cat.spectacles[s].name for s in performable(st, self.seat)]
            info.update(
                (
                    f"{cat.term('temple')}: each die counts 1 to its face. "
                    if temple
                    else f"No {_temple_word(cat.term('temple'))}: dice count in full. "
                )
                + (
                    f"You can perform now: {', '.join(can)}."
                    if can
                    else f"You cannot perform any {cat.term('spectacle')} yet."
                )
            )
            self.show("dice", "")
            lst.set_choices(
                [
                    option("roll", "   ", "Roll the dice"),
                    option("skip", ("p  ", "bold"), "Skip: perform nothing this round"),
                ]
            )
        elif self.stage == "mode":
            d = pt.dice
            self.set_prompt(f"{p.name} rolled {' and '.join(map(str, d))}")
            info.update("Move two different nobles, one by each die, or one noble by the sum.")
            self.show("dice", "")
            lo_hi = [noble_step_range(st, i) for i in range(len(d))]
            split = " and another ".join(f"{lo}-{hi}" if lo != hi else f"{hi}" for lo, hi in lo_hi)
            lo, hi = noble_step_range(st, -1)
            lst.set_choices(
                [
                    option("split", ("Split", "bold"), f": one noble {split}"),
                    option("sum", ("Sum", "bold"), f":   one noble {f'{lo}-{hi}' if lo != hi else hi}"),
                ]
            )
        else:
            self._refresh_move()
        self._show_detail()

    def _refresh_move(self) -> None:
        st = self.state
        pt = st.perform
        assert pt is not None  # refreshed only while its decision is open (decision_key)
        p = self.me
        dice_avail = self._dice()
        if self.die not in dice_avail:
            self.die = dice_avail[0] if dice_avail else None
            rng = self._range()
            self.steps = rng[1] if rng else 0
        rng = self._range()
        if rng:
            self.steps = min(max(self.steps, rng[0]), rng[1])
        moves = self._moves()
        movable = {a.noble for a in moves if a.die == self.die}
        if self.die == -1:
            what = f"the sum {sum(pt.dice)}"
        elif self.die is not None:
            what = f"die {self.die + 1} ({pt.dice[self.die]})"
        else:
            what = "-"
        self.set_prompt(f"{p.name}: move a noble by {what}")
        # the counting rule of the variant in play (G-5.1 skips occupied spaces; C-4 and the
        # original count every space)
        if self.cat.rules.skip_occupied:
            how = "Nobles move clockwise; spaces with another noble are skipped and not counted."
        else:
            how = "Nobles move clockwise; every space counts, also one with another noble."
        self.query_one("#info", Static).update(how)
        text = Text()
        if pt.mode == "split":
            text.append("Dice: ")
            for i, face in enumerate(pt.dice):
                used = pt.used[i]
                mark = f"[{face}]" if i == self.die else f" {face} "
                text.append(mark, "reverse bold" if i == self.die else ("strike" if used else ""))
                text.append(" used  " if used else "  ")
        if rng:
            lo, hi = rng
            text.append("\nDistance: ")
            text.append(f" {self.steps} ", "reverse bold")
            text.append(f"  ({lo} to {hi}, +/-)" if lo != hi else "  (fixed)")
        self.show("dice", text)
        opts = []
        for noble in range(6):
            pos = st.nobles[noble]
            label = f"{noble_title(st, noble):<10} at {pos:>2}"
            if noble in movable:
                dest = walk(st, noble, self.steps)
                opts.append(option(f"noble:{noble}", label, f" -> {dest:>2}"))
            else:
                why = "moved this turn" if noble in pt.moved else "cannot move"
                opts.append(option(f"noble:{noble}", label, disabled=True, why=why))
        self.query_one("#choices", ChoiceList).set_choices(opts)

    def _show_detail(self) -> None:
        noble = self._noble()
        if self.stage != "move" or noble is None or self.die is None:
            self.show("detail", "")
            self.set_preview(())
            return
        st = self.state
        dest = walk(st, noble, self.steps)
        text = f"{noble_title(st, noble)} lands on {space_text(st, dest, self.seat)}"
        if dest in self.cat.aquila_spaces:
            text += f": you take {self.cat.a_term('aquila')}"
        text += ". Highlighted on the board."
        text += _gates_note(st, self.seat, MoveNoble(player=self.seat, noble=noble, die=self.die, steps=self.steps))
        self.show("detail", text)
        self.set_preview({dest})

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_detail()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if self.stage == "move":
            self.action_move()
        else:
            self.action_confirm()

    # ------------------------------------------------------------------ actions

    def can_confirm(self) -> bool:
        return self.my_turn() and self.stage in ("roll", "mode")

    def action_confirm(self) -> None:
        chosen = self.query_one("#choices", ChoiceList).chosen
        if chosen == "roll":
            self.action_roll()
        elif chosen == "skip":
            self.action_skip()
        elif chosen == "split":
            self.submit(ChooseDice(player=self.seat, mode="split"))
        elif chosen == "sum":
            self.submit(ChooseDice(player=self.seat, mode="sum"))

    def action_roll(self) -> None:
        self.submit(Roll(player=self.seat))

    def can_skip(self) -> bool:
        return self.my_turn() and self.stage == "roll"

    def action_skip(self) -> None:
        self.submit(EndTurn(player=self.seat))

    def can_move(self) -> bool:
        return self.my_turn() and self.stage == "move" and self._noble() is not None

    def action_move(self) -> None:
        noble = self._noble()
        if noble is None or self.die is None:
            return
        self.submit(MoveNoble(player=self.seat, noble=noble, die=self.die, steps=self.steps))

    def can_change(self) -> bool:
        rng = self._range() if self.stage == "move" else None
        return bool(rng and rng[0] != rng[1])

    def action_change(self, d: int) -> None:
        rng = self._range()
        if not rng:
            return
        self.steps = min(max(self.steps + d, rng[0]), rng[1])
        self.refresh_view()

    def can_next_die(self) -> bool:
        return self.stage == "move" and len(self._dice()) > 1

    def action_next_die(self) -> None:
        dice = self._dice()
        if len(dice) < 2:
            return
        i = dice.index(self.die) if self.die in dice else -1
        self.die = dice[(i + 1) % len(dice)]
        rng = self._range()
        self.steps = rng[1] if rng else 0
        self.refresh_view()
        self.refresh_bindings()


class AquilaMoveDialog(DecisionDialog):
    """G-5.1 after the dice: spend Aquilas to move any noble 1-3 spaces either way."""

    heading = "Aquila moves"

    BINDINGS = [
        Binding("enter", "move", "spend Aquila", id="aquila.move", key_display="enter", priority=True),
        Binding("plus,equals_sign,right", "change(1)", "steps", id="aquila.more", key_display="+/-"),
        Binding("minus,left", "change(-1)", "fewer steps", id="aquila.less", show=False),
        Binding("escape", "close", "done", id="dialog.close", key_display="esc", priority=True),
    ]

    def __init__(self, session: GameSession[State, Action], seat: int) -> None:
        super().__init__(session, seat)
        self.steps = 1
        self.heading = f"{self.cat.term_start('aquila')} moves"  # the original's "Medal moves"

    def key_labels(self) -> dict[str, str]:
        return {"aquila.move": f"spend {self.cat.term('aquila')}"}

    @classmethod
    def decision_key(cls, state, seat):
        pt = state.perform
        if (
            state.phase == "perform"
            and pt is not None
            and pt.player == seat
            and pt.stage == "after"
            and state.players[seat].aquilas > 0
        ):
            return ("perform-after", state.round, seat)
        return None

    def compose_body(self) -> ComposeResult:
        yield Static(classes="info", id="info")
        yield Static(classes="gap", id="steps")
        yield ChoiceList(id="choices", classes="gap")
        yield Static(classes="info gap", id="detail")

    def _moves(self) -> list[AquilaMove]:
        return [a for a in self.choices().actions if isinstance(a, AquilaMove)]

    def _reach(self) -> int:
        return self.cat.common.aquila_noble_steps

    def _noble(self) -> int | None:
        chosen = self.query_one("#choices", ChoiceList).chosen
        return int(chosen) if chosen is not None else None

    def refresh_view(self) -> None:
        st = self.state
        p = self.me
        reach = self._reach()
        aquila = self.cat.term("aquila")
        self.set_prompt(f"{p.name}: move a noble with {self.cat.a_term('aquila')}")
        self.query_one("#info", Static).update(
            f"You have {self.cat.count_term(p.aquilas, 'aquilas')}. Each moves one noble 1 to {reach} spaces "
            f"either way (no {aquila} is earned). Esc when done."
        )
        way = "clockwise" if self.steps > 0 else "counter-clockwise"
        text = Text("Steps: ")
        text.append(f" {self.steps:+d} ", "reverse bold")
        text.append(f" {way} (+/-)")
        self.query_one("#steps", Static).update(text)
        legal_nobles = {a.noble for a in self._moves() if a.steps == self.steps}
        opts = []
        for noble in range(6):
            label = f"{noble_title(st, noble):<10} at {st.nobles[noble]:>2}"
            if noble in legal_nobles:
                opts.append(option(str(noble), label, f" -> {walk(st, noble, self.steps):>2}"))
            else:
                opts.append(option(str(noble), label, disabled=True, why="cannot move"))
        self.query_one("#choices", ChoiceList).set_choices(opts)
        self._show_detail()

    def _show_detail(self) -> None:
        noble = self._noble()
        detail = self.query_one("#detail", Static)
        if noble is None:
            detail.update("")
            self.set_preview(())
            return
        st = self.state
        dest = walk(st, noble, self.steps)
        detail.update(
            f"{noble_title(st, noble)} lands on {space_text(st, dest, self.seat)}. Highlighted on the board."
            + _gates_note(st, self.seat, AquilaMove(player=self.seat, noble=noble, steps=self.steps))
        )
        self.set_preview({dest})

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_detail()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_move()

    def can_move(self) -> bool:
        return self.my_turn() and self._noble() is not None

    def action_move(self) -> None:
        noble = self._noble()
        if noble is None:
            return
        self.submit(AquilaMove(player=self.seat, noble=noble, steps=self.steps))

    def action_change(self, d: int) -> None:
        reach = self._reach()
        s = self.steps + d
        if s == 0:
            s += d
        self.steps = min(max(s, -reach), reach)
        self.refresh_view()


def _temple_word(temple: str) -> str:
    """The temple as a common noun ("Temple of Fortuna" -> "temple"; "Emperor's loge" stays)."""
    word = temple.split(" of ")[0]
    return word.lower() if word == "Temple" else word
