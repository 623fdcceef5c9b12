"""The game-log viewer: review a game move by move.

``ViewerScreen(setup, actions, start_index=None)`` shows the position after any number of
actions with the main game's panels (board, impresarios, a seat's board, the header) and a
history of every action with the current one highlighted.  It opens from ``colosseum view FILE``
(:func:`run_viewer`) and from inside a running game (push it on the app; it copies the action
list, so the game goes on undisturbed, and Escape closes it).

Keys: Left/Right one action, Up/Down one player turn, PgUp/PgDn one phase, [ and ] one round,
Home/End the start and the end, 1-5 show that seat's board (0: follow the player who acted),
Escape or q closes.  ``f`` plays a new game from the position shown (posts ``PlayFrom``: the
app asks who plays each seat), ``w`` shows or hides the actions taken back, ``o`` opens the game
a fork was made from, at the fork point.

Positions come from :class:`colosseum.core.gamelog.Timeline`, which replays each action once and
keeps every state (they share structure), so any jump is a list lookup plus a redraw.
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Iterable, Sequence

from rich.segment import Segment
from rich.style import Style
from textual.app import ComposeResult
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.strip import Strip

from colosseum.core.gamelog import UNDO_VERSION, GameLogError, HintLine, Withdrawal, describe_action, make_header
from colosseum.core.games.colosseum import Action, GameSetup, State, to_act
from colosseum.core.games.colosseum.actions import ChooseDice
from colosseum.core.games.colosseum.summary import Changes, last_move
from colosseum.core.logread import read_log
from colosseum.core.registry import rules
from colosseum.core.timeline import GameLog, Timeline
from colosseum.themes import THEME_NAMES
from colosseum.tui.plain import Static

from .base import BaseApp
from .text import pad, wrap
from .widgets.arena import Arena
from .widgets.board import BoardPanel
from .widgets.common import seat_style
from .widgets.hand import HandPanel
from .widgets.header import GameHeader
from .widgets.keybar import KeyBar
from .widgets.players import PlayersPanel

STEP = Binding.Group("Action", compact=True)
TURN = Binding.Group("Turn", compact=True)
PHASE = Binding.Group("Phase", compact=True)
ROUND = Binding.Group("Round", compact=True)
ENDS = Binding.Group("Start/End", compact=True)
SEATS = Binding.Group("Board", compact=True)


WITHDRAWN = -2  # the "seat" of a history entry that tells what was taken back
HINTED = -3  # the "seat" of a history entry that tells a hint the hard bot gave

# Hints asked for in running games, by session: the viewer of a running game shows them as the
# viewer of its log would (the log has them as hint lines).
_SESSION_HINTS: weakref.WeakKeyDictionary[object, list[HintLine]] = weakref.WeakKeyDictionary()


def remember_hint(session: object, line: HintLine) -> None:
    """Keep a hint given in the running game ``session`` for its viewer."""
    try:
        _SESSION_HINTS.setdefault(session, []).append(line)
    except TypeError:  # a session that cannot be weakly referenced: its viewer goes without
        pass


def session_hints(session: object) -> list[HintLine]:
    try:
        return list(_SESSION_HINTS.get(session, ()))
    except TypeError:
        return []


def hint_entries(hints: Sequence[HintLine], names: Sequence[str]) -> dict[int, list[tuple[int, str]]]:
    """Entries for the hints, by the position they were asked at (they follow that entry)."""
    out: dict[int, list[tuple[int, str]]] = {}
    for h in hints:
        who = names[h.seat] if 0 <= h.seat < len(names) else "a player"
        if not h.hint:
            text = f"   [hint for {who}: {h.chat}]"
        else:
            parts = []
            for k, o in enumerate(h.hint):
                what = o.text or describe_action(o.action)
                figures = f" (wins {o.win:.0%}, Acclaim {o.acclaim:.1f})" if o.playouts else ""
                parts.append(("the bot would " if k == 0 else "") + what + figures)
            text = f"   [hint for {who}: {parts[0]}" + ("; next: " + "; ".join(parts[1:]) if parts[1:] else "") + "]"
        out.setdefault(h.after, []).append((HINTED, text))
    return out


def withdrawn_entries(withdrawals: Iterable[Withdrawal]) -> dict[int, list[tuple[int, str]]]:
    """Entries for the actions taken back, by the position the game went back to."""
    out: dict[int, list[tuple[int, str]]] = {}
    for w in withdrawals:
        n = len(w.actions)
        head = w.line.text or f"{w.line.name or 'A player'} took back {n} action{'s' if n != 1 else ''}"
        lines = [(WITHDRAWN, f"   [{head}; withdrawn:]")]
        for k, action in enumerate(w.actions):
            text = w.texts[k] if k < len(w.texts) and w.texts[k] else describe_action(action)
            lines.append((WITHDRAWN, f"   ({w.at + 1 + k}. {text})"))
        out.setdefault(w.at, []).extend(lines)
    return out


def history_entries(timeline: Timeline) -> list[tuple[int, str]]:
    """(seat, text) for each position: 0 is the start, ``i`` the action leading to position i."""
    st0 = timeline.state(0)
    names = ", ".join(p.name for p in st0.players)
    entries = [(-1, f"Start: {names}.")]
    for i in range(1, len(timeline)):
        action = timeline.actions[i - 1]
        texts = [e.text for e in timeline.events(i)]
        text = " ".join(texts) if texts else quiet_action_text(timeline.state(i - 1), action)
        entries.append((action.player, f"{i}. {text}"))
    return entries


def quiet_action_text(state: State, action: Action) -> str:
    """A sentence for an action the engine logged no event for."""
    name = state.players[action.player].name if 0 <= action.player < state.n else f"Seat {action.player}"
    if isinstance(action, ChooseDice):
        return f"{name} uses the dice {'one by one' if action.mode == 'split' else 'as a sum'}."
    return f"{name}: {describe_action(action)}."


class HistoryPanel(ScrollView, can_focus=False):
    """Every action as one entry (its events' sentences), the current one highlighted."""

    DEFAULT_CSS = """
    HistoryPanel { border: round $primary 60%; border-title-color: $primary; height: 1fr; scrollbar-size-vertical: 1; }
    HistoryPanel:focus { border: round $accent; }
    HistoryPanel > .history--current { background: $accent; color: $background; text-style: bold; }
    HistoryPanel > .history--plain { color: $foreground; }
    HistoryPanel > .history--withdrawn { color: $text-muted; text-style: italic; }
    HistoryPanel > .history--hint { color: $accent; text-style: italic; }
    """
    COMPONENT_CLASSES = {"history--current", "history--plain", "history--withdrawn", "history--hint"}

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.entries: list[tuple[int, str]] = []
        self.current = 0  # the position shown
        self._entry_at: list[int] = []  # the entry of each position (notes of withdrawn actions lie between)
        self._lines: list[tuple[int, str]] = []  # (entry, one wrapped line)
        self._first: list[int] = []  # first line of each entry
        self._width = 0
        self._cache_key: tuple[str, int] | None = None
        self._cache: dict[tuple[int, bool], tuple[Style, Style]] = {}
        self.border_title = "History"

    def set_entries(
        self, entries: list[tuple[int, str]], notes: dict[int, list[tuple[int, str]]] | None = None
    ) -> None:
        """One entry per position; ``notes[i]`` (entries of withdrawn actions) follow position i."""
        self.entries = []
        self._entry_at = []
        for i, entry in enumerate(entries):
            self._entry_at.append(len(self.entries))
            self.entries.append(entry)
            self.entries.extend((notes or {}).get(i, ()))
        for i in sorted(k for k in (notes or {}) if k >= len(entries)):  # past the end: kept at the end
            self.entries.extend((notes or {})[i])
        self._width = 0
        self._wrap()

    def _current_entry(self) -> int:
        return self._entry_at[self.current] if 0 <= self.current < len(self._entry_at) else self.current

    def _wrap(self) -> None:
        width = max(10, self.scrollable_content_region.width or 40)
        if width == self._width and self._lines:
            return
        self._width = width
        lines: list[tuple[int, str]] = []
        first: list[int] = []
        for k, (_, text) in enumerate(self.entries):
            first.append(len(lines))
            parts = wrap(text, width, indent="   ")
            lines.extend((k, part) for part in parts)
        self._lines, self._first = lines, first
        self.virtual_size = Size(width, len(lines))
        self.refresh()

    def set_current(self, index: int) -> None:
        self.current = index
        self._reveal()
        self.refresh()

    def _reveal(self) -> None:
        entry = self._current_entry()
        if not self._first or not 0 <= entry < len(self._first):
            return
        top = self._first[entry]
        end = self._first[entry + 1] if entry + 1 < len(self._first) else len(self._lines)
        height = max(1, self.scrollable_content_region.height)
        y = self.scroll_offset.y
        if top < y or end > y + height:
            self.scroll_to(y=max(0, top - height // 3), animate=False, immediate=True)

    def on_resize(self) -> None:
        self._wrap()
        self._reveal()

    @property
    def current_line(self) -> int:
        entry = self._current_entry()
        return self._first[entry] if self._first and entry < len(self._first) else 0

    def _style_cache(self) -> dict[tuple[int, bool], tuple[Style, Style]]:
        """Styles for this frame's theme (looking them up per line is a large part of a redraw)."""
        key = (self.app.theme, id(self.styles))
        if self._cache_key != key:
            self._cache_key = key
            self._cache = {}
        return self._cache

    def _style(self, seat: int, current: bool) -> tuple[Style, Style]:
        cache = self._style_cache()
        k = (seat, current)
        if k not in cache:
            base = self.rich_style
            if current:
                style = base + self.get_component_rich_style("history--current", partial=True)
            elif seat == WITHDRAWN:
                style = base + self.get_component_rich_style("history--withdrawn", partial=True)
            elif seat == HINTED:
                style = base + self.get_component_rich_style("history--hint", partial=True)
            elif seat >= 0:
                style = base + seat_style(self.app.theme, seat, bold=False)
            else:
                style = base + self.get_component_rich_style("history--plain", partial=True)
            cache[k] = (base, style)
        return cache[k]

    def notify_style_update(self) -> None:
        self._cache_key = None
        super().notify_style_update()

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        if index >= len(self._lines):
            return Strip.blank(width, self.rich_style)
        entry, text = self._lines[index]
        current = entry == self._current_entry()
        base, style = self._style(self.entries[entry][0], current)
        if current:
            return Strip([Segment(pad(text, width), style)], width)
        strip = Strip([Segment(text, style)])  # its width in cells (CJK takes two)
        return strip.crop_extend(0, width, base)


class ViewerScreen(Screen):
    """Review a game: ``setup`` and ``actions`` (a prefix of a game, copied), opening at
    ``start_index`` (default: the end)."""

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
        Binding("0", "seat(-1)", "Follow", show=False, id="viewer.follow"),
        Binding("f", "play_from", "Play from here", show=False, id="viewer.play-from"),
        Binding("w", "toggle_withdrawn", "Taken back", show=False, id="viewer.withdrawn"),
        Binding("o", "open_parent", "Parent", show=False, id="viewer.parent"),
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
        setup: GameSetup,
        actions: Iterable[Action],
        start_index: int | None = None,
        *,
        seats: Iterable[str] | None = None,
        title: str = "",
        error: GameLogError | str | None = None,
        timeline: Timeline | None = None,
        log: GameLog | None = None,
        hints: Sequence[HintLine] | None = None,
    ) -> None:
        super().__init__()
        self.timeline = timeline if timeline is not None else Timeline(rules(None), setup, list(actions))
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
    def from_session(cls, session, start_index: int | None = None) -> ViewerScreen:
        """The viewer on a running game (a copy of its actions so far; the game is untouched)."""
        seats = [s.kind for s in session.seats]
        reseed = getattr(session, "reseed", None)
        remote = getattr(session, "review_timeline", None)  # a server's table: its seat's view
        timeline = (
            remote()
            if remote is not None
            else Timeline(rules(None), session.setup, list(session.actions), reseed=reseed)
        )
        path = getattr(getattr(session, "recorder", None), "path", None)
        header = make_header(session.setup, seats, reseed=reseed, version=UNDO_VERSION)
        hints = session_hints(session)
        log = GameLog(header, timeline, None, lines=0, terminated=True, path=path, hints=hints)
        return cls(
            session.setup,
            timeline.actions,
            start_index,
            seats=seats,
            title="the game so far",
            timeline=timeline,
            log=log,
        )

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield GameHeader(id="v-header")
        yield Arena(HistoryPanel(id="v-history"))
        yield Static(id="v-bar")
        yield KeyBar()  # ASCII only (Textual's Footer draws an ambiguous-width bar)

    def on_mount(self) -> None:
        self._fill_history()
        self.go(self.index)

    def _fill_history(self) -> None:
        undos = self.game_log.undos if self.game_log is not None and self.show_withdrawn else []
        notes = withdrawn_entries(undos)
        names = [p.name for p in self.timeline.state(0).players]
        for at, lines in hint_entries(self.hints, names).items():
            notes.setdefault(at, []).extend(lines)
        self.query_one(HistoryPanel).set_entries(history_entries(self.timeline), notes)

    # ------------------------------------------------------------------ position
    @property
    def state(self) -> State:
        return self.timeline.state(self.index)

    def seat_shown(self) -> int:
        st = self.state
        if self.viewed is not None and 0 <= self.viewed < st.n:
            return self.viewed
        if self.index > 0:
            return self.timeline.actions[self.index - 1].player
        actor = to_act(st)
        return actor if actor >= 0 else 0

    def go(self, index: int) -> None:
        """Show the position after ``index`` actions (clamped to the game)."""
        self.index = max(0, min(index, self.timeline.end))
        st = self.state
        seat = self.seat_shown()
        self.query_one(GameHeader).show(st, seat)
        marks = self.marks()
        self.query_one(BoardPanel).show(st, seat, marks=marks)
        self.query_one(PlayersPanel).show(st, seat, marks=marks)
        self.query_one(HandPanel).show(st, seat, marks=marks)
        self.query_one(HistoryPanel).set_current(self.index)
        self.query_one("#v-bar", Static).update(self.bar_text())

    def marks(self) -> Changes:
        """The same marks as in a game: what the last run of actions by one player changed."""
        tl = self.timeline
        return last_move([a.player for a in tl.actions], tl.state, self.index)

    def bar_text(self) -> str:
        n = self.timeline.end
        where = "start" if self.index == 0 else ("end" if self.index == n else f"action {self.index}")
        text = f" REVIEW  {where} ({self.index}/{n})"
        if self.error is not None:
            line = getattr(self.error, "line", None)
            text += f"  log damaged at line {line}" if line else "  log damaged"
        text += f"  1-{self.state.n}: boards"
        # the key bar is full at 80 columns: the keys of this game's extras are named here
        log = self.game_log
        if log is not None and self.state.phase != "over":
            text += "  f: play from here"
        if log is not None and log.undos:
            text += f"  w: {'hide' if self.show_withdrawn else 'show'} taken back"
        hints = sum(1 for h in self.hints if h.after == self.index)
        if hints:
            text += f"  hint{'s' if hints > 1 else ''} here (see the history)"
        if log is not None and log.header.fork_of:
            text += f"  o: parent (fork at {log.header.fork_at})"
        if self.title_text:
            text += f"  {self.title_text}"
        return text

    def action_step(self, kind: str, direction: int) -> None:
        tl = self.timeline
        self.go(tl.next(kind, self.index) if direction > 0 else tl.prev(kind, self.index))

    def action_jump(self, index: int) -> None:
        self.go(self.timeline.end if index < 0 else index)

    def action_seat(self, seat: int) -> None:
        if seat >= self.state.n:
            return
        self.viewed = None if seat < 0 else seat
        self.go(self.index)

    def action_close(self) -> None:
        self.dismiss(self.index)

    # ------------------------------------------------------------------ taken back, forks
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        log = self.game_log
        if action == "play_from":
            return log is not None and self.state.phase != "over"
        if action == "toggle_withdrawn":
            return log is not None and bool(log.undos)
        if action == "open_parent":
            return log is not None and bool(log.header.fork_of)
        return True

    def action_toggle_withdrawn(self) -> None:
        """Show or skip the actions that were taken back (they stay in the log either way)."""
        self.show_withdrawn = not self.show_withdrawn
        self._fill_history()
        self.go(self.index)
        self.notify("Actions taken back: " + ("shown" if self.show_withdrawn else "hidden"), timeout=2)

    def action_play_from(self) -> None:
        if self.game_log is not None and self.state.phase != "over":
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
            self.app.push_screen(ViewerScreen.from_log(parent, log.header.fork_at))
            return
        self.notify(f"{name} is not beside this game or in the games folder.", severity="warning", markup=False)


class ViewerApp(BaseApp):
    """``colosseum view FILE``: the viewer on its own.  "Play from here" ends it with
    ``play_from`` set: the command line then starts the game (this app has no game screens)."""

    TITLE = "Colosseum - review"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False, priority=True)]

    def __init__(self, log: GameLog, *, theme: str | None = None, start_index: int | None = None) -> None:
        from .settings import load_settings

        # the user's settings file, as the game reads it; a theme given here wins
        self.user_settings = load_settings()
        stored = self.user_settings.theme
        if theme is None and stored is not None and _theme_known(stored):
            theme = stored
        super().__init__(theme=theme)
        self.log_file = log
        self.start_index = start_index
        self.play_from: ViewerScreen.PlayFrom | None = None

    def on_viewer_screen_play_from(self, message: ViewerScreen.PlayFrom) -> None:
        self.play_from = message
        self.exit(0)

    def on_mount(self) -> None:
        if self.user_settings.keys:
            self.set_keymap(self.user_settings.keys)
        if self.user_settings.problem:
            self.notify(self.user_settings.problem, title="Settings ignored", severity="warning", markup=False)
        self.push_screen(ViewerScreen.from_log(self.log_file, self.start_index), callback=lambda _: self.exit(0))


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


def run_viewer(log: GameLog, *, theme: str | None = None) -> int:
    return view_log(log, theme=theme)[0]


def view_log(log: GameLog, *, theme: str | None = None) -> tuple[int, ViewerScreen.PlayFrom | None]:
    """Run the viewer; (exit status, the "play from here" asked for, if any)."""
    if not _theme_ok(theme):
        return 2, None
    import gc

    log.timeline.state(log.timeline.end)
    gc.collect()
    gc.freeze()  # the replayed positions live as long as the viewer: keep them out of GC passes
    app = ViewerApp(log, theme=theme)
    app.run()
    return app.return_code or 0, app.play_from
