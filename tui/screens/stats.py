"""The statistics screen (from the new-game screen's F2 and the palette): the figures of
``colosseum stats`` (``tui/stats.py``) per game, scrollable, each game with two plots made with
``textual-plotext``: its scores' spread and its average score at the end of each round (or
turn).  A section is a game in one edition, in that edition's words (D-97).  Where a plot
does not fit (a narrow terminal) or colour is off (``NO_COLOR``), the same figures are text
tables.  The saved games are summed up off the event loop (a cold cache reads every log).

The plots draw in ASCII and box drawing only (``#`` bars, ``*`` lines), like every screen."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widget import Widget

from colosseum.tui.plain import Static
from colosseum.tui.widgets.keybar import KeyBar

if TYPE_CHECKING:
    from colosseum.tui.stats import GameTally, Tally

#: the narrowest body (cells) a plot is drawn in; narrower, the text tables
PLOT_MIN_WIDTH = 50
#: the rows of one plot
PLOT_HEIGHT = 12


def plots_available() -> bool:
    """Whether ``textual-plotext`` can be imported here (it is a dependency; a stripped-down
    install without it still shows the tables)."""
    try:
        import textual_plotext  # noqa: F401
    except ImportError:
        return False
    return True


class StatsScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "back", "Back", id="stats.back"),
        Binding("t", "toggle_tables", "Tables/plots", id="stats.tables"),
    ]
    DEFAULT_CSS = """
    StatsScreen { align-horizontal: center; }
    StatsScreen #stats-title { dock: top; height: 1; width: 1fr; background: $panel; color: $primary; text-style: bold; padding: 0 1; }
    StatsScreen #stats-body { width: 1fr; height: 1fr; border: round $primary 60%; border-title-color: $primary; padding: 0 1; }
    StatsScreen .stats-text { height: auto; }
    StatsScreen .stats-plot { height: 12; width: 1fr; margin: 1 0 0 0; }
    StatsScreen .stats-gap { height: 1; }
    """

    def __init__(self, folder: Path | None = None, player: str | None = None) -> None:
        super().__init__()
        self.folder = folder
        self.player = player
        self.tally: Tally | None = None
        self.where: Path | None = None
        self.count = 0
        self.problem = ""
        #: the person chose tables (``t``); else plots wherever they fit
        self.tables_chosen = False
        self._drawn_plots: bool | None = None

    def compose(self) -> ComposeResult:
        yield Static(" COLOSSEUM  Statistics of the saved games", id="stats-title")
        body = VerticalScroll(id="stats-body", can_focus=True)
        body.border_title = "Statistics"
        with body:
            yield Static("Reading the saved games...", id="stats-wait", classes="stats-text")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#stats-body").focus()
        self.run_worker(self._load, thread=True, exclusive=True, group="stats")

    def _load(self) -> None:
        from colosseum.tui.stats import load_tally

        try:
            tally, where, count = load_tally(self.folder, self.player)
        except (OSError, RuntimeError) as err:
            self.app.call_from_thread(self._failed, str(err))
            return
        self.app.call_from_thread(self._loaded, tally, where, count)

    def _failed(self, problem: str) -> None:
        self.problem = problem
        if not self.is_attached:  # closed while the games were read
            return
        self.query_one("#stats-wait", Static).update(f"The saved games cannot be read: {problem}")

    def _loaded(self, tally: Tally, where: Path, count: int) -> None:
        self.tally, self.where, self.count = tally, where, count
        if self.is_attached:  # (not closed while the games were read)
            self._draw()

    # ------------------------------------------------------------------ drawing
    def plots_shown(self) -> bool:
        """Plots, or the text tables: plots unless chosen off, colour is off, the body is too
        narrow or the plotting package is missing."""
        width = self.query_one("#stats-body").content_size.width or self.size.width - 4
        return (
            not self.tables_chosen
            and not getattr(self.app, "no_color", False)
            and width >= PLOT_MIN_WIDTH
            and plots_available()
        )

    def _draw(self) -> None:
        from colosseum.tui.stats import game_lines, not_counted, series_table, spread_table, who_of

        t = self.tally
        if t is None:
            return
        body = self.query_one("#stats-body", VerticalScroll)
        width = max(20, (body.content_size.width or self.size.width - 4) - 2)  # (the scrollbar's two)
        plots = self.plots_shown()
        self._drawn_plots = plots
        widgets: list[Widget] = []
        if not self.count:
            widgets.append(Static(f"No saved games in {self.where} yet.", classes="stats-text"))
        elif not t.games:
            from colosseum.tui.stats import render

            widgets.append(Static(render(t, width=width).rstrip("\n"), classes="stats-text"))
        for i, g in enumerate(t.games.values()):
            if i:
                widgets.append(Static("", classes="stats-gap"))
            widgets.append(Static("\n".join(game_lines(g, who_of(t), width, tables=False)), classes="stats-text"))
            if plots:
                widgets += _plots(g)
            else:
                tables = series_table(g, width) + spread_table(g, width)
                if tables:
                    widgets.append(Static("\n".join(tables), classes="stats-text"))
        if not_counted(t) and t.games:  # (with no game counted, the line above says it)
            widgets.append(Static(not_counted(t), classes="stats-text"))
        if self.count:
            widgets.append(
                Static(
                    f"({self.count} saved game{'' if self.count == 1 else 's'} in {self.where})", classes="stats-text"
                )
            )
        body.remove_children()
        body.mount_all(widgets)
        body.scroll_home(animate=False)

    def on_resize(self) -> None:
        if self.tally is not None and self._drawn_plots is not None and self.plots_shown() != self._drawn_plots:
            self._draw()

    # ------------------------------------------------------------------ keys
    def action_back(self) -> None:
        self.app.pop_screen()

    def action_toggle_tables(self) -> None:
        self.tables_chosen = not self.tables_chosen
        if not self.tables_chosen and not self.plots_shown():
            self.notify("Plots do not fit here (or colour is off): the tables stay.", timeout=3)
        self._draw()


def _plots(g: GameTally) -> list[Widget]:
    """The scores' spread (bars) and the average score by round (a line) of one game in one
    edition (each plot named by its title)."""
    from textual_plotext import PlotextPlot

    out: list[Widget] = []
    spread = g.spread()
    if spread:
        title = f"{g.title}: {g.score_name}, how often (games)"
        plot = PlotextPlot(classes="stats-plot", name=title)
        plt: Any = plot.plt
        labels = [f"{lo}" if lo == hi else f"{lo}-{hi}" for lo, hi, _c in spread]
        counts = [c for _lo, _hi, c in spread]
        plt.bar(labels, counts, marker="#", width=0.6)
        plt.yticks(_ticks(max(counts)))
        plt.title(title)
        out.append(plot)
    per = g.by_round()
    if len(per) > 1:
        title = f"{g.title}: average {g.score_name} by {g.series_name}"
        plot = PlotextPlot(classes="stats-plot", name=title)
        plt = plot.plt
        xs = list(range(1, len(per) + 1))
        plt.plot(xs, per, marker="*")
        plt.xticks(xs if len(xs) <= 12 else xs[:: -(-len(xs) // 12)])
        plt.title(title)
        out.append(plot)
    return out


def _ticks(most: int) -> list[int]:
    """Whole-number ticks from 0 to ``most``, at most six."""
    step = max(1, -(-most // 5))
    return list(range(0, most + step, step))
