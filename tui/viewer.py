"""The game-log viewer, one for every game: review a game move by move.

``ViewerScreen(setup, actions, start_index=None)`` shows the position after any number of
actions with the game's own panels (its client part's body, the header line) and a history of
every action with the current one highlighted.  It opens from ``colosseum view FILE``
(:func:`view_log`) and from inside a running game (``v``: it copies the action list, so the
game goes on undisturbed, and Escape closes it).

Keys, the same for every game: Left/Right one action, Up/Down one player turn, PgUp/PgDn one
phase, [ and ] one round (each game says what its turns, phases and rounds are:
``Rules.step_key``), Home/End the start and the end, 1-5 show that seat's board (0: follow the
player who acted), Escape or q closes.  ``f`` plays a new game from the position shown (posts
``PlayFrom``: the app asks who plays each seat), ``w`` shows or hides the actions taken back,
``o`` opens the game a fork was made from, at the fork point.

Positions come from :class:`colosseum.core.timeline.Timeline`, which replays each action once
and keeps every state (they share structure), so any jump is a list lookup plus a redraw.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen

from colosseum.core.gamelog import UNDO_VERSION, GameLogError, HintLine, make_header
from colosseum.core.logread import read_log
from colosseum.core.registry import game_of
from colosseum.core.timeline import GameLog, Timeline
from colosseum.themes import THEME_NAMES
from colosseum.tui.plain import Static

from .client import GameBody, GameClient, load_client
from .session import GameSession
from .widgets.header import HeaderLine
from .widgets.history import (
    HINTED,
    WITHDRAWN,
    HistoryPanel,
    hint_entries,
    remember_hint,
    session_hints,
    withdrawn_entries,
)
from .widgets.keybar import KeyBar

__all__ = [
    "HINTED",
    "WITHDRAWN",
    "HistoryPanel",
    "ViewerScreen",
    "history_entries",
    "remember_hint",
    "session_hints",
]

STEP = Binding.Group("Action", compact=True)
TURN = Binding.Group("Turn", compact=True)
PHASE = Binding.Group("Phase", compact=True)
ROUND = Binding.Group("Round", compact=True)
ENDS = Binding.Group("Start/End", compact=True)
SEATS = Binding.Group("Board", compact=True)


def history_entries(timeline: Timeline, client: GameClient) -> list[tuple[int, str]]:
    """(seat, text) for each position: 0 is the start, ``i`` the action leading to position i."""
    rules = timeline.rules
    names = ", ".join(rules.names(timeline.state(0)))
    entries = [(-1, f"Start: {names}.")]
    digits = len(str(len(timeline) - 1))  # numbers right-aligned: the texts start in one column
    for i in range(1, len(timeline)):
        action = timeline.actions[i - 1]
        texts = [e.text for e in timeline.events(i)]
        text = " ".join(texts) if texts else client.history_text(timeline.state(i - 1), action)
        entries.append((action.player, f"{i:>{digits}}. {text}"))
    return entries


class ViewerScreen(Screen[int]):
    """Review a game: ``setup`` and ``actions`` (a prefix of a game, copied), opening at
    ``start_index`` (default: the end)."""

    #: what leaves the key bar first when it does not fit 80 columns (F1 help lists them all)
    KEYBAR_SPARE = ("quit", "help", "jump")
    #: the status line names the viewer's extra keys (boards, play from here, taken back, parent)
    STATUS_KEYS = True

    DEFAULT_CSS = """
    ViewerScreen { layout: vertical; }
    ViewerScreen #v-bar { height: 1; background: $primary 25%; color: $foreground; }
    """

    BINDINGS = [
        Binding("left", "step('action', -1)", "Back", group=STEP, key_display="Left", priority=True, id="viewer.back"),
        Binding(
            "right", "step('action', 1)", "Forward", group=STEP, key_display="Right", priority=True, id="viewer.forward"
        ),
        Binding(
            "up", "step('turn', -1)", "Turn back", group=TURN, key_display="Up", priority=True, id="viewer.turn-back"
        ),
        Binding(
            "down",
            "step('turn', 1)",
            "Next turn",
            group=TURN,
            key_display="Down",
            priority=True,
            id="viewer.turn-forward",
        ),
        Binding(
            "pageup",
            "step('phase', -1)",
            "Phase back",
            group=PHASE,
            key_display="PgUp",
            priority=True,
            id="viewer.phase-back",
        ),
        Binding(
            "pagedown",
            "step('phase', 1)",
            "Next phase",
            group=PHASE,
            key_display="PgDn",
            priority=True,
            id="viewer.phase-forward",
        ),
        Binding(
            "left_square_bracket",
            "step('round', -1)",
            "Round back",
            group=ROUND,
            key_display="[",
            id="viewer.round-back",
        ),
        Binding(
            "right_square_bracket",
            "step('round', 1)",
            "Next round",
            group=ROUND,
            key_display="]",
            id="viewer.round-forward",
        ),
        Binding("home", "jump(0)", "Start", group=ENDS, key_display="Home", priority=True, id="viewer.start"),
        Binding("end", "jump(-1)", "End", group=ENDS, key_display="End", priority=True, id="viewer.end"),
        Binding("h", "step('action', -1)", "Back", show=False, id="viewer.back-h"),
        Binding("l", "step('action', 1)", "Forward", show=False, id="viewer.forward-l"),
        Binding("k", "step('turn', -1)", "Turn back", show=False, id="viewer.turn-back-k"),
        Binding("j", "step('turn', 1)", "Next turn", show=False, id="viewer.turn-forward-j"),
        Binding("p", "step('phase', -1)", "Phase back", show=False, id="viewer.phase-back-p"),
        Binding("n", "step('phase', 1)", "Next phase", show=False, id="viewer.phase-forward-n"),
        Binding("g", "jump(0)", "Start", show=False, id="viewer.start-g"),
        Binding("G", "jump(-1)", "End", show=False, id="viewer.end-G"),
        Binding("1", "seat(0)", "1", group=SEATS, show=False, id="viewer.seat-1"),
        Binding("2", "seat(1)", "2", group=SEATS, show=False, id="viewer.seat-2"),
        Binding("3", "seat(2)", "3", group=SEATS, show=False, id="viewer.seat-3"),
        Binding("4", "seat(3)", "4", group=SEATS, show=False, id="viewer.seat-4"),
        Binding("5", "seat(4)", "5", group=SEATS, show=False, id="viewer.seat-5"),
        Binding("0", "follow", "Follow", show=False, id="viewer.follow"),
        Binding("f", "play_from", "Play from here", show=False, id="viewer.play-from"),
        Binding("w", "toggle_withdrawn", "Taken back", show=False, id="viewer.withdrawn"),
        Binding("o", "open_parent", "Parent", show=False, id="viewer.parent"),
        Binding("a", "analyse", "Analyse", show=False, id="viewer.analyse"),
        Binding("escape", "close", "Close", id="viewer.close"),
        Binding("q", "close", "Close", show=False, id="viewer.close-q"),
    ]

    class PlayFrom(Message):
        """ "Play from here": start a new game from ``log``'s first ``at`` actions (the app asks
        who plays each seat; the viewer cannot open screens above it)."""

        def __init__(self, log: GameLog, at: int) -> None:
            super().__init__()
            self.game_log = log
            self.at = at

    def __init__(
        self,
        setup: Any,
        actions: Iterable[Any],
        start_index: int | None = None,
        *,
        seats: Iterable[str] | None = None,
        title: str = "",
        error: GameLogError | str | None = None,
        timeline: Timeline | None = None,
        log: GameLog | None = None,
        hints: Sequence[HintLine] | None = None,
        client: GameClient | None = None,
        analysis: bool = True,
    ) -> None:
        """``analysis``: whether ``a`` may ask the hint bot about a position (not in a running
        table's game that allows no hints)."""
        super().__init__()
        self.analysis = analysis
        #: the longest the analysis may think (a server's client process: shorter)
        self.hint_max_think = GameSession.hint_max_think
        #: what ``a`` opens, ``(rules, state, played, max_think=...) -> Screen`` (the hint's
        #: ``AnalysisScreen``, a layer above this one: whoever shows the viewer gives it); None: no ``a``
        self.analyser: Callable[..., Any] | None = None
        self.timeline = timeline if timeline is not None else Timeline(game_of(setup).rules(), setup, list(actions))
        self.rules = self.timeline.rules
        self.client = client if client is not None else load_client(self.rules.spec)
        # hints the hard bot gave (from the log's hint lines, or the running game's)
        self.hints: list[HintLine] = list(hints if hints is not None else (log.hints if log is not None else ()))
        self.game_log = log  # the game to play from ("f"); its undos and its parent
        self.show_withdrawn = True
        self.seats = tuple(seats) if seats is not None else ()
        self.title_text = title
        self.error = error
        n = self.timeline.end
        self.index = (
            n if start_index is None else max(0, min(start_index if start_index >= 0 else n + 1 + start_index, n))
        )
        self.viewed: int | None = None

    @classmethod
    def from_log(cls, log: GameLog, start_index: int | None = None) -> ViewerScreen:
        title = log.path.name if log.path is not None else ""
        return cls(
            log.setup,
            log.actions,
            start_index,
            seats=log.seats,
            title=title,
            error=log.error,
            timeline=log.timeline,
            log=log,
        )

    @classmethod
    def from_session(
        cls, session: GameSession[Any, Any], start_index: int | None = None, *, client: GameClient | None = None
    ) -> ViewerScreen:
        """The viewer on a running game (a copy of its actions so far; the game is untouched)."""
        seats = [s.kind for s in session.seats]
        reseed = getattr(session, "reseed", None)
        timeline = session.review_timeline()  # (a table's: what its seat may see)
        path = getattr(getattr(session, "recorder", None), "path", None)
        header = make_header(session.setup, seats, reseed=reseed, version=UNDO_VERSION)
        hints = session_hints(session)
        log = GameLog(header, timeline, None, lines=0, terminated=True, path=path, hints=hints)
        screen = cls(
            session.setup,
            timeline.actions,
            start_index,
            seats=seats,
            title="the game so far",
            timeline=timeline,
            log=log,
            client=client,
            # a game in play: the bot's analysis only where its hints are allowed (a table may
            # not); a game over is a record, as in a finished table's review
            analysis=session.offers_hint() or session.rules.is_over(session.state),
        )
        screen.hint_max_think = session.hint_max_think
        return screen

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        history = HistoryPanel(id="v-history")
        history.styler = self._seat_style
        yield HeaderLine(self.client, id="v-header")
        self._body = self.client.body(history=history)
        yield self._body
        yield Static(id="v-bar")
        yield KeyBar()  # ASCII only (Textual's Footer draws an ambiguous-width bar)

    def on_mount(self) -> None:
        self._fill_history()
        self.go(self.index)

    def _seat_style(self, theme: str, seat: int) -> Any:
        return self.client.seat_style(self.state, seat, theme=theme, dark=self.app.current_theme.dark)

    def _fill_history(self) -> None:
        undos = self.game_log.undos if self.game_log is not None and self.show_withdrawn else []
        notes = withdrawn_entries(undos)
        names = self.rules.names(self.timeline.state(0))
        for at, lines in hint_entries(self.hints, names, self.rules.score_word(self.timeline.state(0))).items():
            notes.setdefault(at, []).extend(lines)
        self.query_one(HistoryPanel).set_entries(history_entries(self.timeline, self.client), notes)

    # ------------------------------------------------------------------ position
    @property
    def state(self) -> Any:
        return self.timeline.state(self.index)

    @property
    def players(self) -> int:
        return len(self.rules.names(self.state))

    @property
    def body(self) -> GameBody:
        return cast("GameBody", self._body)

    def seat_shown(self) -> int:
        st = self.state
        if self.viewed is not None and 0 <= self.viewed < self.players:
            return self.viewed
        if self.index > 0:
            seat: int = self.timeline.actions[self.index - 1].player
            return seat
        actor = self.rules.to_act(st)
        return actor if actor >= 0 else 0

    def go(self, index: int) -> None:
        """Show the position after ``index`` actions (clamped to the game)."""
        self.index = max(0, min(index, self.timeline.end))
        st = self.state
        seat = self.seat_shown()
        self.query_one(HeaderLine).show(st, seat)
        self.body.show(st, seat, self.marks(), chosen=self.viewed is not None)
        self.query_one(HistoryPanel).set_current(self.index)
        self.query_one("#v-bar", Static).update(self.bar_text())

    def marks(self) -> Any:
        """The same marks as in a game: what the last run of actions by one player changed."""
        return self.client.viewer_marks(self.timeline, self.index)

    def bar_text(self) -> str:
        """The status line, fitted to the screen's width: when the whole wording does not fit,
        parts take their short wording, then the least needed leave whole (at 80 columns a
        damaged log's line ended "w:", the key's meaning cut off)."""
        n = self.timeline.end
        where = "start" if self.index == 0 else ("end" if self.index == n else f"action {self.index}")
        # (full wording, short one, the order in which it is shortened); short "": it may leave
        parts: list[tuple[str, str | None, int]] = [(f"REVIEW  {where} ({self.index}/{n})", f"REVIEW  {where}", 4)]
        if self.error is not None:
            line = getattr(self.error, "line", None)
            parts.append(
                (f"log damaged at line {line}", f"damaged at line {line}", 1) if line else ("log damaged", None, 0)
            )
        keys = self.STATUS_KEYS
        if keys:
            parts.append((f"1-{self.players}: boards", None, 0))
        if keys and self.analysis and self.analyser is not None and self.rules.to_act(self.state) >= 0:
            parts.append(("a: analyse", "", 5))  # (F1 lists it when it has to leave)
        # the key bar is full at 80 columns: the keys of this game's extras are named here
        log = self.game_log
        if keys and log is not None and not self.rules.is_over(self.state):
            parts.append(("f: play from here", "f: play on", 3))
        if keys and log is not None and log.undos:
            parts.append((f"w: {'hide' if self.show_withdrawn else 'show'} taken back", "w: taken back", 6))
        hints = sum(1 for h in self.hints if h.after == self.index)
        if hints:
            parts.append((f"hint{'s' if hints > 1 else ''} here (see the history)", "hints here", 5))
        if keys and log is not None and log.header.fork_of:
            parts.append((f"o: parent (fork at {log.header.fork_at})", "o: parent", 5))
        if self.title_text:
            parts.append((self.title_text, "", 2))
        return _fit_bar(parts, self.size.width or self.app.size.width or 80)

    def on_resize(self) -> None:
        if self.is_mounted:
            self.query_one("#v-bar", Static).update(self.bar_text())

    def action_step(self, kind: str, direction: int) -> None:
        tl = self.timeline
        self.go(tl.next(kind, self.index) if direction > 0 else tl.prev(kind, self.index))

    def action_jump(self, index: int) -> None:
        self.go(self.timeline.end if index < 0 else index)

    def action_seat(self, seat: int) -> None:
        if seat >= self.players:
            return
        self.viewed = None if seat < 0 else seat
        self.go(self.index)

    def action_follow(self) -> None:
        """``0``: follow the player who acted (the game screen's name for it: a panel that
        names the key finds it by this action, ``widgets.keybar.key_for``)."""
        self.action_seat(-1)

    def action_close(self) -> None:
        self.dismiss(self.index)

    # ------------------------------------------------------------------ taken back, forks
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        log = self.game_log
        if action == "seat":  # the boards of this game's seats only (F1 listed "Board 5" of 3)
            return bool(parameters) and isinstance(parameters[0], int) and parameters[0] < self.players
        if action == "play_from":
            return log is not None and not self.rules.is_over(self.state)
        if action == "toggle_withdrawn":
            return log is not None and bool(log.undos)
        if action == "open_parent":
            return log is not None and bool(log.header.fork_of)
        if action == "analyse":
            return self.analysis and self.analyser is not None
        return True

    def action_analyse(self) -> None:
        """``a``: what the hint bot would do at the position shown, beside what the game went on
        with (a review's engine, as on lichess); it changes nothing and is not recorded."""
        if self.analyser is None:  # (check_action keeps the key off then)
            return
        state = self.state
        if self.rules.to_act(state) < 0:
            self.notify("The game is over here: no decision to analyse.", markup=False, timeout=4)
            return
        tl = self.timeline
        played = tl.actions[self.index] if self.index < tl.end else None
        self.app.push_screen(self.analyser(self.rules, state, played, max_think=self.hint_max_think))

    def action_toggle_withdrawn(self) -> None:
        """Show or skip the actions that were taken back (they stay in the log either way)."""
        self.show_withdrawn = not self.show_withdrawn
        self._fill_history()
        self.go(self.index)
        self.notify("Actions taken back: " + ("shown" if self.show_withdrawn else "hidden"), timeout=2)

    def action_play_from(self) -> None:
        if self.game_log is not None and not self.rules.is_over(self.state):
            self.post_message(self.PlayFrom(self.game_log, self.index))

    def action_open_parent(self) -> None:
        """The game this one was forked from, at the fork point."""
        log = self.game_log
        if log is None or not log.header.fork_of:
            return
        from .storage import games_dir

        name = log.header.fork_of
        places = ([log.path.parent / name] if log.path is not None else []) + [games_dir() / name]
        for place in places:
            try:
                parent = read_log(place)
            except GameLogError:
                continue
            viewer = ViewerScreen.from_log(parent, log.header.fork_at)
            viewer.analyser, viewer.hint_max_think = self.analyser, self.hint_max_think
            self.app.push_screen(viewer)
            return
        self.notify(f"{name} is not beside this game or in the games folder.", severity="warning", markup=False)


def _theme_known(theme: str) -> bool:
    from textual.theme import BUILTIN_THEMES

    return theme in THEME_NAMES or theme in BUILTIN_THEMES


def _theme_ok(theme: str | None) -> bool:
    if theme is None or theme in THEME_NAMES:
        return True
    from textual.theme import BUILTIN_THEMES

    if theme in BUILTIN_THEMES:
        return True
    print(f"colosseum: unknown theme {theme!r}; choose one of {', '.join(THEME_NAMES)}", file=sys.stderr)
    return False


def _fit_bar(parts: list[tuple[str, str | None, int]], width: int) -> str:
    """`` part  part ...`` in ``width`` cells: the parts whole, else, in the order of their rank,
    in their short wording (or left out, those whose short wording is ""); at worst the last
    parts leave, whole (and the others take back their whole wording where it fits again):
    never a word cut at the edge."""
    words = [full for full, _short, _rank in parts]

    def line() -> str:
        return " " + "  ".join(w for w in words if w)

    for i in sorted((i for i, p in enumerate(parts) if p[1] is not None), key=lambda i: parts[i][2]):
        if cell_len(line()) <= width:
            break
        words[i] = parts[i][1] or ""
    while cell_len(line()) > width and sum(1 for w in words if w) > 1:
        dropped = max(i for i, w in enumerate(words) if w)
        words[dropped] = ""
        parts = parts[:dropped]
    for i in sorted(range(len(parts)), key=lambda i: -parts[i][2]):  # room again: the whole wordings back
        was, words[i] = words[i], parts[i][0]
        if cell_len(line()) > width:
            words[i] = was
    return line()
