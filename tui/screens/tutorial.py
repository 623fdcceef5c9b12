"""The guided first game (``colosseum tutorial``, and offered once on the first start): a seeded
game against easy bots where, the first time the player faces each kind of decision, a note says
what the choice means, the rule behind it (with its id) and what the hint bot would do and why.

The game's words come through its client part (``GameClient.tutorial``: a ``core.tutorial.Tutorial``
from the game's package); nothing here names a game.  The note is a panel on the dialog's screen,
in the columns left of its box and above its key bar (it never covers the dialog), shown while
its decision is open and its dialog on screen.  ``k`` hides the note on screen, ``o`` every note for the rest of the
game; both are the app's (priority) keys, so they reach it from the dialog, and they act only
while a note is shown (no key of the game or its dialogs is ``k`` or ``o``: D-62).

A guided game is the game itself: the guide reads the session and never writes to it, and the
hint it shows is asked in a thread on the immutable position and is not kept in the log (the
log is that of the same game played without the guide).
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import TYPE_CHECKING, Any

from rich.style import Style
from rich.text import Text
from textual.binding import Binding

from colosseum.tui.base import BaseApp
from colosseum.tui.plain import Static

if TYPE_CHECKING:
    from textual.screen import Screen

    from colosseum.core.gamelog import HintLine
    from colosseum.core.tutorial import DecisionNote, Tutorial
    from colosseum.tui.session import GameSession, LocalSession

__all__ = ["GuidedApp", "NotePanel", "TutorialGuide", "first_start", "tutorial_session"]

SKIP_ID = "app.tutorial-skip"
OFF_ID = "app.tutorial-off"
#: seconds the hint bot thinks about a note's decision (the hint screen's budget)
THINK = 2.0
#: how often the guide looks at the game (it only reads it)
TICK = 0.2
#: the narrowest note, and the widest
MIN_WIDTH, MAX_WIDTH = 30, 60


# ====================================================================== the game and the first start


def tutorial_of(game: str | None) -> Tutorial | None:
    """``game``'s guided first game (its client part's), None if it has none."""
    from colosseum.core.registry import spec
    from colosseum.tui.client import load_client

    return load_client(spec(game)).tutorial()


def tutorial_session(game: str | None, player: str | None = None) -> LocalSession:
    """A new session of ``game``'s guided first game: seat 0 the player (``player``, else the
    game's first default name), the others the tutorial's bots.  ValueError if the game has none."""
    from colosseum.core.registry import spec
    from colosseum.tui.local import make_session

    found = spec(game)
    tutorial = tutorial_of(found.name)
    if tutorial is None:
        raise ValueError(f"{found.title} has no guided first game")
    me = (player or "").strip() or found.default_names[0]
    others = [n for n in found.default_names if n.casefold() != me.casefold()]
    names = (me, *others[: tutorial.players - 1])
    kinds = ("human",) + (tutorial.level,) * (tutorial.players - 1)
    return make_session(found.name, names, kinds, seed=tutorial.seed, options=dict(tutorial.options))


def first_start() -> bool:
    """Whether this is the first start: no settings file and no saved game (D-63)."""
    from colosseum.tui.settings import settings_path
    from colosseum.tui.storage import saved_games

    try:
        return not settings_path().exists() and not saved_games()
    except OSError:
        return False


# ====================================================================== the note


class NotePanel(Static):
    """The note, on the dialog's screen: left of its box, above its key bar.  A layer of its
    own, so that the screen's alignment of the box (to the right) leaves the box where it is."""

    DEFAULT_CSS = """
    NotePanel {
        layer: tutorial-note;
        position: absolute;
        border: round $accent;
        border-title-color: $accent;
        border-title-style: bold;
        border-subtitle-color: $foreground;
        background: $surface;
        padding: 0 1;
        width: 40;
        height: 8;
    }
    """


def note_text(
    note: DecisionNote, hint: HintLine | str, bot: str, score: str, name: str = "", policy: str = "normal"
) -> Text:
    """The note's words: what the choice means, the rule, the hint bot's choice and why."""
    from .hint import FEW_PLAYOUTS

    out = Text(note.what)
    out.append("\nRule ")
    out.append(", ".join(note.rule_ids), Style(bold=True))
    out.append(f": {note.rule}")
    out.append(f"\n{bot.capitalize()} bot: ")
    if isinstance(hint, str):
        out.append(hint)
        return out
    if not hint.hint:
        out.append("nothing to compare here.")
        return out
    best = hint.hint[0]
    choice = best.text or "-"
    if name and choice.startswith(name + " "):  # "Becky places ..." -> "places ..."
        choice = choice[len(name) + 1 :]
    out.append(choice.rstrip("."), Style(bold=True))
    if best.playouts:
        out.append(f"\nWhy: won {best.win:.0%} of {best.playouts} playouts, mean {score} {best.acclaim:.0f}")
        if best.playouts < FEW_PLAYOUTS:
            out.append(" (too few to tell)")
    else:  # a single sensible choice: the search keeps its playout bot's
        out.append(f"\nWhy: the {policy} bot's choice; nothing else here is worth comparing")
    return out


# ====================================================================== the guide


class TutorialGuide:
    """Watches one session's game on the app's screens and shows each kind's note once."""

    def __init__(
        self, session: GameSession[Any, Any], tutorial: Tutorial, *, think: float = THINK, playouts: int | None = None
    ) -> None:
        self.session = session
        self.tutorial = tutorial
        self.think = think
        self.playouts = playouts
        self.shown: list[str] = []  # the kinds whose note was shown, in order
        self.off = False  # `o`: no more notes in this game
        self.note: DecisionNote | None = None  # the note on screen
        self.hint: HintLine | str = "thinking..."
        self.panel: NotePanel | None = None  # the note, on the dialog's screen
        self._host: Screen[Any] | None = None  # that screen
        self._drawn: tuple[Any, ...] | None = None  # what the panel shows (drawn again when it changes)
        #: where the note stands on the screen: (x, y, width, height)
        self.placed: tuple[int, int, int, int] | None = None
        self._asked: Any = None  # the position the hint on screen is for

    # ---- what to show
    def wanted(self) -> DecisionNote | None:
        """The note of the decision a seat at this keyboard faces now (shown or not)."""
        session = self.session
        seat = session.waiting_for()
        if seat < 0 or seat not in session.local_seats():
            return None
        return self.tutorial.note(session.state)

    def tick(self, app: BaseApp) -> None:
        """Show the note of a kind of decision met for the first time; hide the one whose
        decision is over; keep the note beside the dialog."""
        game = self.game_screen(app)
        if game is None:
            return
        want = None if self.off else self.wanted()
        if self.note is not None and (want is None or want.kind != self.note.kind):
            self.hide()
        if self.note is None and want is not None and want.kind not in self.shown:
            self.shown.append(want.kind)
            self.note = want
        if self.note is not None:
            if self._asked is not self.session.state:  # a new decision, or the same one gone on
                self.hint = "thinking..."
                self._ask_hint()
            self._draw(app, game)

    def skip(self) -> None:
        """`k`: hide the note on screen (its kind is not shown again)."""
        self.hide()

    def notes_off(self) -> None:
        """`o`: no more notes in this game."""
        self.off = True
        self.hide()

    def hide(self) -> None:
        self.note = None
        self._asked = None
        self._take_down()

    # ---- the screens
    def game_screen(self, app: BaseApp) -> Screen[Any] | None:
        """The game screen of this guide's session, if it is on the app's stack."""
        for screen in app.screen_stack:
            if getattr(screen, "session", None) is self.session and hasattr(screen, "serves"):
                return screen
        return None

    def keys_work(self, app: BaseApp) -> bool:
        """Whether `k` and `o` act now: a note is shown and the game or its dialog is on top."""
        game = self.game_screen(app)
        return self.note is not None and game is not None and bool(getattr(game, "serves")(app.screen))  # noqa: B009

    def _draw(self, app: BaseApp, game: Screen[Any]) -> None:
        top = app.screen
        if top is game or not getattr(game, "serves")(top):  # noqa: B009
            # no dialog on top (closed with Escape; help, rules or the viewer over it): the note
            # comes back with its dialog
            self._take_down()
            return
        panel = self.panel
        if panel is None or self._host is not top:
            # The note stands on the dialog's screen: a change to the screen under a dialog
            # does not always reach the terminal.
            self._take_down()
            panel = self.panel = NotePanel()
            self._host = top
            top.mount(panel)
        assert self.note is not None
        rules = self.session.rules
        from .hint import hint_bot

        seat = self.session.waiting_for()
        names = rules.names(self.session.state)
        name = names[seat] if 0 <= seat < len(names) else ""
        text = note_text(
            self.note, self.hint, hint_bot(rules), rules.score_word(self.session.state), name, rules.spec.default_level
        )
        width, height = top.size
        w = max(MIN_WIDTH, min(MAX_WIDTH, self._free_width(top, game, width)))
        lines = len(text.wrap(app.console, w - 4))
        h = max(4, min(lines + 2, max(8, (height - 2) // 2), height - 2))
        place = (0, height - 1 - h, w, h)
        drawn = (place, self.note.kind, id(self.hint))
        if drawn == self._drawn:
            return  # nothing changed: no repaint
        self._drawn = drawn
        self.placed = place
        panel.border_title = Text(f"Guide: {self.note.title}")
        panel.border_subtitle = Text(f"{key_for(app, SKIP_ID, 'z')} skip note  {key_for(app, OFF_ID, 'Z')} notes off")
        panel.styles.offset = (place[0], place[1])
        panel.styles.width = w
        panel.styles.height = h
        panel.update(text)

    def _take_down(self) -> None:
        panel = self.panel
        self.panel = None
        self._host = None
        self._drawn = None
        if panel is not None and panel.is_attached:
            panel.remove()

    @staticmethod
    def _free_width(top: Screen[Any], game: Screen[Any], width: int) -> int:
        """The columns left of the dialog on top of the game (half the width without one)."""
        if top is game:
            return width // 2
        # the dialog's box (not its key bar, one row across the bottom, nor this note)
        boxes = [
            w.region
            for w in top.children
            if w.display and w.region.width and w.region.height > 1 and not isinstance(w, NotePanel)
        ]
        if not boxes:
            return width // 2
        return min(box.x for box in boxes)

    # ---- the hint (what the game's hint screen asks, in a thread; never recorded)
    def _ask_hint(self) -> None:
        from .hint import ask_hint

        state = self.session.state
        self._asked = state
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        future = loop.run_in_executor(
            None, partial(ask_hint, self.session.rules, state, think=self.think, playouts=self.playouts)
        )
        future.add_done_callback(partial(self._hint_done, state))

    def _hint_done(self, state: Any, future: asyncio.Future[HintLine]) -> None:
        if future.cancelled() or self._asked is not state:
            return  # the note was hidden or another decision came: dropped
        error = future.exception()
        self.hint = f"has no hint: {error}" if error is not None else future.result()


def key_for(app: BaseApp, binding_id: str, default: str) -> str:
    """The key the player's settings give a binding of the guide (else its default)."""
    keys = getattr(getattr(app, "user_settings", None), "keys", None) or {}
    return str(keys.get(binding_id, default)).split(",")[0]


# ====================================================================== the app's part


class GuidedApp(BaseApp):
    """What the client app adds for the guided game: the note keys, the guide's clock, and the
    first start's offer (``offer_tutorial``: set by ``colosseum`` without a command)."""

    BINDINGS = [
        # A decision dialog is modal: only a priority binding reaches the app from there.
        Binding("z", "tutorial('skip')", "Skip the note", show=False, id=SKIP_ID, priority=True),
        Binding("Z", "tutorial('off')", "No more notes", show=False, id=OFF_ID, priority=True),
    ]

    guide: TutorialGuide | None = None
    offer_tutorial: bool = False
    record: bool = False

    def guide_session(
        self, session: GameSession[Any, Any], *, think: float = THINK, playouts: int | None = None
    ) -> TutorialGuide | None:
        """Guide ``session``'s game (its game's tutorial notes); None if its game has none."""
        from colosseum.tui.client import load_client

        tutorial = load_client(session.spec).tutorial()
        if tutorial is None:
            return None
        self.guide = TutorialGuide(session, tutorial, think=think, playouts=playouts)
        if self.is_running:
            self._start_guide()
        return self.guide

    def on_mount(self) -> None:
        # (Textual calls every class's on_mount: ColosseumApp's runs too)
        if self.guide is not None:
            self._start_guide()
        if self.offer_tutorial:
            self.offer_tutorial = False
            # asked after the first frame: looking for saved games need not hold it up
            self.call_after_refresh(self._offer_on_first_start)

    def _start_guide(self) -> None:
        guide = self.guide
        if guide is not None:
            self.set_interval(TICK, partial(self._tick, guide), name="tutorial")

    def _tick(self, guide: TutorialGuide) -> None:
        if guide is self.guide:
            guide.tick(self)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "tutorial":
            from textual.widgets import Input

            guide = self.guide
            return guide is not None and guide.keys_work(self) and not isinstance(self.focused, Input)
        return super().check_action(action, parameters)

    def action_tutorial(self, what: str) -> None:
        guide = self.guide
        if guide is None:
            return
        if what == "off":
            guide.notes_off()
            self.notify("No more notes in this game.", title="Guide", timeout=3, markup=False)
        else:
            guide.skip()

    # ---- the first start (D-63)
    def _offer_on_first_start(self) -> None:
        if first_start():
            self._offer()

    def _offer(self) -> None:
        from colosseum.tui.settings import remember

        from .confirm import ConfirmScreen

        remember(tutorial_offered=True)  # asked once: the settings file now exists
        text = Text(
            "First time here? Play a guided first game: a seeded game against easy bots, with a "
            "short note at each new kind of decision (what it means, the rule, what the hint bot "
            "would do). `colosseum tutorial` starts it any time."
        )
        self.push_screen(ConfirmScreen("A guided first game?", text), self._offer_answered)

    def _offer_answered(self, yes: bool | None) -> None:
        if yes:
            self.start_tutorial(None)

    def start_tutorial(self, game: str | None) -> bool:
        """Start ``game``'s guided first game in this app (from the first start's offer)."""
        try:
            session = tutorial_session(game, remembered_name(self))
        except ValueError as err:
            self.notify(str(err), severity="error", markup=False)
            return False
        if self.record:
            from colosseum.tui.storage import record_game

            record_game(session)
        self.play_session(session)
        self.guide_session(session)
        return True

    def play_session(self, session: GameSession[Any, Any]) -> None:
        """Play ``session`` in place of whatever is on the stack (the client app's)."""
        raise NotImplementedError


def remembered_name(app: BaseApp) -> str | None:
    """The first name on the new-game screen last time, if one was kept."""
    names = getattr(getattr(app, "user_settings", None), "new_game", {}).get("names")
    if isinstance(names, list) and names and isinstance(names[0], str):
        return names[0]
    return None
