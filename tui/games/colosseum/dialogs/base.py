"""The base of every decision dialog.

A dialog is a ``ModalScreen`` anchored over the right-hand part of the screen (the arena and the
markets on the left stay visible).  It serves one *decision* of one seat, named by a key that
``decision_key(state, seat)`` computes; while the game's state still yields that key the dialog
stays open and refreshes itself, and when the decision is over it dismisses itself.  It reads
everything from the session's State and the engine's queries and acts only through
``session.submit``; a rejected action is shown as an error notification and changes nothing.
"""

from __future__ import annotations

import weakref
from collections.abc import Hashable, Iterable
from dataclasses import replace

from rich.text import Text
from textual.app import ComposeResult, ScreenStackError
from textual.binding import Binding
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.dom import DOMNode
from textual.widget import Widget
from textual.widgets.option_list import Option

from colosseum.core.games.colosseum import Action, Choices, State, catalog, legal, to_act
from colosseum.core.games.colosseum.components import Catalog
from colosseum.core.games.colosseum.model import Player
from colosseum.core.games.colosseum.queries import phase_title
from colosseum.tui.base import submit_or_notify
from colosseum.tui.dialogs.frame import DecisionScreen
from colosseum.tui.plain import OptionList, Static
from colosseum.tui.session import GameSession
from colosseum.tui.widgets.cutlines import CutLines
from colosseum.tui.widgets.live_footer import LiveFooter
from colosseum.tui.widgets.preview import Preview


class _Hub:
    """One listener per session, fanning state changes out to the open dialogs (the session
    has no way to remove a listener, so dialogs do not add their own)."""

    def __init__(self) -> None:
        self.dialogs: weakref.WeakSet[DecisionDialog] = weakref.WeakSet()

    def __call__(self, state: State, events) -> None:
        # Called from session.submit, possibly from a bot task or another thread:
        # post to each dialog's own queue (thread-safe) and refresh there.
        for dialog in list(self.dialogs):
            dialog.call_later(dialog.sync)


_HUBS: weakref.WeakKeyDictionary[object, _Hub] = weakref.WeakKeyDictionary()


def _hub(session: GameSession[State, Action]) -> _Hub:
    hub = _HUBS.get(session)
    if hub is None:
        hub = _HUBS[session] = _Hub()
        session.add_listener(hub)
    return hub


class ChoiceList(OptionList):
    """An OptionList for dialog choices (Enter is handled by the dialog)."""

    DEFAULT_CSS = """
    ChoiceList {
        height: auto;
        max-height: 9;
        border: none;
        padding: 0;
        background: $surface;
        scrollbar-size-vertical: 1;
        &:focus { border: none; background-tint: $foreground 0%; }
    }
    """

    def on_mount(self) -> None:
        self.border_title = "the list"  # (no border is drawn; the help screen names the panel)

    def set_choices(self, options: Iterable[Option], keep: str | None = None) -> None:
        """Replace the options, keeping the highlight on the option with id ``keep`` (or on the
        same id as before), else the same index, else the first enabled option."""
        old = self.highlighted_option
        old_id = keep if keep is not None else (old.id if old is not None else None)
        old_index = self.highlighted
        options = list(options)
        self.set_options(options)
        target = None
        if old_id is not None:
            target = next((i for i, o in enumerate(options) if o.id == old_id and not o.disabled), None)
        if target is None and old_index is not None and old_index < len(options) and not options[old_index].disabled:
            target = old_index
        if target is None:
            target = next((i for i, o in enumerate(options) if not o.disabled), None)
        self.highlighted = target
        self.fit_rows()

    def fit_rows(self) -> None:
        """Show every row when the box has room for them: the CSS's height (9 rows, 16 on a tall
        screen) counts rows as drawn, and a choice whose reason wraps takes two or three.  At
        80x24 the investments with two wrapped reasons ran to 11 rows: "p  End the turn" was
        below the list's fold while the box had empty rows under it."""
        self.styles.max_height = None  # the CSS's, then grown after the layout
        self.call_after_refresh(self._grow)

    def _grow(self) -> None:
        box = next((a for a in self.ancestors if isinstance(a, Widget) and a.id == "dialog"), None)
        hidden = self.max_scroll_y  # rows below the fold: wrapped rows, counted in cells
        if box is None or hidden <= 0 or not self.display or box.max_scroll_y > 0:
            return
        shown = [w for w in box.children if w.display]
        end = max(w.region.bottom + w.styles.margin.bottom for w in shown)
        # the empty rows in the box (on a short screen it takes the whole column; on a tall
        # one it ends part-way down, above a panel that stays in view)
        spare = box.scrollable_content_region.bottom - end
        if spare > 0:
            self.styles.max_height = self.size.height + min(hidden, spare)

    @property
    def chosen(self) -> str | None:
        opt = self.highlighted_option
        if opt is None or opt.disabled:
            return None
        return opt.id


def option(oid: str, *parts, disabled: bool = False, why: str = "") -> Option:
    """An option whose text is made of ``parts`` (str or (str, style)); a disabled option ends
    with its reason so it reads without colour."""
    text = Text.assemble(*parts)
    if disabled and why:
        text.append(f"  ({why})")
    return Option(text, id=oid, disabled=disabled)


class DecisionDialog(DecisionScreen):
    """Base class: subclasses implement ``decision_key``, ``compose_body`` and ``refresh_view``."""

    DEFAULT_CSS = """
    DecisionDialog {
        align: right top;
        background: $background 0%;
    }
    DecisionDialog > #dialog {
        width: 44;
        height: auto;
        max-height: 100%;
        margin-top: 1;
        border: round $primary;
        border-title-color: $primary;
        border-title-style: bold;
        border-subtitle-color: $foreground;
        background: $surface;
        padding: 0 1;
        overflow-y: auto;
        scrollbar-size-vertical: 1;
    }
    DecisionDialog.-wide > #dialog { width: 60; }
    /* On a short terminal the box takes the whole column right of the board: a box ending
       part-way down would leave the panel under it cut mid-column, title gone. */
    DecisionDialog.-short > #dialog { height: 1fr; }
    DecisionDialog.-tall ChoiceList { max-height: 16; }
    DecisionDialog #prompt { text-style: bold; }
    DecisionDialog .info { color: $foreground; }
    DecisionDialog .muted { color: $text-muted; }
    DecisionDialog .gap { margin-top: 1; }
    DecisionDialog .status { color: $warning; }
    DecisionDialog.-short .tall-only { display: none; }
    DecisionDialog .-empty { display: none; }
    DecisionDialog #since { color: $text-muted; margin-bottom: 1; }
    """

    #: Escape closes the dialog without changing the game.  A subclass that binds Escape
    #: itself (e.g. "back" from a sub-list) must list this binding after its own.
    ESCAPE_CLOSE = Binding("escape", "close", "close", id="dialog.close", key_display="esc", priority=True)
    BINDINGS = [
        ESCAPE_CLOSE,
        Binding("f1,question_mark", "app.help", "help", show=False, id="dialog.help"),
        Binding("l", "full_log", "log", show=False, id="dialog.log"),
        # the rules in short, as on the game screen (one meaning per key, D-66)
        Binding("r", "app.rules", "rules", show=False, id="dialog.rules"),
        Binding("k", "legend", "legend", show=False, id="dialog.legend"),
        # Shown (with the count) while decisions can be taken back: the moment a misclick is
        # noticed is usually in the next dialog.  (The app's own `u` has priority and acts.)
        Binding("u", "undo", "undo", id="dialog.undo"),
    ]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]

    #: the dialog's border title (the decision in a few words)
    heading = "Decision"
    #: the box takes the columns right of the board (a widget with id "board" on the screen
    #: below, if there is one), within these bounds; else the CSS width (44, 60 when wide)
    MIN_WIDTH = 38
    MAX_WIDTH = 64

    def __init__(self, session: GameSession[State, Action], seat: int) -> None:
        super().__init__()
        self.session = session
        self.seat = seat
        self.key: Hashable | None = self.decision_key(session.state, seat)
        self._over = False
        self._dismissed = False
        self.handed_over = False  # closed for another seat at this keyboard (hot seat)
        self._preview: frozenset[int] = frozenset()

    # ------------------------------------------------------------------ the decision served

    @classmethod
    def decision_key(cls, state: State, seat: int) -> Hashable | None:
        """A key naming the decision ``seat`` faces in ``state`` that this dialog serves, or
        None.  The dialog stays open while the state yields the same key."""
        raise NotImplementedError

    def decision_open(self, state: State | None = None) -> bool:
        state = self.session.state if state is None else state
        return self.key is not None and self.decision_key(state, self.seat) == self.key

    @property
    def over(self) -> bool:
        return self._over

    # ------------------------------------------------------------------ facts

    @property
    def state(self) -> State:
        return self.session.state

    @property
    def cat(self) -> Catalog:
        return catalog(self.session.state)

    @property
    def me(self) -> Player:
        return self.session.state.players[self.seat]

    def my_turn(self) -> bool:
        return to_act(self.session.state) == self.seat

    def choices(self) -> Choices:
        """The engine's legal choices if this seat is to act, else none."""
        if not self.my_turn():
            return Choices(player=-1, actions=())
        return legal(self.session.state)

    def waiting_text(self) -> str:
        seat = to_act(self.state)
        if seat < 0:
            return "The game is over."
        return f"Waiting for {self.state.players[seat].name}..."

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as box:
            box.border_title = Text(self.heading)
            box.border_subtitle = Text(self.phase_title())
            since = self.since_text()
            # one row a line on a short screen (cut in ASCII), wrapped on a tall one
            short = not self.tall
            yield CutLines(since, cut=short, id="since", classes="" if since.plain else "-empty")
            yield Static(id="prompt")
            yield from self.compose_body()
        yield LiveFooter()

    def compose_body(self) -> ComposeResult:
        yield from ()

    def action_legend(self) -> None:
        """The legend (k), as on the game screen."""
        from colosseum.tui.client import load_client
        from colosseum.tui.screens.legend import LegendScreen

        self.app.push_screen(LegendScreen(load_client(self.session.spec), self.session.setup))

    def phase_title(self) -> str:
        st = self.session.state
        return f"Round {st.round} - {phase_title(st)}"

    def set_prompt(self, text: str | Text) -> None:
        # prompts carry player names: a str is plain text, never markup
        self.query_one("#prompt", Static).update(Text(text) if isinstance(text, str) else text)

    def show(self, widget_id: str, text) -> None:
        """Update a Static by id; an empty one is hidden (so it takes no space)."""
        widget = self.query_one(f"#{widget_id}", Static)
        widget.update(Text(text) if isinstance(text, str) else text)  # names inside: never markup
        plain = text.plain if isinstance(text, Text) else str(text)
        widget.set_class(not plain.strip(), "-empty")

    def refresh_view(self) -> None:
        """Redraw from the current state (subclasses)."""

    # ------------------------------------------------------------------ life cycle

    def on_resize(self) -> None:
        self._fit_width()
        for choices in self.query(ChoiceList):
            choices.fit_rows()

    def _fit_width(self) -> None:
        """Leave the board visible: take the columns to its right."""
        right = None
        for screen in reversed(self.app.screen_stack):
            if screen is self or isinstance(screen, DecisionDialog):
                continue
            hits = screen.query("#board")
            if hits:
                region = hits.first().region
                if region.width:
                    right = region.right
            break
        if right is None:
            return
        free = self.size.width - right
        width = max(self.MIN_WIDTH, min(free, self.MAX_WIDTH))
        try:
            self.query_one("#dialog").styles.width = width
        except NoMatches:  # resized before the box is composed
            pass

    def on_mount(self) -> None:
        if self._over:  # closed (Escape, a hand-over) before Textual had composed it: its
            return  # widgets were never mounted, and it is leaving the stack
        _hub(self.session).dialogs.add(self)
        self._fit_width()
        if not self.decision_open():
            self.finish()
            return
        self.refresh_view()
        self._label_keys()
        self.refresh_bindings()
        self.focus_main()

    def focus_main(self) -> None:
        """Focus the main list and show the top of the box (when the dialog opens)."""
        self._focus_list()
        self.call_after_refresh(self._scroll_top)

    def _shown(self, widget: Widget) -> bool:
        """``widget`` and every container up to this dialog are displayed."""
        node: DOMNode | None = widget
        while node is not None and node is not self:
            if not node.display:
                return False
            node = node.parent
        return node is self

    def _focus_list(self) -> None:
        """Keep the keys on a list: unless a shown list has the focus, focus the first shown
        one.  A state change can hide the focused list (a running auction hides the markets;
        a pending deal hides the grid) and show it again; Textual then leaves the focus
        elsewhere and Up/Down would stop working while the dialog's own keys still act."""
        focused = self.focused
        if isinstance(focused, ChoiceList) and self._shown(focused):
            return
        for widget in self.query(ChoiceList):
            if self._shown(widget):
                widget.focus(scroll_visible=False)
                return

    def _scroll_top(self) -> None:
        try:
            self.query_one("#dialog").scroll_home(animate=False)
        except NoMatches:  # closed before this frame
            pass

    def on_unmount(self) -> None:
        hub = _HUBS.get(self.session)
        if hub is not None:
            hub.dialogs.discard(self)
        if self._preview:
            self._preview = frozenset()
            try:
                top = self.app.screen
            except ScreenStackError:  # the app is shutting down
                return
            if not isinstance(top, DecisionDialog):
                self._send_preview(frozenset())

    def on_screen_resume(self) -> None:
        if self._over:
            self._dismiss_now()
            return
        self._box_visible(True)
        self._send_preview(self._preview)
        self.sync()

    def on_screen_suspend(self) -> None:
        # Another screen is on top: do not let two dialog boxes overlap.
        self._box_visible(False)

    def _box_visible(self, visible: bool) -> None:
        try:
            self.query_one("#dialog").display = visible
        except NoMatches:  # not composed yet, or already closed
            pass

    def sync(self) -> None:
        """The game state may have changed: dismiss if the decision is over, else redraw."""
        if self._over or not self.is_attached:
            return
        if not self.decision_open():
            self.finish()
            return
        try:
            self.refresh_view()
            # what the others did since this seat last acted: gone once it acts itself
            self.show("since", self.since_text())
        except Exception as err:  # noqa: BLE001 - any drawing fault: a message, never a traceback
            self.notify(f"Display problem: {err}", severity="error", markup=False)
        self._label_keys()
        self._focus_list()
        self.refresh_bindings()

    # ------------------------------------------------------------------ taking back

    def _undo_steps(self) -> int:
        if not getattr(self.session, "offers_undo", False):
            return 0
        try:
            return int(self.session.undo_reach().steps)
        except Exception:  # noqa: BLE001 - a session that cannot say: no key, never a traceback
            return 0

    def key_labels(self) -> dict[str, str]:
        """Footer labels in this edition's words, by binding id: a dialog's bindings are declared
        once, in The Grand Spectacle's words ("spend Aquila": the original's "spend medal")."""
        return {}

    def _label_keys(self) -> None:
        """The footer's labels that change: the undo key's count (with every move) and the
        edition's words (``key_labels``); this screen's copies of the bindings are replaced."""
        labels = {"dialog.undo": f"undo {self._undo_steps()}", **self.key_labels()}
        keys = self._bindings.key_to_bindings
        for key, found in keys.items():
            keys[key] = [replace(b, description=labels[b.id]) if b.id in labels else b for b in found]

    def can_undo(self) -> bool:
        return self._undo_steps() > 0

    def action_undo(self) -> None:
        """The app's ``u`` (a priority key) takes back; this binding shows the count."""
        self.app.call_later(self.app.run_action, "undo")

    def finish(self) -> None:
        """Close the dialog (now if it is on top, else as soon as it is)."""
        if self._over and not self.is_attached:
            return
        self._over = True
        self.set_preview(())
        self._dismiss_now()

    def hand_over(self) -> None:
        """Close for another seat at this keyboard whose decision comes first (hot seat); the
        decision itself goes on."""
        self.handed_over = True
        self.finish()

    def _dismiss_now(self) -> None:
        """Dismiss once, and only from the top of the stack (else when it gets there)."""
        if self._dismissed or not self.is_attached:
            return
        try:
            if self.app.screen is not self:
                return
        except ScreenStackError:  # the app is shutting down
            return
        self._dismissed = True
        self.dismiss()

    def action_close(self) -> None:
        """Escape: close without changing the game."""
        self.finish()

    # ------------------------------------------------------------------ acting

    def submit(self, action) -> bool:
        """Send ``action``; a rejected one shows the engine's message and changes nothing."""
        if not submit_or_notify(self, self.session, action):
            return False
        self.sync()
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Bindings show only when they do something: ``can_<action>()`` decides."""
        if self._over:
            return action == "close"
        test = getattr(self, f"can_{action}", None)
        if test is None:
            return True
        try:
            return bool(test())
        except Exception:  # noqa: BLE001 - a key whose test fails is hidden, never a traceback
            return False

    # ------------------------------------------------------------------ board preview

    def set_preview(self, spaces: Iterable[int]) -> None:
        """Highlight track spaces on the board (if the app under us can)."""
        self._preview = frozenset(spaces)
        self._send_preview(self._preview)

    def _send_preview(self, spaces: frozenset[int]) -> None:
        # To the app directly: this also runs while the dialog is being removed, when a
        # message posted to the dialog itself would no longer bubble.
        self.app.post_message(Preview(frozenset(spaces)))
