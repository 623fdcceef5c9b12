"""The base of the Municipium decision dialogs: a keyboard-only modal box over the right-hand
column (the board and the families stay visible).

A dialog serves one decision of one seat, named by ``decision_key``; the game screen calls
``sync`` after every change and the dialog dismisses itself when its decision is over.  A
dialog is a list of *entries* (arrows or Tab move, Enter chooses) with a preview of the
highlighted one; choosing either submits an action or opens a sub-list (a stage), and Escape
backs out one stage, then closes without changing the game.  The entries come from the engine's
``legal`` list; previews come from ``facts`` (the engine's answers).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets.option_list import Option

from colosseum.core.games.municipium import MuniAction, State, legal, to_act
from colosseum.tui.base import submit_or_notify
from colosseum.tui.dialogs.frame import DecisionScreen
from colosseum.tui.plain import OptionList, Static
from colosseum.tui.session import GameSession
from colosseum.tui.widgets.cutlines import CutLines
from colosseum.tui.widgets.keybar import KeyBar

from .facts import after, describe, gains_lines
from .text import fit, frame_prompt, seat_style

LEFT_WIDTH = 46  # the board column the dialog leaves visible


@dataclass
class Entry:
    """One line of a dialog's list: what it says and what choosing it means."""

    id: str
    label: Text
    payload: Any = None
    disabled: bool = False
    why: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def entry(eid: str, *parts: str | tuple[str, Style | str] | Text, payload: Any = None) -> Entry:
    text = Text()
    for part in parts:
        if isinstance(part, Text):
            text.append_text(part)
        elif isinstance(part, tuple):
            text.append(part[0], part[1])
        else:
            text.append(part)
    return Entry(eid, text, payload)


def decision_key(state: State, seat: int) -> Hashable:
    """Names one decision: a dialog lives while it stays the same (a rearrangement's
    relocations and an Invitation's placements keep it)."""
    top = type(state.stack[-1]).__name__ if state.stack else state.phase
    return (state.turn, state.phase, state.placed, len(state.stack), top, to_act(state), seat)


class ChoiceList(OptionList):
    DEFAULT_CSS = """
    ChoiceList { height: auto; max-height: 12; border: none; padding: 0; background: $surface;
                 scrollbar-size-vertical: 1; }
    ChoiceList:focus { border: none; background-tint: $foreground 0%; }
    """


class MuniDialog(DecisionScreen):
    DEFAULT_CSS = """
    MuniDialog { align: right top; background: $background 0%; }
    MuniDialog > #dialog {
        width: 34; height: auto; max-height: 100%; margin-top: 1;
        border: round $primary; border-title-color: $primary; border-title-style: bold;
        background: $surface; padding: 0 1; overflow-y: auto; scrollbar-size-vertical: 1;
    }
    MuniDialog #since { color: $text-muted; margin-bottom: 1; }
    MuniDialog #since.-cut { margin-bottom: 0; }
    MuniDialog #prompt { text-style: bold; }
    MuniDialog #preview { margin-top: 1; }
    MuniDialog .-empty { display: none; }
    """
    BINDINGS = [
        Binding("escape", "back", "back", id="mdialog.back", key_display="esc", priority=True),
        Binding("enter", "choose", "choose", id="mdialog.choose", priority=True),
        Binding("tab", "move(1)", "next", show=False, id="mdialog.next", priority=True),
        Binding("shift+tab", "move(-1)", "previous", show=False, id="mdialog.prev", priority=True),
        Binding("f1,question_mark", "help", "help", id="mdialog.help", key_display="f1"),
        Binding("r", "rules", "rules", id="mdialog.rules"),
        Binding("k", "legend", "legend", show=False, id="mdialog.legend"),
        Binding("l", "full_log", "log", show=False, id="mdialog.log"),
        # the app's `u` (a priority key) takes back; this binding shows the count
        Binding("u", "undo", "undo", show=False, id="mdialog.undo"),
    ]

    heading = "Decision"
    #: on_mount focuses the list without scrolling the box: Textual's focus on mount scrolls
    #: a box taller than the screen to centre the list, past "Since your last turn"
    AUTO_FOCUS = ""

    def __init__(self, session: GameSession[State, MuniAction], seat: int) -> None:
        super().__init__()
        self.session = session
        self.seat = seat
        self.key = decision_key(session.state, seat)
        self.stage: list[Any] = []  # choices made inside this dialog, deepest last
        self._picked: list[str] = []  # the entry chosen at each stage, for Escape
        self._entries: list[Entry] = []
        self._over = False
        self._seen = session.state.actions  # the state the stages were chosen in
        self.escaped = False  # closed by Escape: the decision waits for 'a'

    # ------------------------------------------------------------------ facts
    @property
    def state(self) -> State:
        st: State = self.session.state
        return st

    @property
    def dark(self) -> bool:
        try:
            return bool(self.app.current_theme.dark)
        except Exception:  # noqa: BLE001 - not mounted yet
            return True

    @property
    def theme_name(self) -> str:
        """The app's theme (the players' marks follow it: letters, or symbols)."""
        try:
            return str(self.app.theme)
        except Exception:  # noqa: BLE001 - not mounted yet
            return ""

    def legal(self) -> tuple[MuniAction, ...]:
        if to_act(self.state) != self.seat:
            return ()
        return legal(self.state)

    def serves_decision(self) -> bool:
        return not self._over and decision_key(self.state, self.seat) == self.key

    def decision_open(self) -> bool:
        """The decision this dialog serves still waits (also once the dialog is closed)."""
        return decision_key(self.state, self.seat) == self.key

    @property
    def over(self) -> bool:
        return self._over

    def hand_over(self) -> None:
        """Close for another seat at this keyboard whose decision comes first (hot seat)."""
        self.handed_over = True
        self.finish()

    # ------------------------------------------------------------------ what subclasses give
    def entries(self) -> list[Entry]:
        raise NotImplementedError

    def prompt_text(self) -> str | Text:
        text = frame_prompt(self.state)
        return text[:1].upper() + text[1:]

    def preview(self, chosen: Entry | None) -> Sequence[Text | str]:
        return ()

    def choose(self, chosen: Entry) -> MuniAction | None:
        """The action to submit, or None after opening a deeper stage."""
        action: MuniAction = chosen.payload
        return action

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as box:
            box.border_title = Text(self.heading)
            # what the others did (filled by refresh_view): one row a line on a short screen
            # (cut), wrapped on a tall one
            short = not self.tall
            yield CutLines(cut=short, id="since", classes="-cut -empty" if short else "-empty")
            yield Static(id="prompt")
            yield ChoiceList(id="choices")
            yield Static(id="preview")
        yield KeyBar()

    def on_mount(self) -> None:
        if self._over:  # closed (Escape, a hand-over) before Textual had composed it: its
            return  # widgets were never mounted, and it is leaving the stack
        self.session.add_listener(self._changed)
        self._fit_width()
        if not self.serves_decision():
            self.finish()
            return
        self.refresh_view()
        self.query_one(ChoiceList).focus(scroll_visible=False)  # (AUTO_FOCUS)

    def on_unmount(self) -> None:
        self.session.remove_listener(self._changed)

    def _changed(self, state: State, events: object) -> None:
        """The game moved on: redraw (or close) once the event loop gets to it."""
        self.call_later(self.sync)

    def on_resize(self) -> None:
        self._fit_width()

    def _fit_width(self) -> None:
        box = self.query_one("#dialog")
        box.styles.width = max(34, self.size.width - LEFT_WIDTH)
        if self.size.height:  # the whole right column, between the header and the key bar
            box.styles.height = max(8, self.size.height - 2)

    #: "Since your last turn" lines on a short screen and a tall one (``tall``): at 80x24
    #: two, with no blank line under them, leave a member's placement (its preview the longest)
    #: room for every line
    SINCE_LINES = (2, 6)

    @property
    def since_width(self) -> int:
        return self.text_width

    @property
    def text_width(self) -> int:
        """Cells of text a line of the box holds."""
        w = self.query_one("#dialog").styles.width
        return int(w.value) - 4 if w is not None else 30

    def refresh_view(self, keep: str | None = None) -> None:
        """Redraw the prompt, the list (the highlight stays on the same entry, or on ``keep``)
        and the preview."""
        prompt = self.prompt_text()
        text = prompt if isinstance(prompt, Text) else Text(prompt)
        if len(self.session.local_seats()) > 1:  # hot seat: say whose decision it is
            who = Text(fit(self.state.players[self.seat].name, 20) + ": ", seat_style(self.state, self.seat, self.dark))
            text = who.append_text(text)
        self.query_one("#prompt", Static).update(text)
        since = self.since_text()  # gone once this seat acts itself
        widget = self.query_one("#since", CutLines)
        widget.update(since)
        widget.set_class(not since.plain, "-empty")
        lst = self.query_one(ChoiceList)
        old = keep if keep is not None else lst.highlighted_option.id if lst.highlighted_option is not None else None
        self._entries = self.entries()
        options = []
        for e in self._entries:
            label = e.label.copy()
            if e.disabled and e.why:
                label.append(f" ({e.why})", Style(dim=True))
            options.append(Option(label, id=e.id, disabled=e.disabled))
        lst.set_options(options)
        ids = [e.id for e in self._entries]
        target = ids.index(old) if old in ids and not self._entries[ids.index(old)].disabled else None
        if target is None:
            target = next((i for i, e in enumerate(self._entries) if not e.disabled), None)
        lst.highlighted = target
        self._show_preview()

    def highlighted(self) -> Entry | None:
        lst = self.query_one(ChoiceList)
        i = lst.highlighted
        if i is None or not 0 <= i < len(self._entries) or self._entries[i].disabled:
            return None
        return self._entries[i]

    def _show_preview(self) -> None:
        lines = self.preview(self.highlighted())
        text = Text()
        for line in lines:
            if text:
                text.append("\n")
            text.append_text(line if isinstance(line, Text) else Text(line))
        widget = self.query_one("#preview", Static)
        widget.update(text)
        widget.set_class(not text.plain.strip(), "-empty")

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_preview()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_choose()

    # ------------------------------------------------------------------ life cycle
    def sync(self) -> None:
        """The game changed: dismiss if the decision is over, else start over from the top."""
        if self._over or not self.is_attached:
            return
        if not self.serves_decision():
            self.finish()
            return
        if self.state.actions != self._seen:  # a relocation made, a citizen placed: start over
            self._seen = self.state.actions
            self.stage = []
            self._picked = []
        self.refresh_view()

    def finish(self) -> None:
        if self._over:
            return
        self._over = True
        if self.is_attached and self.app.screen is self:
            self.dismiss()

    def on_screen_resume(self) -> None:
        if self._over:
            self._over = False
            self.finish()
            return
        self.sync()

    # ------------------------------------------------------------------ keys
    def action_help(self) -> None:
        from colosseum.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self))

    def action_rules(self) -> None:
        from colosseum.tui.client import load_client
        from colosseum.tui.screens.rules import RulesScreen

        self.app.push_screen(RulesScreen(load_client(self.session.spec), self.session.setup))

    def action_legend(self) -> None:
        from colosseum.tui.client import load_client
        from colosseum.tui.screens.legend import LegendScreen

        self.app.push_screen(LegendScreen(load_client(self.session.spec), self.session.setup))

    def action_undo(self) -> None:
        self.app.call_later(self.app.run_action, "undo")

    def action_move(self, step: int) -> None:
        lst = self.query_one(ChoiceList)
        if step > 0:
            lst.action_cursor_down()
        else:
            lst.action_cursor_up()

    def action_back(self) -> None:
        """Escape: one stage back, else close without changing the game."""
        if self.stage:
            self.stage.pop()
            self.refresh_view(keep=self._picked.pop() if self._picked else None)
            return
        self.escaped = True
        self.finish()

    def action_choose(self) -> None:
        chosen = self.highlighted()
        if chosen is None or self._over:
            return
        depth = len(self.stage)
        action = self.choose(chosen)
        if action is None:
            if len(self.stage) > depth:  # a deeper list: Escape comes back to this entry
                self._picked.append(chosen.id)
            self.refresh_view()
            return
        self.submit(action)

    def submit(self, action: MuniAction) -> bool:
        """Send ``action``; a refused one (a rule, a lost connection) is said and changes nothing."""
        return submit_or_notify(self, self.session, action)


class ListDialog(MuniDialog):
    """One list of the legal actions, labelled by ``label``; previews the highlighted one."""

    def label(self, a: MuniAction) -> Text:
        return Text(describe(self.state, a))

    def entries(self) -> list[Entry]:
        return [Entry(f"a{i}", self.label(a), a) for i, a in enumerate(self.legal())]

    def preview(self, chosen: Entry | None) -> Sequence[Text | str]:
        if chosen is None:
            return ()
        later = after(self.state, chosen.payload)
        return gains_lines(self.state, later, self.dark, theme=self.theme_name) if later is not None else ()
