"""The Municipium game screen: header, board, families, log and key bar.

Flow, as in Colosseum's game screen: bots act on their own in a worker
(``session.run_bots``); when a local human must act the matching dialog opens
(``dialogs.dialog_for``); Escape closes it and ``a`` or Enter opens it again.  Hot seat: the
dialog belongs to whichever local seat must act.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.worker import Worker

from colosseum.core.errors import RuleError
from colosseum.core.games.municipium import Event, State, to_act
from colosseum.tui.plain import Static
from colosseum.tui.widgets.keybar import KeyBar

from .dialog_base import MuniDialog
from .dialogs import dialog_for
from .panels import BoardPanel, LogPanel, MuniHeader, PlayersPanel
from .text import ORDINALS, letters, pad, seat_style


class MuniGameScreen(Screen[None]):
    """One game.  Self-contained (its layout is here, F1 is its own), so any app can push it."""

    DEFAULT_CSS = """
    MuniGameScreen { layout: vertical; }
    MuniGameScreen #main { height: 1fr; }
    MuniGameScreen #left { width: 46; height: 1fr; }
    MuniGameScreen #log { width: 1fr; height: 1fr; }
    """
    BINDINGS = [
        Binding("f1,question_mark", "muni_help", "Help", id="muni.help", key_display="f1"),
        Binding("a", "act", "Act", id="muni.act"),
        Binding("enter", "act", "Act", show=False, id="muni.act-enter"),
        Binding("l", "focus_log", "Log", id="muni.log"),
        Binding("r", "rules", "Rules", id="muni.rules"),
        Binding("e", "end_screen", "Result", id="muni.result"),
    ]

    def __init__(self, session: Any, *, bot_delay: float = 0.6, exit_at_end: bool = False, auto_dialogs: bool = True):
        super().__init__()
        self.session = session
        self.bot_delay = bot_delay
        self.exit_at_end = exit_at_end
        self.auto_dialogs = auto_dialogs
        self._dialog: MuniDialog | None = None
        self._suppressed_at: int | None = None
        self._sync_pending = False
        self._end_shown = False
        self._bots_worker: Worker[None] | None = None

    def compose(self) -> ComposeResult:
        yield MuniHeader(id="header")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield BoardPanel(id="board")
                yield PlayersPanel(id="players")
            yield LogPanel(id="log")
        yield KeyBar()

    def on_mount(self) -> None:
        self.session.add_listener(self._on_game_event)
        self.sync()
        self.call_after_refresh(self.advance)

    def on_unmount(self) -> None:
        remove = getattr(self.session, "remove_listener", None)
        if callable(remove):
            remove(self._on_game_event)

    def on_screen_resume(self) -> None:
        self._schedule()

    @property
    def state(self) -> State:
        st: State = self.session.state
        return st

    # ------------------------------------------------------------------ state -> panels
    def sync(self) -> None:
        self._sync_pending = False
        st = self.state
        self.query_one(MuniHeader).show(st)
        self.query_one(BoardPanel).show(st)
        self.query_one(PlayersPanel).show(st)
        log = self.query_one(LogPanel)
        log.state = st
        log.show_events(self.session.events)
        if self._dialog is not None:
            self._dialog.sync()
        self.refresh_bindings()

    def _on_game_event(self, state: State, events: list[Event]) -> None:
        self._schedule()

    def _schedule(self) -> None:
        if not self._sync_pending:
            self._sync_pending = True
            self.call_later(self._sync_and_advance)

    def _sync_and_advance(self) -> None:
        if not self.is_attached:
            return
        try:
            self.sync()
            self.advance()
        except Exception as err:  # noqa: BLE001 - a drawing fault must not end the game
            self.notify(f"{type(err).__name__}: {err}", severity="error", title="Display", markup=False)

    # ------------------------------------------------------------------ flow
    def advance(self) -> None:
        """Start the bots, open the dialog a local human needs, or finish the game."""
        if not self.is_attached:
            return
        st = self.state
        if st.phase == "over":
            self._game_over()
            return
        if self.session.bot_to_act():
            worker = self._bots_worker
            if worker is None or worker.is_finished:
                self._bots_worker = self.run_bots()
            return
        seat = to_act(st)
        if seat in self.session.local_seats() and self._suppressed_at != st.actions and self.auto_dialogs:
            self.open_dialog()

    @work(exclusive=True, group="muni-bots")
    async def run_bots(self) -> None:
        try:
            await self.session.run_bots(self.bot_delay)
        except RuleError as err:
            self.notify(str(err), severity="error", title="Bot", markup=False)
        except Exception as err:  # noqa: BLE001 - a bot's fault is shown, never a traceback
            self.notify(f"{type(err).__name__}: {err}", severity="error", title="Bot", markup=False)
            return
        self._schedule()

    def open_dialog(self) -> None:
        if self._dialog is not None or self.app.screen is not self:
            return
        seat = to_act(self.state)
        if seat < 0 or seat not in self.session.local_seats():
            return
        dialog = dialog_for(self.session, seat)
        if dialog is None:
            return
        self._dialog = dialog
        self.app.push_screen(dialog, callback=self._dialog_closed)
        self.refresh_bindings()

    def _dialog_closed(self, result: None = None) -> None:
        dialog = self._dialog
        self._dialog = None
        if dialog is not None and dialog.escaped:
            self._suppressed_at = self.state.actions  # Escape: wait for 'a'
        self._schedule()

    def _game_over(self) -> None:
        if self._end_shown:
            return
        self._end_shown = True
        if self.exit_at_end:
            self.app.exit(return_code=0)
            return
        self.action_end_screen()

    # ------------------------------------------------------------------ keys
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "act":
            return to_act(self.state) in self.session.local_seats() and self._dialog is None
        if action == "end_screen":
            return self.state.phase == "over"
        return True

    def action_act(self) -> None:
        self._suppressed_at = None
        self.open_dialog()

    def action_focus_log(self) -> None:
        self.query_one(LogPanel).focus()

    def action_muni_help(self) -> None:
        from .help import MuniHelpScreen

        self.app.push_screen(MuniHelpScreen(self))

    def action_rules(self) -> None:
        from .help import MuniRulesScreen

        self.app.push_screen(MuniRulesScreen())

    def action_end_screen(self) -> None:
        if self.state.phase == "over":
            self.app.push_screen(MuniEndScreen(self.state))


# ====================================================================== the end


def result_text(state: State, dark: bool = True) -> Text:
    t = Text()
    res = state.result
    if res is None:
        return t
    winner = state.players[res.winner].name
    t.append(f"{winner} wins.\n\n", Style(bold=True))
    t.append(" #  Player              Dec  Held  Temple\n", Style(dim=True))
    let = letters(state)
    for s in res.standings:
        p = state.players[s.seat]
        t.append(f" {s.rank}  ")
        t.append(f"{let[s.seat]} {pad(p.name, 16)}", seat_style(state, s.seat, dark))
        t.append(f"  {s.decurions:>3}  {s.held:>4}  {ORDINALS[s.temple - 1]}\n")
    t.append("\n")
    by = res.standings[0].decided_by
    if len(res.standings) > 1:
        second = state.players[res.standings[1].seat].name
        why = {
            "decurions": "on decurions",
            "held": "on decurions tied, by favours and citizens held",
            "temple": "tied on decurions and holdings, by the Temple order",
        }.get(by, "")
        t.append(f"{winner} is ahead of {second} {why}.\n")
    return t


class MuniEndScreen(Screen[None]):
    DEFAULT_CSS = """
    MuniEndScreen { align: center middle; }
    MuniEndScreen > VerticalScroll { width: 60; max-width: 100%; height: auto; max-height: 100%;
        border: round $primary; border-title-color: $primary; padding: 0 1; }
    """
    BINDINGS = [
        Binding("escape", "back", "Board", id="mend.back"),
        Binding("q", "app.quit", "Quit", id="mend.quit"),
    ]

    def __init__(self, state: State) -> None:
        super().__init__()
        self.state = state

    def compose(self) -> ComposeResult:
        with VerticalScroll() as box:
            box.border_title = "Municipium: the result"
            dark = True
            try:
                dark = bool(self.app.current_theme.dark)
            except Exception:  # noqa: BLE001 - not mounted: the dark palette
                pass
            yield Static(result_text(self.state, dark))
        yield KeyBar()

    def action_back(self) -> None:
        self.app.pop_screen()
