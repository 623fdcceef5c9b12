"""The hint: what the game's strongest bot (Colosseum's ``hard``) would do in the decision of the
player at the keyboard, for every game.

:func:`open_hint` (the game screen's ``h`` and the palette) pushes :class:`HintScreen`, which asks
the game's ``Rules.hint`` in a worker thread (the event loop goes on; a search takes about its
time budget), shows the bot's choice and, where it searched, the next best two with the share of
its playouts won and the mean final score, and records the hint: in the game's log as a hint
line (not an action) and for the viewer of the running game.  A hint never changes the game:
the search works on its own bot and a copy of nothing but the immutable state.  Escape closes
the screen at any time; a search still running then ends within its budget and is dropped.
The search runs in a thread of this process: it shares the interpreter with the event loop, which
stays responsive (the loop gets its turns) though slower while it thinks.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen

from colosseum.core.gamelog import HintLine
from colosseum.core.logwriter import LogFileError
from colosseum.tui.plain import Static
from colosseum.tui.viewer import remember_hint
from colosseum.tui.widgets.keybar import KeyBar

if TYPE_CHECKING:
    from colosseum.core.game import Rules
    from colosseum.tui.session import GameSession

__all__ = ["AnalysisScreen", "HintScreen", "hint_text", "open_hint", "record_hint"]

HINTS_OFF = "Hints are off at this table."
#: seconds the bot may think about a hint
DEFAULT_THINK = 1.0
#: ``h`` again asks the search again with this many times the budget (a fresh search: more playouts
#: a choice, so shares that can be told apart), up to MAX_THINK seconds (a session may allow
#: less: ``hint_max_think``, a server's)
LONGER = 3
MAX_THINK = 9.0
MAX_PLAYOUTS = 1000  # (a node budget: the same hint for the same position)


def ask_hint(rules: Rules[Any, Any, Any], state: Any, *, think: float | None, playouts: int | None) -> HintLine:
    """The game's hint for the seat to act in ``state`` (``Rules.hint``), in a worker thread."""
    return rules.hint(state, think=think, playouts=playouts)


def hint_bot(rules: Rules[Any, Any, Any]) -> str:
    """The bot that answers: ``Rules.hint`` is the ``hard`` search (core.search), else the game's
    strongest level."""
    levels = rules.spec.bot_levels
    if "hard" in levels:
        return "hard"
    return levels[-1] if levels else rules.spec.default_level


#: below this many playouts a share is noise (one win in two is 50%): the screen says so
FEW_PLAYOUTS = 5


def open_hint(game, think: float | None = None) -> HintScreen | None:
    """Push the hint screen for ``game`` (a GameScreen) if a local seat must decide now; else
    say why not.  Returns the screen pushed."""
    session = game.session
    if not session.offers_hint():
        game.notify(HINTS_OFF, title="Hint", severity="warning", markup=False)
        return None
    state = session.state
    seat = session.rules.to_act(state)
    if seat < 0 or seat not in session.local_seats():
        game.notify("A hint is for a decision of yours: none is waiting now.", title="Hint", markup=False)
        return None
    screen = HintScreen(session, state, think=DEFAULT_THINK if think is None else think)
    game.app.push_screen(screen)
    return screen


def record_hint(session: GameSession[Any, Any], line: HintLine) -> None:
    """Keep the hint with the game: the viewer of the running game shows it, and the game's log
    (when it is being saved) gets a hint line.  A log that cannot be written loses only the
    hint, never the game."""
    remember_hint(session, line)
    writer = getattr(getattr(session, "recorder", None), "writer", None)
    if writer is None:
        return
    try:
        writer.append_hint(line)
    except (LogFileError, OSError):
        pass


def hint_text(
    rules: Rules[Any, Any, Any], state: Any, line: HintLine, *, played: Any = None, in_play: bool = True
) -> Text:
    """The hint for the screen: the choice, why (its playouts), the next best two, and (a game
    ``in_play``) whom it is for; ``played`` (the review's analysis: the action the game went on
    with) is marked where the bot compared it."""
    out = Text()
    names = rules.names(state)
    name = names[line.seat] if 0 <= line.seat < len(names) else "you"
    score = rules.score_word(state)
    bot = hint_bot(rules)
    opts = line.hint
    if not opts:
        out.append(f"The {bot} bot finds nothing to compare here.")
        return out
    best = opts[0]
    mark = " (played)" if played is not None else ""
    out.append(f"The {bot} bot's choice: ")
    out.append(best.text or "-", style="bold")
    out.append(mark if best.action == played else "")
    out.append("\n")
    if best.playouts:
        out.append(f"  wins {best.win:.0%} of {best.playouts} playouts, mean {score} {best.acclaim:.1f}\n")
        others = [o for o in opts[1:] if o.playouts]
        if others:
            out.append("\nNext best:\n")
            for k, o in enumerate(others, start=2):
                out.append(f"  {k}. ")
                out.append(o.text or "-")
                out.append(mark if o.action == played else "")
                out.append(f"\n     wins {o.win:.0%} of {o.playouts}, mean {score} {o.acclaim:.1f}")
                if o.playouts < FEW_PLAYOUTS <= best.playouts:
                    out.append(" (too few playouts to tell)")
                out.append("\n")
        if best.playouts < FEW_PLAYOUTS:
            # (a game whose playouts are long, from its first moves: a share of 2 is 0%, 50% or 100%)
            out.append(f"\nOnly {best.playouts} playouts each fitted in the time: too few to tell these apart, ")
            out.append("so the shares above are not a ranking.\n")
        out.append("\nWhy: each choice was played to the end of the game by normal bots for every seat, ")
        out.append(f"on the same sampled luck ({rules.luck_words}); the bot keeps the normal bot's own ")
        out.append("choice unless another one does clearly better.")
    elif bot != rules.spec.default_level:
        out.append(f"  (the {rules.spec.default_level} bot's choice: there is nothing here the search compares)\n")
    if not in_play:
        return out
    # (not "the game waits": a table's clock runs on while the hint is read)
    out.append(f"\nFor {name}. A hint plays nothing for you; a table's clock keeps running.")
    return out


class HintScreen(ModalScreen[HintLine | None]):
    """Thinks in a thread, then shows the hint; dismissed with the hint (None if cancelled)."""

    BINDINGS = [
        Binding("escape", "close", "close", id="hint.close", key_display="esc"),
        Binding("enter", "close", "close", show=False, id="hint.close-enter"),
        # h again: the same meaning as on the game screen (the hint), asked for longer (D-66)
        Binding("h", "longer", "think longer", show=False, id="hint.longer"),  # (said on the screen)
    ]
    DEFAULT_CSS = """
    HintScreen { align: center middle; background: $background 40%; }
    HintScreen > Vertical {
        width: 72; max-width: 100%; height: auto; max-height: 100%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    HintScreen #hint-keys { margin-top: 1; color: $text-muted; }
    """

    def __init__(
        self,
        session: GameSession[Any, Any] | None,
        state: Any,
        *,
        think: float = DEFAULT_THINK,
        playouts: int | None = None,
        rules: Rules[Any, Any, Any] | None = None,
    ) -> None:
        """``session``: the game asked about (None for a review's analysis: ``rules`` then)."""
        super().__init__()
        self.session = session
        found = rules if rules is not None else getattr(session, "rules", None)
        if found is None:
            raise ValueError("a hint needs the game's rules")
        self.rules: Rules[Any, Any, Any] = found
        self.max_think: float = min(MAX_THINK, getattr(session, "hint_max_think", MAX_THINK))
        self.state = state  # the position asked about (immutable: the game goes on regardless)
        self.think = think
        self.playouts = playouts
        self.result: HintLine | None = None
        self._dropped = False
        self._future: asyncio.Future[HintLine] | None = None
        self._asked = 0  # searches started: an answer to an earlier one is not shown

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = Text(self.title_text())
            yield Static(self._thinking_text(), id="hint-text", markup=False)
            yield Static("esc close (cancels the search)", id="hint-keys", markup=False)
        yield KeyBar()  # this screen's keys, not those of the screen or dialog underneath

    def title_text(self) -> str:
        return f"Hint: what would the {hint_bot(self.rules)} bot do?"

    def _budget(self) -> str:
        return f"{self.playouts} playouts a choice" if self.playouts else f"about {self.think:g} s"

    def _thinking_text(self) -> Text:
        return Text(f"The {hint_bot(self.rules)} bot is thinking ({self._budget()})...")

    def on_mount(self) -> None:
        self._ask()

    def _ask(self) -> None:
        # A thread of the event loop's executor, not a worker of this screen: Escape closes the
        # screen at once, and the search, which cannot be interrupted, ends within its budget
        # on its own; its answer is then dropped.
        loop = asyncio.get_running_loop()
        rules = self.rules
        self._asked += 1
        asked = self._asked
        future = loop.run_in_executor(
            None, partial(ask_hint, rules, self.state, think=self.think, playouts=self.playouts)
        )
        future.add_done_callback(lambda done: self._done(done) if asked == self._asked else None)
        self._future = future

    def _longer_budget(self) -> tuple[float, int | None] | None:
        """The next search's (think, playouts), None when the budget is at its end or the
        answer came without a search (nothing to compare: more time would not change it)."""
        if self.result is not None and not any(o.playouts for o in self.result.hint):
            return None
        if self.playouts:
            return None if self.playouts >= MAX_PLAYOUTS else (self.think, min(MAX_PLAYOUTS, self.playouts * LONGER))
        if self.think >= self.max_think:
            return None
        return min(self.max_think, self.think * LONGER), None

    def action_longer(self) -> None:
        """Search again, longer: the answer shown stays until the new one replaces it."""
        nxt = self._longer_budget()
        if nxt is None or self._future is None or not self._future.done():
            self.app.bell()
            return
        self.think, self.playouts = nxt
        self.query_one("#hint-keys", Static).update(
            f"thinking longer ({self._budget()})...  esc close (cancels the search)"
        )
        self._ask()

    def _keys_text(self) -> str:
        nxt = self._longer_budget()
        if nxt is None:
            return "esc or enter close"
        longer = f"{nxt[1]} playouts a choice" if nxt[1] else f"{nxt[0]:g} s"
        return f"esc or enter close   h think longer ({longer})"

    def _done(self, future: asyncio.Future[HintLine]) -> None:
        if future.cancelled() or self._dropped:
            return
        error = future.exception()
        if error is not None:
            if self.is_attached:
                self.query_one("#hint-text", Static).update(Text(f"No hint: {type(error).__name__}: {error}"))
            return
        self._found(future.result())

    def _found(self, line: HintLine) -> None:
        if self._dropped or not self.is_attached:
            return  # cancelled: the hint is dropped, not recorded
        self.result = line
        self.record(line)
        self.query_one("#hint-text", Static).update(self.answer_text(line))
        self.query_one("#hint-keys", Static).update(self._keys_text())

    def record(self, line: HintLine) -> None:
        """Keep the hint with the game (its log, the viewer of the running game)."""
        if self.session is not None:
            record_hint(self.session, line)

    def answer_text(self, line: HintLine) -> Text:
        return hint_text(self.rules, self.state, line)

    def action_close(self) -> None:
        self._dropped = True
        self.dismiss(self.result)


class AnalysisScreen(HintScreen):
    """The review's analysis (``a``): what the hint bot would do at the position shown, beside
    what the game went on with.  Nothing is recorded: the game is a record, not a game in play."""

    def __init__(
        self, rules: Rules[Any, Any, Any], state: Any, played: Any = None, *, max_think: float = MAX_THINK
    ) -> None:
        super().__init__(None, state, rules=rules)
        self.max_think = min(MAX_THINK, max_think)
        self.played = played  # the action the game went on with (None: it went no further)

    def title_text(self) -> str:
        return f"Analysis: what would the {hint_bot(self.rules)} bot do here?"

    def answer_text(self, line: HintLine) -> Text:
        rules, state = self.rules, self.state
        names = rules.names(state)
        name = names[line.seat] if 0 <= line.seat < len(names) else "the player"
        if self.played is None:
            said = f"The game went no further here: {name} was to decide."
        else:
            said = f"In the game: {rules.action_text(state, self.played)}."
        out = Text(said + "\n\n", style="italic")  # first: what to compare the bot's choice with
        out.append_text(hint_text(rules, state, line, played=self.played, in_play=False))
        return out
