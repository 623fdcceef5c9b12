"""Saving that cannot fail silently: the banner the game screen shows while the game is not
being saved, the "save to another folder" prompt, and the question asked on quitting with
moves that are not on disk.

All three read a :class:`colosseum.tui.storage.Recorder` (``session.recorder``); a session
without one (a networked game, a game not recorded) shows nothing and quits at once.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input

from colosseum.tui.plain import Static
from colosseum.tui.widgets.cutlines import CutLines

if TYPE_CHECKING:  # (storage is loaded with the first recorder: no recorder can exist before)
    from colosseum.tui.storage import Recorder


def recorder_of(session: object) -> Recorder | None:
    storage = sys.modules.get("colosseum.tui.storage")
    if storage is None:
        return None
    rec = getattr(session, "recorder", None)
    return rec if isinstance(rec, storage.Recorder) and not rec.closed else None


def _moves(n: int) -> str:
    return f"{n} move{'s' if n != 1 else ''}"


def why(err: BaseException | None) -> str:
    """An OSError as a short sentence: ``Read-only file system: /data/games``."""
    if isinstance(err, OSError) and err.strerror:
        return err.strerror + (f": {err.filename}" if err.filename else "")
    return str(err) if err is not None else ""


def notice_text(rec: Recorder | None) -> Text | None:
    """The log resumed was damaged (``Recorder.notice``): one line, cut with an ellipsis, shown
    until a player of this screen makes a move."""
    if rec is None or rec.notice is None:
        return None
    session: Any = rec.session
    local = set(session.local_seats()) if hasattr(session, "local_seats") else set()
    if any(getattr(a, "player", -1) in local for a in list(session.actions)[rec.notice_at :]):
        rec.notice = None
        return None
    text = Text()
    text.append("LOG DAMAGED", style="bold reverse")
    text.append(f" {rec.notice}")
    return text


def banner_text(rec: Recorder | None) -> Text | None:
    """What the banner says (None: all is saved, no banner).  Plain text: paths and system
    messages are never markup."""
    if rec is None or rec.error is None:
        return notice_text(rec)
    text = Text()
    text.append("NOT SAVED", style="bold reverse")
    text.append(f" {why(rec.error)}.")
    n = rec.unsaved
    if n > 0:
        text.append(f" {_moves(n)} in memory only, retried each move; ")
    else:
        text.append(" Retried on each move; ")
    text.append("ctrl+p: Save to another folder", style="bold")
    return text


class SaveBanner(CutLines):
    """A line (or two) above the board while the game is not being saved; hidden otherwise."""

    DEFAULT_CSS = """
    SaveBanner { display: none; height: auto; max-height: 4; padding: 0 1;
                 background: $error; color: $text; }
    SaveBanner.-shown { display: block; }
    SaveBanner.-notice { background: $warning; color: $text; text-wrap: nowrap; }
    """

    def __init__(self, session: object, **kwargs: Any) -> None:
        super().__init__("", cut=False, **kwargs)
        self.session = session
        self._rec: Recorder | None = None

    def on_mount(self) -> None:
        self.follow_recorder()

    def follow_recorder(self) -> None:
        """Follow the session's recorder (again: the app starts recording a new game after its
        first frame)."""
        rec = recorder_of(self.session)
        if rec is not self._rec:
            if self._rec is not None:
                self._rec.remove_listener(self.changed)
            if rec is not None:
                rec.add_listener(self.changed)
            self._rec = rec
        self.changed(rec)

    def on_unmount(self) -> None:
        if self._rec is not None:
            self._rec.remove_listener(self.changed)

    def changed(self, rec: Recorder | None) -> None:
        """The recorder's listener: show, update or hide the banner."""
        text = banner_text(rec)
        notice = text is not None and (rec is None or rec.error is None)
        self.cut = notice  # one line, cut in ASCII
        self.update(text or "")
        self.set_class(text is not None, "-shown")
        self.set_class(notice, "-notice")
        failing = text is not None and rec is not None and rec.error is not None
        covered = self.is_attached and self.app.screen is not self.screen
        if text is not None and failing and covered and not self._told:
            # a dialog covers the banner (the game's first decision opens at once): the player
            # learns it on the screen they look at, once, until saving works again
            self.app.notify(text.plain, severity="error", timeout=10, markup=False)
        self._told = failing and (self._told or covered)

    _told = False  # the failure was said over a dialog


# ---------------------------------------------------------------------- save elsewhere


class SaveElsewhereScreen(ModalScreen[None]):
    """Ask for a folder and save the whole game there (recording goes on in the new file)."""

    DEFAULT_CSS = """
    SaveElsewhereScreen { align: center middle; }
    SaveElsewhereScreen > Vertical { width: 76; max-width: 100%; height: auto; padding: 1 2;
                                     border: round $primary; background: $surface; }
    SaveElsewhereScreen #save-problem { color: $error; }
    /* box drawing, not Input's block-element borders (some terminals draw those double width) */
    SaveElsewhereScreen Input, SaveElsewhereScreen Input:focus { border: round $accent; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, recorder: Recorder) -> None:
        super().__init__()
        self.recorder = recorder

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("Save the whole game to a new file in this folder (Enter; esc cancels):"))
            yield Input(value=str(_suggested_folder()), id="save-folder")
            yield Static("", id="save-problem")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        folder = event.value.strip()
        if not folder:
            return
        try:
            path = self.recorder.save_to(Path(folder))
        except OSError as e:
            self.query_one("#save-problem", Static).update(Text(f"Could not save there: {why(e)}"))
            return
        self.app.notify(f"The game is saved in {path}; it goes on being saved there.", title="Saved", markup=False)
        self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


def _suggested_folder() -> Path:
    try:
        return Path.home()
    except RuntimeError:  # no home folder
        from colosseum.tui.storage import rescue_places

        return rescue_places()[-1]


# ---------------------------------------------------------------------- quitting


class UnsavedQuitScreen(ModalScreen[bool]):
    """Quitting with moves not on disk: a copy of the whole game is written somewhere that
    works, and the player is told where before choosing to quit or stay."""

    DEFAULT_CSS = """
    UnsavedQuitScreen { align: center middle; }
    UnsavedQuitScreen > Vertical { width: 76; max-width: 100%; height: auto; padding: 1 2;
                                   border: round $error; background: $surface; }
    """
    BINDINGS = [
        Binding("q", "quit_anyway", "Quit"),
        Binding("ctrl+q", "quit_anyway", "Quit", show=False, priority=True),
        Binding("escape", "stay", "Stay"),
    ]

    def __init__(self, recorder: Recorder) -> None:
        super().__init__()
        self.recorder = recorder

    def compose(self) -> ComposeResult:
        rec = self.recorder
        n = rec.unsaved
        where = rec.writer.path if rec.writer is not None else None
        first = Text(
            f"The last {_moves(n)} could not be saved"
            + (f" in {where}" if where else "")
            + (f": {why(rec.error)}." if rec.error else ".")
        )
        copy = rec.rescue()
        if copy is not None:
            from colosseum.tui.storage import resume_command

            second = Text(f"A copy of the whole game was written to {copy}: continue it with `{resume_command(copy)}`.")
        else:
            second = Text(f"No copy could be written anywhere ({why(rec.error)}). Quitting loses those moves.")
        with Vertical():
            yield Static(first)
            yield Static(second)
            yield Static(Text("q: quit    esc: stay in the game", style="bold"))

    def action_quit_anyway(self) -> None:
        self.dismiss(True)

    def action_stay(self) -> None:
        self.dismiss(False)


def quit_checked(app: App[Any], session: object) -> None:
    """Quit ``app``, unless moves are not on disk: then write what can be written and ask."""
    rec = recorder_of(session)
    if rec is None or rec.flush():
        app.exit()
        return

    def done(quit_now: bool | None) -> None:
        if quit_now:
            app.exit()

    app.push_screen(UnsavedQuitScreen(rec), done)
