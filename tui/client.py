"""The client interface: what the shell asks of a game's client part.

The shell (the app, the command line, the new-game screen, the game screen's frame, the viewer's
frame, help, rules, the end screen, storage, export, fork, the palette) talks to a game only
through ``colosseum.core.registry``, its ``Rules``, its ``GameSpec`` and option specs, and the
:class:`GameClient` found at ``spec.client_path`` (``load_client``).  A game with no client part
(``client_path == ""``) gets the shell's plain client (``tui/screens/plaingame.py``): a text
panel of the state and the plain chooser over ``rules.legal_actions``.

A client part is one object, ``CLIENT``, importable without Textual (``colosseum export`` and
``colosseum games`` use it): it loads its panels and dialogs when first asked.

No Textual at import time (only in annotations).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from colosseum.core.game import GameSpec, load_path

from .session import SessionHooks

if TYPE_CHECKING:
    from rich.style import Style
    from rich.text import Text
    from textual.binding import Binding
    from textual.screen import ModalScreen
    from textual.widget import Widget

    from colosseum.core.events import Event
    from colosseum.core.timeline import GameLog, Timeline
    from colosseum.core.tutorial import Tutorial

    from .session import GameSession

__all__ = ["PLAIN_CLIENT", "GameBody", "GameClient", "GameScreenView", "load_client"]

#: the shell's client for a game without its own
PLAIN_CLIENT = "colosseum.tui.screens.plaingame:CLIENT"


class GameBody(Protocol):
    """The panels of a game (a Textual widget the client makes), on the game screen and, with
    the history in place of the log, in the viewer.  A panel may carry the id ``board``: the
    dialogs of the game place themselves right of it, the table's clock goes in its border."""

    def show(self, state: Any, seat: int, marks: Any, *, chosen: bool = False) -> None:
        """Draw ``state`` as ``seat`` sees it (the seat viewed: 1-5, or the one to act), with
        the marks of the last move (the follow record's, or None); ``chosen``: the seat was
        chosen with 1-5 (not followed)."""

    def show_events(self, events: list[Event]) -> None:
        """The game's log (on the game screen; the viewer shows its history instead)."""

    def toggle_detail(self) -> None:
        """``i``: show or hide the panels' detail."""

    def set_preview(self, value: Any) -> None:
        """What a dialog's highlighted choice would do (``widgets.preview.Preview``)."""


class GameScreenView(Protocol):
    """What a client's own keys may use of the game screen."""

    session: GameSession[Any, Any]

    def view_seat(self) -> int: ...
    def has_dialogs(self) -> bool: ...
    def push_dialog(self, dialog: ModalScreen[Any]) -> None: ...
    def notify(
        self, message: str, *, title: str = "", severity: Any = "information", timeout: float | None = None
    ) -> None: ...


class GameClient:
    """A game's client part.  Every method has the shell's plain answer; a game overrides what
    it draws or says its own way."""

    spec: GameSpec  # set by load_client

    # ------------------------------------------------------------------ the session
    def session_hooks(self) -> SessionHooks:
        """What the game adds to a local session (a new object for each session)."""
        return SessionHooks()

    # ------------------------------------------------------------------ the game screen
    def body(self, history: Widget | None = None) -> Widget:
        """The game's panels (a :class:`GameBody`); ``history``: the viewer's history panel, to
        stand where the game screen has the game's log."""
        raise NotImplementedError

    def prompt(self, state: Any) -> tuple[int, str]:
        """(seat to act, what they must do now) in plain words; (-1, text) when nobody acts."""
        rules = self.spec.rules()
        seat = rules.to_act(state)
        if seat < 0:
            return -1, "game over"
        return seat, f"{rules.names(state)[seat]} to act"

    def header(self, line: Text, state: Any, seat: int, *, width: int, theme: str, dark: bool) -> None:
        """Append to the header ``line`` (the game's title and options are on it): where the
        game is and who must do what (within ``width`` cells; the line is cut there)."""
        line.append(f" {self.prompt(state)[1]}")

    def seat_style(self, state: Any, seat: int, *, theme: str, dark: bool) -> Style:
        """A seat's colour (the viewer's history): the theme's seat colours."""
        from rich.style import Style

        from colosseum.themes import DEFAULT_THEME, seat_colour

        if seat < 0:
            return Style()
        return Style(color=seat_colour(theme if theme.startswith("colosseum") else DEFAULT_THEME, seat), bold=False)

    def marks(self, state: Any, *, theme: str) -> tuple[str, ...]:
        """Each seat's one-cell mark in ``theme`` (the players table's, the board's): the seats'
        symbols in the colour-blind theme, else a letter a player."""
        from colosseum.tui.marks import player_marks

        return player_marks(list(self.spec.rules().names(state)), theme)

    #: words of option values in the header's tag, where they differ from the option's labels:
    #: value -> (narrow, wide) (Colosseum: "classic" -> ("Classic", "Classic 2007"))
    header_words: dict[str, tuple[str, str]] = {}

    def dialog(self, session: GameSession[Any, Any], seat: int) -> ModalScreen[Any] | None:
        """The dialog for the decision ``seat`` faces now (a ``dialogs.frame.DecisionScreen``),
        or None: the shell's plain chooser serves it."""
        return None

    def chooser_actions(self, state: Any) -> Sequence[Any]:
        """What the plain chooser offers: the rules' legal actions."""
        return self.spec.rules().legal_actions(state)

    def chooser_words(self, state: Any, action: Any) -> str:
        """An action in the plain chooser's words."""
        return self.spec.rules().describe(action)

    def chooser_preview(self, state: Any, action: Any) -> Any:
        """What the body should show while ``action`` is highlighted in the plain chooser."""
        return None

    # ---- the game's own keys on the game screen
    def bindings(self) -> Sequence[Binding]:
        """Keys of this game only, each ``Binding(key, "game_key('NAME')", ..., id="game.NAME")``
        (ids for the keymap in settings).  They stand in the key bar after the board keys."""
        return ()

    def key_enabled(self, screen: GameScreenView, name: str) -> bool:
        return False

    def key_pressed(self, screen: GameScreenView, name: str) -> None:
        """The game's key ``name`` on ``screen``."""

    def palette(self, screen: GameScreenView) -> list[tuple[str, Callable[[], object], str]]:
        """The game's own commands in the palette: (title, what it does, help)."""
        return []

    def tutorial(self) -> Tutorial | None:
        """The game's guided first game (``colosseum tutorial``): its seeded setup and a note
        for each kind of decision, the words in the game's package; None: the game has none."""
        return None

    #: ``i`` in the palette: (title, help)
    detail_help = ("Detail", "More about the viewed player (i)")

    # ------------------------------------------------------------------ words
    #: the rules in short shipped with the game: (package, file in it), read by
    #: ``tui/rules_summary.py``; None: the game has none
    rules_resource: tuple[str, str] | None = None

    def rules_edition(self, setup: Any) -> tuple[str, tuple[str, ...]]:
        """(edition, options in play) of ``setup`` for the rules in short (None: the game's
        first edition, no option): here the game's name and the setup's ``options``."""
        options = getattr(setup, "options", ()) if setup is not None else ()
        return self.spec.name, tuple(str(o) for o in options)

    def rules_text(self, setup: Any = None) -> Text:
        """The rules in short (``r``) of the edition and options of ``setup`` (None: the game's
        first edition)."""
        from rich.text import Text

        if self.rules_resource is None:
            return Text(f"{self.spec.title}: this program has no summary of its rules.")
        from .rules_summary import load_summary, summary_sections, summary_text

        edition, options = self.rules_edition(setup)
        return summary_text(summary_sections(load_summary(*self.rules_resource), edition, options))

    def legend(self, setup: Any = None) -> Sequence[tuple[str, Sequence[tuple[str, str]]]]:
        """What each code and symbol on the game's panels means, in the words of ``setup``'s
        edition (None: the game's first): (heading, [(symbol, meaning), ...]) for the legend
        (``k``) and the help screen."""
        return ()

    def help_panels(self) -> Sequence[tuple[str, str]]:
        """(panel, what it shows) for the help screen."""
        return ()

    def end_text(self, state: Any, *, theme: str, dark: bool, width: int) -> Text:
        """The end screen's content: the ranking and how it was decided (here: each seat's
        place and score, from the rules)."""
        from rich.style import Style
        from rich.text import Text

        rules = self.spec.rules()
        out = Text()
        for line in ranking_lines(rules, state):
            out.append(line + "\n", Style(bold=True) if not out else Style())
        return out

    def history_text(self, state: Any, action: Any) -> str:
        """A sentence for an action the engine said nothing about (the viewer, the record)."""
        rules = self.spec.rules()
        names = rules.names(state)
        who = names[action.player] if 0 <= action.player < len(names) else f"Seat {action.player}"
        return f"{who}: {rules.describe(action)}."

    def record_lines(self, log: GameLog, taken_back: dict[int, list[str]]) -> list[str]:
        """The body of the game's record (``colosseum export``), after the shell's head: here
        each action's sentences, then the ranking.  ``taken_back[i]``: lines to put after the
        action leading to position ``i`` (0: before the first; past the end: at the end)."""
        tl = log.timeline
        out: list[str] = [""] + taken_back.get(0, [])
        for i in range(1, len(tl)):
            texts = [e.text for e in tl.events(i) if e.text]
            said = " ".join(texts) if texts else self.history_text(tl.state(i - 1), tl.actions[i - 1])
            out.append(f"  {i}. {said}")
            out += taken_back.get(i, [])
        for i in sorted(k for k in taken_back if k > tl.end):
            out += taken_back[i]
        final = tl.state(tl.end)
        rules = self.spec.rules()
        out += ["", "== Final ranking ==" if rules.is_over(final) else f"== Unfinished: {rules.progress(final)} =="]
        out += ["  " + line for line in ranking_lines(rules, final)[1:]]
        return out

    def viewer_marks(self, timeline: Timeline, index: int) -> Any:
        """The marks of the last move at position ``index`` of a game reviewed (as in a game)."""
        return None

    def where(self, state: Any) -> str:
        """Where a position is in the game, in a few words ("round 3, Invest")."""
        return self.spec.rules().progress(state)


def ranking_lines(rules: Any, state: Any) -> list[str]:
    """Who won (or "the game goes on"), then each seat's place and score, best first."""
    from .text import pad

    names = rules.names(state)
    scores = rules.scores(state)
    ranks = rules.ranks(state)
    word = rules.score_word(state)
    if ranks is None:
        order = sorted(range(len(names)), key=lambda s: -scores[s])
        head = f"The game goes on: {rules.progress(state)}."
        places = [""] * len(names)
    else:
        order = sorted(range(len(names)), key=lambda s: (ranks[s], s))
        winners = [names[s] for s in order if ranks[s] == 1]
        head = f"{' and '.join(winners)} {'win' if len(winners) > 1 else 'wins'}."
        places = [f"{ranks[s]}." for s in range(len(names))]
    width = max(len(p) for p in places) if places else 0
    lines = [head]
    for s in order:
        lines.append(f"{places[s]:<{width}} {pad(names[s], 16)} {scores[s]:>3} {word}".strip())
    return lines


_LOADED: dict[str, GameClient] = {}


def load_client(spec: GameSpec) -> GameClient:
    """The client part of ``spec``'s game (the shell's plain one when it has none)."""
    path = spec.client_path or PLAIN_CLIENT
    key = f"{spec.name}|{path}"
    client = _LOADED.get(key)
    if client is None:
        found = load_path(path)
        client = found(spec) if isinstance(found, type) else found
        if not isinstance(client, GameClient):
            raise ValueError(f"{path} is not a game client")
        if not spec.client_path:  # the plain client serves any game: one per game
            client = type(client)()
        client.spec = spec
        _LOADED[key] = client
    return client
