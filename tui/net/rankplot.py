"""A player's rating after each of their last rated games, as a plot on the profile
(``textual-plotext``, as the statistics screen draws: ``*`` on box-drawing axes), or ``None``
where a plot does not fit or colour is off; the profile then shows the numbers as a line of
text (D-80)."""

from __future__ import annotations

from typing import Any

from textual.widget import Widget

from colosseum.tui.screens.stats import plots_available

__all__ = ["PLOT_HEIGHT", "PLOT_MIN_HEIGHT", "PLOT_MIN_WIDTH", "plot_fits", "rating_plot"]

PLOT_HEIGHT = 9  # rows of the plot
PLOT_MIN_WIDTH = 50  # cells: narrower, the text line
PLOT_MIN_HEIGHT = 24  # terminal rows: fewer, the text line (the recent games need their rows)


def plot_fits(history: list[int], size: tuple[int, int], no_color: bool) -> bool:
    """Whether the rating history is drawn as a plot in a terminal of ``size`` (columns, rows)."""
    cols, rows = size
    return (
        len(history) > 1 and not no_color and cols >= PLOT_MIN_WIDTH and rows >= PLOT_MIN_HEIGHT and plots_available()
    )


def rating_plot(history: list[int], first: int = 1) -> Widget:
    """The plot of ``history`` (the rating shown after each game, oldest first; ``first`` the
    number of the oldest among the player's rated games)."""
    from textual_plotext import PlotextPlot

    plot = PlotextPlot(id="pf-plot")
    plt: Any = plot.plt
    xs = list(range(first, first + len(history)))
    plt.plot(xs, history, marker="*")
    plt.xticks(xs if len(xs) <= 10 else xs[:: -(-len(xs) // 10)])
    lo, hi = min(history), max(history)
    step = max(1, -(-(hi - lo) // 4))
    plt.yticks(list(range(lo, hi + step, step)) if hi > lo else [lo])
    plt.title("Rating after each rated game")
    return plot
