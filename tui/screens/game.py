"""The game screen, one for every game: the header line, the game's panels (its client part's
body), the key bar, and the shell's keys.

Flow: bots act on their own in a worker (``session.run_bots``); when a local human must act the
dialog the ``DialogDirector`` names opens (the game's dialog, else the plain chooser; also the
hot-seat hand-over between local seats); Escape closes it and Enter or ``a`` opens it again.
The panels follow the local player who must act (hot seat); keys 1-5 show any seat's board.

The shell's keys, bound here once for every game: ``a``/Enter act, ``u`` take back, ``1``-``5``
a player's board, ``f`` follow the turn, ``l`` the log, ``i`` detail, ``r`` rules, ``v`` review,
``e`` result, ``h`` hint, ``g`` bots play on, ``.`` step the bots.  A game adds its own keys
through its client part (``GameClient.bindings``: Colosseum's ``d`` deal), placed after the
board keys; every key has a binding id for the keymap in settings.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.worker import Worker

from colosseum.core.errors import RuleError
from colosseum.core.events import Event
from colosseum.tui.base import StyledOnMount, submit_or_notify
from colosseum.tui.client import GameBody, GameClient, load_client
from colosseum.tui.dialogs.frame import DecisionScreen
from colosseum.tui.session import GameSession
from colosseum.tui.widgets.header import HeaderLine
from colosseum.tui.widgets.keybar import KeyBar
from colosseum.tui.widgets.save_banner import SaveBanner

if TYPE_CHECKING:  # pragma: no cover
    # the dialogs are imported when the first one is needed, after the first paint
    from colosseum.tui.dialogs.director import DialogDirector

VIEW = Binding.Group("Board", compact=True)

#: seconds of quick bots' moves (bots without delay that do not think) played before a game's
#: first frame, so that it shows the first decision of a person at this terminal
QUICK_START = 0.1

#: the shell's keys before a game's own (which stand after the board keys) ...
KEYS_FIRST = [
    Binding("a", "act", "Act", id="game.act"),
    Binding("enter", "act", "Act", show=False, id="game.act-enter"),
    Binding("u", "undo", "Undo", id="game.undo"),
    # short words in the key bar (it must fit 80 columns); the help screen says more
    *(
        Binding(
            str(k + 1), f"view({k})", str(k + 1), group=VIEW, tooltip=f"View board {k + 1}", id=f"game.view-{k + 1}"
        )
        for k in range(5)
    ),
]
#: ... and after them
KEYS_LAST = [
    Binding("f", "follow", "Follow", tooltip="Follow the turn: show the board of who must act", id="game.follow"),
    Binding("l", "focus_log", "Log", id="game.log"),
    Binding("i", "detail", "Detail", id="game.detail"),
    Binding("r", "rules", "Rules", id="game.rules"),
    Binding("k", "legend", "Key", tooltip="the legend: what the codes and symbols mean", id="game.legend"),
    Binding("v", "review", "Review", id="game.review"),
    Binding("e", "end_screen", "Result", id="game.result"),
    # in the key bar where it fits (it leaves first at 80 columns); the palette and help list it
    Binding("h", "hint", "Hint", tooltip="hint: what would the bot do?", id="game.hint"),
    # not in the key bar (it is full at 80 columns): the palette and the help screen list them
    Binding("g", "rush", "bots play on to your next decision", show=False, id="game.rush"),
    Binding("full_stop", "step", "bots move one at a time", key_display=".", show=False, id="game.step"),
]
#: help on the screen itself, where the app it is pushed on has none (the lobby's)
HELP_KEYS = [
    Binding("f1", "help", "Help", id="game.help"),
    Binding("question_mark", "help", "Help", show=False, id="game.help-q"),
]


class GameScreen(StyledOnMount, Screen[None]):
    """One game.  Panels render from ``session.state``; actions go through ``session.submit``."""

    BINDINGS = [*KEYS_FIRST, *KEYS_LAST]

    #: what leaves the key bar first when it does not fit (all in the palette and F1 help)
    KEYBAR_SPARE = ("legend", "hint", "review", "focus_log", "detail", "rules", "quit")

    def __init__(
        self,
        session: GameSession[Any, Any],
        *,
        client: GameClient | None = None,
        bot_delay: float = 0.6,
        exit_at_end: bool = False,
        auto_dialogs: bool = True,
    ) -> None:
        super().__init__()
        self.session = session
        self.client = client if client is not None else load_client(session.spec)
        self.rules = session.rules
        own = list(self.client.bindings())
        if own:  # the game's keys after the board keys, as the key bar shows them
            shell = [b for keys in self._bindings.key_to_bindings.values() for b in keys]
            at = max(i for i, b in enumerate(shell) if b.action.startswith("view(")) + 1
            self._bindings = BindingsMap([*shell[:at], *own, *shell[at:]])
        self._own_keys = tuple(b.action for b in own)
        self._body: Widget = self.client.body()
        self.auto_dialogs = auto_dialogs
        self.bot_delay = bot_delay
        self.exit_at_end = exit_at_end
        self.viewed: int | None = None  # seat chosen with 1-5; None: follow the turn
        self._last_human = session.local_seats()[0] if session.local_seats() else 0
        self._sync_pending = False
        self._director: DialogDirector | None = None
        self._dialogs: list[ModalScreen[Any]] = []  # the dialogs this screen pushed, still open
        self._suppressed_at: int | None = None
        self._end_shown = False
        self._preview: Any = frozenset()
        self._stopped = False
        self._bots_worker: Worker[None] | None = None
        self._bindings_sig: tuple[Any, ...] | None = None
        self._rung_at: int | None = None  # the decision the bell last rang for
        self._handed: set[int] = set()  # seats whose dialog was handed over to another (hot seat)
        self._shown = False  # the screen has been shown (its first ScreenResume)

    @property
    def director(self) -> DialogDirector:
        """Which dialog opens (made on first use: the dialogs' modules are not needed to draw
        the game, so they load after its first paint)."""
        if self._director is None:
            from colosseum.tui.dialogs.director import DialogDirector

            self._director = DialogDirector(self.session, self.client)
        return self._director

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield HeaderLine(self.client, id="header")
        yield SaveBanner(self.session)
        yield self._body
        yield KeyBar()

    @property
    def body(self) -> GameBody:
        """The game's panels."""
        return cast("GameBody", self._body)

    def on_mount(self) -> None:
        if not hasattr(self.app, "action_help"):  # the screen brings its own help
            for b in HELP_KEYS:
                self._bindings.key_to_bindings.setdefault(b.key, []).append(b)
        if self.bot_delay <= 0 and self.session.local_seats():
            self._quick_start()  # (before listening: the sync below shows those moves)
        self.session.add_listener(self._on_game_event)
        self.sync()
        if self.session.bot_to_act():
            # the game moves on (bots thinking or paced) once it is on screen
            self.call_after_refresh(self.call_later, self.advance)
        else:
            # a person's decision is first: its dialog is drawn in the screen's first frame
            # (one paint, not the game's and then the dialog's over it; issue 23)
            self.advance()

    def _quick_start(self) -> None:
        """Bots without delay that do not think make their moves before a person's first
        decision before the first frame (at most 0.1 s of them), as they would in the first
        moments after it: that frame shows the person's decision."""
        try:
            self.session.play_quick_bots(QUICK_START)
        except Exception:  # noqa: BLE001 - the bots' worker plays on from here and says why
            return

    def on_unmount(self) -> None:
        self.session.remove_listener(self._on_game_event)

    def on_screen_resume(self) -> None:
        # a dialog taken off the stack without closing itself (popped) is closed like Escape
        for dialog in [d for d in self._dialogs if d not in self.app.screen_stack]:
            self._dialog_closed(dialog, None)
        if not self._shown:  # first shown just after on_mount, which drew and moved the game on
            self._shown = True
            return
        self._schedule()

    # ------------------------------------------------------------------ state -> panels
    @property
    def state(self) -> Any:
        return self.session.state

    @property
    def players(self) -> int:
        return len(self.session.seats)

    def view_seat(self) -> int:
        actor = self.session.waiting_for()
        local = self.session.local_seats()
        if actor in local:
            self._last_human = actor
        if self.viewed is not None and 0 <= self.viewed < self.players:
            return self.viewed
        if actor in local:
            return actor
        if local:
            return self._last_human
        return actor if actor >= 0 else 0

    def sync(self) -> None:
        """Redraw every panel from the session's state."""
        self._sync_pending = False
        st = self.state
        seat = self.view_seat()
        self.query_one(HeaderLine).show(st, seat)
        body = self.body
        body.show(st, seat, self.session.follow.marks(), chosen=self.viewed is not None)
        body.show_events(self.session.events)
        self._refresh_bindings_if_changed()
        top = self.app.screen
        if top is not self:
            # Under a dialog: Textual does not pass a background screen's re-layout (the log
            # grew and scrolled) on to the screen on top; repaint that one after this frame.
            self.call_after_refresh(self._repaint_top)

    def _repaint_top(self) -> None:
        """Repaint every screen above this one: with two dialogs stacked (Colosseum's Aquila
        move over the perform dialog) Textual does not carry this screen's repaint through the
        transparent screen in between."""
        if not self.is_attached:
            return
        stack = self.app.screen_stack
        if self in stack:
            for screen in stack[stack.index(self) + 1 :]:
                screen.refresh()

    def _binding_signature(self) -> tuple[Any, ...]:
        return (
            self.session.waiting_for() in self.session.local_seats(),
            self.session.local_seats(),  # (a seat handed to a bot, or moved to another connection)
            not self._dialogs,
            self.players,
            self.viewed,
            self.rules.is_over(self.state),
            tuple(self.client.key_enabled(self, a.split("'")[1]) for a in self._own_keys if "'" in a),
            self._undo_label(),
        )

    def _refresh_bindings_if_changed(self) -> None:
        """The footer rebuilds itself on every bindings refresh: only ask when a key's
        availability may have changed."""
        sig = self._binding_signature()
        if sig != self._bindings_sig:
            self._bindings_sig = sig
            self._label_undo_key()
            self.refresh_bindings()

    # ------------------------------------------------------------------ taking back
    def _undo_label(self) -> str:
        """The undo key's text: how many decisions can be taken back, or why none."""
        if not self.session.offers_undo:
            return ""
        reach = self.session.undo_reach()
        if reach.steps or reach.short == "nothing yet":  # the key bar is full at 80 columns
            return f"Undo {reach.steps}"
        return f"Undo 0 ({reach.short})"

    def _label_undo_key(self) -> None:
        # The key bar shows a binding's description: the count changes with every move, so
        # this screen's copy of the binding is replaced (the bindings are copied per screen).
        label = self._undo_label()
        keys = self._bindings.key_to_bindings
        keys["u"] = [replace(b, description=label or b.description) if b.action == "undo" else b for b in keys["u"]]

    def serves(self, screen: object) -> bool:
        """Whether ``screen`` is this game screen or a dialog it opened (keys there act here)."""
        return screen is self or screen in self._dialogs

    def has_dialogs(self) -> bool:
        return bool(self._dialogs)

    def action_undo(self) -> None:
        """Take back the last decision of the local seat that acted last (with the bot moves
        after it), back to the last chance event or another human's action."""
        if not self.session.offers_undo:
            return
        reach = self.session.undo_reach()
        try:
            line = self.session.undo()
        except RuleError as err:
            if reach.targets:  # it could be taken back: the refusal is news (e.g. the connection lost)
                self.notify(str(err), title="Not taken back", severity="error", markup=False)
            else:
                self.notify(reach.reason or str(err), title="Nothing to take back", severity="warning", markup=False)
            return
        self._suppressed_at = None
        self.viewed = None
        self.notify(line.text, title="Taken back", markup=False)

    def _on_game_event(self, state: Any, events: list[Event]) -> None:
        if any(e.kind == "chat" for e in events):
            self._chat_bell(events)
        self._schedule()

    def _schedule(self) -> None:
        """Redraw and move the game on once, however many changes arrive before then."""
        if not self._sync_pending:
            self._sync_pending = True
            self.call_later(self._sync_and_advance)

    def stop(self) -> None:
        """This game is left (a new one started): stop its bots and its dialogs."""
        self._stopped = True
        self.workers.cancel_node(self)

    def _sync_and_advance(self) -> None:
        if not self.is_attached or self._stopped:
            return
        try:
            self._close_unheld()
            self.sync()
            self.advance()
        except Exception as err:  # noqa: BLE001 - a drawing fault must not end the game
            self.notify(f"{type(err).__name__}: {err}", severity="error", title="Display", markup=False)

    def set_preview(self, value: Any) -> None:
        """Show on the panels what a dialog's highlighted choice would do (Colosseum: the track
        spaces it would put something on)."""
        self._preview = value
        self.body.set_preview(value)
        if self.app.screen is not self:
            # the panels are under the dialog that asked: see sync()
            self.call_after_refresh(self._repaint_top)

    # ------------------------------------------------------------------ flow
    def advance(self) -> None:
        """Start the bots, open the dialog a local human needs, or finish the game."""
        if not self.is_attached or self._stopped:
            return
        if self.rules.is_over(self.state):
            self._game_over()
            return
        if self.session.bot_to_act():
            worker = self._bots_worker
            if worker is None or worker.is_finished:
                self._bots_worker = self.run_bots()
            return
        self._decision_bell()
        self._open_wanted(auto=self.auto_dialogs)

    # ------------------------------------------------------------------ your-turn alert
    def _bell_on(self) -> bool:
        return bool(getattr(self.app, "bell_on", True))

    def _decision_bell(self) -> None:
        """Ring once when a decision arrives for a local seat after other players acted."""
        seat = self.session.waiting_for()
        made = len(self.session.actions)
        if seat not in self.session.local_seats() or self._rung_at == made:
            return
        self._rung_at = made
        from colosseum.tui.dialogs.director import serving

        if serving(self.app.screen_stack, seat) is not None:
            return  # its dialog is open (an auction going round): the decision goes on
        steps = self.session.follow.steps
        if steps and steps[-1].actor != seat and self._bell_on():
            self.app.bell()

    def _chat_bell(self, events: list[Event]) -> None:
        """Chat that names a local player rings too."""
        if not self._bell_on():
            return
        names = self.rules.names(self.state)
        mine = [names[s] for s in self.session.local_seats()]
        for e in events:
            if e.kind != "chat" or e.seat in self.session.local_seats():
                continue
            said = e.text.split(": ", 1)[-1].casefold()
            if any(name and name.casefold() in said for name in mine):
                self.app.bell()
                return

    @work(exclusive=True, group="bots")
    async def run_bots(self) -> None:
        try:
            await self.session.run_bots(self.bot_delay)
        except RuleError as err:  # a bot that cannot move must not crash the client
            self.notify(str(err), severity="error", title="Bot", markup=False)
        except Exception as err:  # noqa: BLE001 - shown, never a traceback
            self.notify(f"{type(err).__name__}: {err}", severity="error", title="Bot", markup=False)
            return
        self.sync()
        self.advance()

    def _open_wanted(self, *, auto: bool) -> None:
        """Push the dialog the director says the stack needs now, if any."""
        suppressed = self._suppressed_at == len(self.session.actions)
        # a seat whose dialog was handed over gets it back by itself, as if it had stayed open
        auto = auto or self.session.waiting_for() in self._handed
        dialog = self.director.next_dialog(self.app.screen_stack, self, auto=auto, suppressed=suppressed)
        if dialog is not None:
            self.push_dialog(dialog)

    def open_dialog(self) -> None:
        """Open the dialog of the local seat to act (``a``), if none is open."""
        if not self._dialogs:
            self._open_wanted(auto=True)

    def push_dialog(self, dialog: ModalScreen[Any]) -> None:
        """Open ``dialog`` over this screen (tracked: keys there act on this game)."""
        if not self._dialogs and self.viewed is not None:
            self.viewed = None  # the panels follow the player who must decide
            self.sync()
        top = self.app.screen
        if top in self._dialogs and isinstance(top, DecisionScreen) and not top.over:
            # Hot seat: another seat at this keyboard must act while the decision on screen
            # goes on (an auction going round, a deal waiting for answers).  One dialog at a
            # time: the one on screen is handed over and comes back, made anew from the state,
            # when its seat must act again.  (Dialogs stacked five deep, one per bidder, made
            # Textual's rendering of the translucent screens below recurse past Python's limit.)
            top.hand_over()
        self._handed.discard(getattr(dialog, "seat", -1))
        self._dialogs.append(dialog)
        self.app.push_screen(dialog, callback=lambda result: self._dialog_closed(dialog, result))
        self._refresh_bindings_if_changed()

    _push = push_dialog

    def _close_unheld(self) -> None:
        """Close the dialogs of seats this keyboard no longer plays (a server moved the seat to
        the player's newer connection, a bot plays it for them): a decision there is no longer
        ours to make.  Handed over, a dialog comes back by itself if its seat is ours again."""
        local = self.session.local_seats()
        for dialog in list(self._dialogs):
            if getattr(dialog, "seat", -1) in local or dialog is not self.app.screen:
                continue
            if isinstance(dialog, DecisionScreen):
                if not dialog.over:
                    dialog.hand_over()
            else:
                self._dialogs.remove(dialog)
                dialog.dismiss(True)  # (the chooser's "done": not an Escape that waits for 'a')

    def _dialog_closed(self, dialog: ModalScreen[Any], result: object = None) -> None:
        if isinstance(dialog, DecisionScreen):
            escaped = dialog.decision_open() and not dialog.handed_over
            if dialog.handed_over:
                self._handed.add(dialog.seat)
        else:  # the plain chooser dismisses with True once it has acted
            escaped = result is None
        if escaped and not self.rules.is_over(self.state):
            # closed while the decision it served is still open: Escape.  Wait for 'a'.
            self._suppressed_at = len(self.session.actions)
        if dialog in self._dialogs:
            self._dialogs.remove(dialog)
        self.session.release(dialog)
        if not self._dialogs:
            self.set_preview(frozenset())
        self._schedule()

    def _game_over(self) -> None:
        if self._end_shown:
            return
        self._end_shown = True
        if self.exit_at_end:
            self.app.exit(return_code=0)
            return
        self.action_end_screen()

    # ------------------------------------------------------------------ actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        session = self.session
        if action == "act":
            return session.waiting_for() in session.local_seats() and not self._dialogs
        if action == "view":
            return bool(parameters) and isinstance(parameters[0], int) and parameters[0] < self.players
        if action == "game_key":
            return bool(parameters) and self.client.key_enabled(self, str(parameters[0]))
        if action == "follow":
            return self.viewed is not None
        if action == "end_screen":
            return self.rules.is_over(self.state)
        if action in ("rush", "step"):
            return session.paced and not self.rules.is_over(self.state)
        if action == "undo":
            return session.offers_undo
        if action == "hint":  # a decision of a seat at this keyboard is waiting (a table
            # without hints still answers the key, with why not)
            return session.waiting_for() in session.local_seats()
        return True

    def action_game_key(self, name: str) -> None:
        """A key of the game's own (``GameClient.bindings``)."""
        self.client.key_pressed(self, name)

    def action_rush(self) -> None:
        """Let the bots play on without delay until a local seat must decide."""
        self.session.rush()
        self.notify("Bots play on to your next decision.", timeout=2)

    def action_step(self) -> None:
        """Step mode: each press lets one bot move through."""
        session = self.session
        if not session.stepping:
            session.stepping = True
            session.rushing = False
            self.notify("Bots move one at a time: press . for each move, g to let them run.", timeout=3)
        session.step()

    def action_act(self) -> None:
        self._suppressed_at = None
        self.open_dialog()

    def action_view(self, seat: int) -> None:
        if 0 <= seat < self.players:
            self.viewed = seat
            self.sync()

    def action_follow(self) -> None:
        self.viewed = None
        self.sync()

    def action_focus_log(self) -> None:
        for log in self.query("#log"):
            if isinstance(log, Widget):
                log.focus()
                return

    def action_detail(self) -> None:
        """The panels show (or stop showing) their detail (Colosseum: each spectacle's needs,
        holdings, missing types and strip, which fit by themselves only in a wide panel)."""
        self.body.toggle_detail()

    def action_help(self) -> None:
        from .help import HelpScreen

        self.app.push_screen(HelpScreen(self))

    def action_rules(self) -> None:
        from .rules import RulesScreen

        self.app.push_screen(RulesScreen(self.client, self.session.setup))

    def action_legend(self) -> None:
        from .legend import LegendScreen

        self.app.push_screen(LegendScreen(self.client, self.session.setup))

    def action_review(self) -> None:
        """Look back over the game so far without disturbing it: the viewer works on
        a copy of the actions; bots keep playing; a human's dialog waits until it closes."""
        from colosseum.tui.viewer import ViewerScreen

        try:
            viewer = ViewerScreen.from_session(self.session, client=self.client)
            viewer.timeline.state(viewer.timeline.end)  # every position now: one that cannot be had says so
        except ValueError as err:  # RuleError: a table's game replayed without what its seat may not see
            self.notify(f"The game so far cannot be reviewed here: {err}", severity="warning", markup=False)
            return
        from .hint import AnalysisScreen

        viewer.analyser = AnalysisScreen  # (``a``: where the game's hints are allowed, D-103)
        self.app.push_screen(viewer)

    def action_hint(self) -> None:
        """What would the game's strongest bot do in this decision (thought off the event loop)?"""
        from .hint import open_hint

        open_hint(self)

    def action_end_screen(self) -> None:
        from .ending import EndScreen

        if self.rules.is_over(self.state):
            self.app.push_screen(EndScreen(self.client, self.state, self.session))

    def submit(self, action: object) -> bool:
        """Submit for a widget: a rejected action shows its message and changes nothing."""
        return submit_or_notify(self, self.session, action)
