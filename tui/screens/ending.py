"""The end screen's frame, for every game, in pages: first the result as the game's client part
tells it (``GameClient.end_text``: the ranking and how it was decided), then one page per
player, where their points came from (the game's ``Rules.score_sheet``, as ``tui/scoresheet.py``
writes it), each scrollable.  Left/Right turn the pages (the digits are the game screen's: a
player's board); Escape back to the board, ``n`` a new game, ``m`` a rematch of a local game (the
same seats, names, levels and options, a new seed, the next first player: ``local.rematch``), or
at a table asks its server for one (``ask_rematch``: everyone who played answers)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, cast

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen

from colosseum.tui.client import GameClient
from colosseum.tui.plain import Static
from colosseum.tui.widgets.keybar import KeyBar

if TYPE_CHECKING:
    from colosseum.core.game import ScoreSheet
    from colosseum.tui.session import GameSession


class _Host(Protocol):
    """What a rematch asks of the app (``ColosseumApp``; not imported: the app is above)."""

    record: bool

    def start_game(
        self,
        game: str,
        names: tuple[str, ...],
        kinds: tuple[str, ...],
        *,
        seed: int,
        options: dict[str, object] | None = None,
    ) -> bool: ...


class _Pages(VerticalScroll):
    """The page's frame says "Down: N more lines" while the page goes on below it (at 80x24 a
    4- or 5-player page is longer than the screen, and the thin scrollbar went unseen): after
    every scroll, change of the page's length, and resize."""

    def on_mount(self) -> None:
        self.watch(self, "scroll_y", lambda _y: self._more_below(), init=False)
        self.watch(self, "virtual_size", lambda _s: self._more_below(), init=False)

    def on_resize(self) -> None:
        self._more_below()

    def _more_below(self) -> None:
        below = self.max_scroll_y - round(self.scroll_y)
        self.border_subtitle = Text(f"Down: {below} more line{'s' if below != 1 else ''}") if below > 0 else ""


class EndScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "back", "Board", id="end.back"),
        Binding("n", "app.new_game", "New game", id="end.new"),
        Binding("m", "rematch", "Rematch", id="end.rematch"),
        Binding("right", "page(1)", "Pages", key_display="Left/Right", priority=True, id="end.next"),
        Binding("left", "page(-1)", "Page back", show=False, priority=True, id="end.prev"),
    ]
    DEFAULT_CSS = """
    EndScreen { align: center top; }
    EndScreen > #end-title { height: 1; width: 1fr; background: $panel; color: $primary; text-style: bold; padding: 0 1; }
    EndScreen > VerticalScroll { border: round $primary 60%; border-title-color: $primary; padding: 0 1; }
    """

    def __init__(self, client: GameClient, state: Any, session: GameSession[Any, Any] | None = None) -> None:
        super().__init__()
        self.client = client
        self.state = state
        self.session = session
        self.page = 0
        self._sheet: ScoreSheet | None = None
        self._sheet_problem = ""
        self._sheet_read = False

    def compose(self) -> ComposeResult:
        yield Static(f" {self.client.spec.title.upper()}  Game over: the final ranking", id="end-title")
        scroll = _Pages(id="end-body", can_focus=True)
        scroll.border_title = "Result"
        with scroll:
            yield Static(id="end-text")
            yield Static(id="end-more")  # (a player's page at larger sizes: the lines below the plot)
        yield KeyBar()

    def on_mount(self) -> None:
        self._draw()
        self.query_one("#end-body", VerticalScroll).focus()

    def on_resize(self) -> None:
        self._draw()

    # ------------------------------------------------------------------ the pages
    @property
    def names(self) -> list[str]:
        return list(self.client.spec.rules().names(self.state))

    def sheet(self) -> ScoreSheet | None:
        """The game's score sheet, worked out from the session's game once (None: the game has
        none, or this seat cannot replay the game: ``sheet_problem`` says why)."""
        if not self._sheet_read:
            self._sheet_read = True
            if self.session is not None:
                from colosseum.tui.scoresheet import sheet_of

                try:
                    self._sheet = sheet_of(self.session.rules, self.session.review_timeline())
                except ValueError as err:  # RuleError: a table's game without what this seat may see
                    self._sheet_problem = f"Where the points came from cannot be worked out here: {err}"
        return self._sheet

    @property
    def pages(self) -> int:
        """The result, and a page per player when the game has a score sheet.  A table's game
        is asked of its server (as the review is) only when a page is turned to."""
        from colosseum.tui.session import LocalSession

        if self.session is None:
            return 1
        if self._sheet_read or isinstance(self.session, LocalSession):
            return 1 + (len(self.names) if self.sheet() is not None else 0)
        return 1 + len(self.names)

    def _draw(self) -> None:
        body = self.query_one("#end-body", VerticalScroll)
        width = max(20, self.size.width - 6)
        pages = self.pages
        more = Text()
        for old in self.query(".end-plot"):
            old.remove()
        if self.page == 0:
            text = self.client.end_text(self.state, theme=self.app.theme, dark=self.app.current_theme.dark, width=width)
            if pages > 1:
                text.append("\nLeft/Right: where each player's points came from.", "dim")
            elif self._sheet_problem:
                text.append("\n" + self._sheet_problem, "dim")
            body.border_title = Text("Result" if pages == 1 else f"Result (1/{pages})")
        else:
            sheet = self.sheet()
            assert sheet is not None
            from colosseum.tui.scoresheet import RULE, seat_lines
            from colosseum.tui.text import fit

            seat = self.page - 1
            theme, dark = self.app.theme, self.app.current_theme.dark
            mark = self.client.marks(self.state, theme=theme)[seat] + " "
            lines = seat_lines(sheet, self.names, seat, width)
            text = Text()
            text.append(mark, self.client.seat_style(self.state, seat, theme=theme, dark=dark) + Style(bold=True))
            text.append(fit(lines[0], width - len(mark)) + "\n", "bold")
            from colosseum.tui.widgets.sheetplot import plot_fits, sheet_plot

            if plot_fits((self.size.width, self.size.height), bool(getattr(self.app, "no_color", False))):
                # the parts and their total, the plot, then the other figures
                end = next(i for i, line in enumerate(lines) if line.startswith(RULE)) + 2
                text.append("\n".join(lines[1:end]))
                more.append("\n".join(lines[end:]))
                colour = self.client.seat_style(self.state, seat, theme=theme, dark=dark).color
                rgb = None
                if colour is not None:
                    red, green, blue = colour.get_truecolor()
                    rgb = (red, green, blue)
                body.mount(sheet_plot(sheet, seat, self.names[seat], rgb), before="#end-more")
            else:
                text.append("\n".join(lines[1:]))
            body.border_title = Text(f"Where the points came from ({self.page + 1}/{pages})")
        self.query_one("#end-text", Static).update(text)
        shown_more = self.query_one("#end-more", Static)
        shown_more.update(more)
        shown_more.display = bool(more)

    def action_page(self, step: int) -> None:
        self.show(self.page + step)

    def show(self, page: int) -> None:
        """Turn to ``page`` (0: the result; a player's page from 1), kept within the pages."""
        page = max(0, min(page, self.pages - 1))
        if page and self.sheet() is None:  # a table's game that could not be replayed here
            page = 0
            self._draw()
        if page != self.page:
            self.page = page
            self._draw()
            self.query_one("#end-body", VerticalScroll).scroll_home(animate=False)

    def action_back(self) -> None:
        self.app.pop_screen()

    # ------------------------------------------------------------------ rematch
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "rematch":
            from colosseum.tui.session import LocalSession

            if getattr(self.session, "offers_rematch", False):  # a table's: its server makes it
                return True
            return isinstance(self.session, LocalSession) and hasattr(self.app, "start_game")
        return True

    def action_rematch(self) -> None:
        """The same table again in this app: the finished game's log is let go of, and the new
        game is saved as the finished one was."""
        from colosseum.tui.local import rematch
        from colosseum.tui.widgets.save_banner import recorder_of

        old = self.session
        if old is None or not self.check_action("rematch", ()):
            return
        ask = getattr(old, "ask_rematch", None)
        if ask is not None:  # at a table: everyone who played answers (D-76)
            ask()
            self.notify("A rematch is asked: the others at the table answer.", timeout=4)
            return
        again = rematch(old)
        app = cast(_Host, self.app)
        if recorder_of(old) is not None:
            from colosseum.tui.storage import finish_recording

            app.record = True  # (``colosseum play`` saves its first game without the flag)
            lost = finish_recording(old)
            if lost:
                self.notify(lost, severity="warning", timeout=8)
        app.start_game(again.game, again.names, again.kinds, seed=again.seed, options=again.options)
