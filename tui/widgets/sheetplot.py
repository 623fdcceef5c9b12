"""Where one player's points came from, as a plot (the end screen's player pages at larger
sizes): a horizontal bar for each part that adds up to the final score, drawn with
``textual-plotext`` in ``#`` on box-drawing axes (ASCII, like every screen).  The page's text
lists the same parts with their values, so at 80x24, under ``NO_COLOR`` or without the plotting
package nothing is lost."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.widget import Widget

    from colosseum.core.game import ScoreSheet

#: the smallest terminal (columns, rows) a player's page draws its plot in
PLOT_MIN_SIZE = (100, 32)
#: cells a part's label may take beside its bar
LABEL_CELLS = 28


def parts(sheet: ScoreSheet, seat: int) -> list[tuple[str, int]]:
    """(label, value) of each part of ``seat``'s score, in the sheet's order.  A head that every
    label shares ("Best performance: ...") is left out: the plot's title says it."""
    from colosseum.tui.text import fit

    lines = [line for line in sheet.lines if line.adds]
    labels = [line.label for line in lines]
    heads = {label.split(": ", 1)[0] for label in labels}
    if len(labels) > 1 and len(heads) == 1 and all(": " in label for label in labels):
        labels = [label.split(": ", 1)[1] for label in labels]
    return [(fit(label, LABEL_CELLS), line.values[seat]) for label, line in zip(labels, lines, strict=True)]


def plot_fits(size: tuple[int, int], no_color: bool) -> bool:
    """Whether a terminal of ``size`` (columns, rows) shows the plot: large enough, colour on,
    and the plotting package installed."""
    if no_color or size[0] < PLOT_MIN_SIZE[0] or size[1] < PLOT_MIN_SIZE[1]:
        return False
    try:
        import textual_plotext  # noqa: F401
    except ImportError:
        return False
    return True


def sheet_plot(sheet: ScoreSheet, seat: int, name: str, colour: tuple[int, int, int] | None = None) -> Widget:
    """The plot of ``seat``'s parts (``name``: the player's, for the title), the bars in the
    seat's ``colour`` (red, green, blue) when given."""
    from textual_plotext import PlotextPlot

    shown = parts(sheet, seat)
    plot = PlotextPlot(classes="end-plot")
    # a bar a row with a row between (the y range from the first bar to the last: every bar
    # falls on a row of its own), the title, the frame and the ticks
    plot.styles.height = 2 * len(shown) - 1 + 4
    plt: Any = plot.plt
    labels = [label for label, _v in shown][::-1]  # (the first part at the top)
    values = [v for _label, v in shown][::-1]
    more: dict[str, Any] = {"color": colour} if colour is not None else {}
    plt.bar(labels, values, orientation="horizontal", marker="#", width=0.1, **more)
    if len(shown) > 1:
        plt.ylim(1, len(shown))
    low, high = min(0, *values), max(1, *values)
    step = max(1, -(-(high - low) // 5))
    plt.xticks(list(range(low - low % step if low % step else low, high + step, step)))
    plt.title(f"Where {name}'s {sheet.totals[seat]} {sheet.score_name} came from")
    return plot
