"""The main screen's panels, each a line-API panel (``build_lines() -> list[Text]``, only the
rows that changed are repainted): the header, the board, the players and the log.

Colour is a second channel: players are letters (a, b, ...) in their family's colour, citizens
are P S M A in their kind's colour, so everything reads with NO_COLOR or 16 colours.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widget import Widget

from colosseum.core.games.municipium import Event, State, target, to_act
from colosseum.core.games.municipium.board import ranking, temple_pos
from colosseum.tui.widgets.keybar import key_for
from colosseum.tui.widgets.lines import LinePanel

from .text import (
    CARD_SHORT,
    ORDINALS,
    ROMAN,
    cat,
    citizens_text,
    kind_letter,
    kind_style,
    letters,
    pad,
    seat_style,
    wrap_cells,
)

DIM = Style(dim=True)
BOLD = Style(bold=True)


class _Panel(LinePanel):
    """A panel showing one state; ``dark`` follows the app's theme."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.state: State | None = None

    def show(self, state: State) -> None:
        self.state = state
        self.redraw()

    @property
    def dark(self) -> bool:
        try:
            return bool(self.app.current_theme.dark)
        except Exception:  # noqa: BLE001 - no app yet (a panel built in a test)
            return True

    @property
    def theme_name(self) -> str:
        """The app's theme (the players' marks follow it: letters, or symbols)."""
        try:
            return str(self.app.theme)
        except Exception:  # noqa: BLE001 - no app yet (a panel built in a test)
            return ""

    @property
    def width(self) -> int:
        return self.content_region.width or 44


# ====================================================================== board


def members_cell(st: State, inst: int, cells: int, dark: bool, theme: str = "") -> Text:
    """Players at ``inst`` in ranking order: mark, members, one '*' per crowned member."""
    t = Text()
    let = letters(st, theme)
    for seat in ranking(st, inst):
        p = st.players[seat]
        n = p.plain[inst] + p.crowned[inst]
        c = p.crowned[inst]
        mark = "*" * c if c <= 2 else f"*{c}"
        piece = f"{let[seat]}{n}{mark}"
        if t.cell_len + (1 if t else 0) + len(piece) > cells:
            if t.cell_len < cells:
                t.append("~")  # (ASCII: "…" is two cells wide in some terminals)
            break
        if t:
            t.append(" ")
        t.append(piece, seat_style(st, seat, dark))
    t.append(" " * max(0, cells - t.cell_len))
    return t


class BoardPanel(_Panel):
    """The seven institutions: number, name, members (by rank), banner, chamber, roads; the
    Temple order and the supplies below."""

    DEFAULT_CSS = """
    BoardPanel { border: round $primary 60%; border-title-color: $primary; height: 11; }
    """

    def on_mount(self) -> None:
        self.border_title = "Board"
        self.border_subtitle = "G governor f favour * crown"

    def build_lines(self) -> list[Text]:
        st = self.state
        if st is None:
            return []
        c = cat()
        dark = self.dark
        width = self.width
        name_w = 10
        members_w = max(8, width - 32)
        head = Text(
            pad("No", 4) + pad("Name", name_w + 1) + pad("Members", members_w + 1) + "Ban Chm  Roads",
            DIM,
        )
        lines = [head]
        for i in range(7):
            t = Text()
            t.append(pad(ROMAN[i], 4), BOLD)
            t.append(pad(c.inst_name(i), name_w + 1))
            t.append_text(members_cell(st, i, members_w, dark, self.theme_name))
            t.append(" ")
            banner = Text()
            for k, n in enumerate(st.banners[i]):
                for _ in range(n):
                    banner.append(kind_letter(k), kind_style(k, dark))
            banner.append("." * max(0, 2 - banner.cell_len), DIM)
            banner.append(" " * max(0, 3 - banner.cell_len))  # 3 only while an event runs
            t.append_text(banner)
            t.append(" ")
            if i in c.chambers:
                t.append("G" if st.governor == i else " ", Style(bold=True, reverse=st.governor == i))
                t.append("f" if st.favour_spaces[i] else ".", BOLD if st.favour_spaces[i] else DIM)
                k = st.chamber[i]
                if k >= 0:
                    t.append(kind_letter(k), kind_style(k, dark))
                else:
                    t.append(".", DIM)
            else:
                t.append(" - ", DIM)
            t.append("  ")
            t.append(" ".join(ROMAN[j] for j in c.adjacent[i]), DIM)
            lines.append(t)
        lines.append(self._supplies(st, width, dark))
        return lines

    def _supplies(self, st: State, width: int, dark: bool) -> Text:
        t = Text()
        t.append("Temple order ", BOLD)
        let = letters(st, self.theme_name)
        if st.temple:
            for pos, seat in enumerate(st.temple):
                t.append(f"{pos + 1}", DIM)
                t.append(let[seat], seat_style(st, seat, dark))
                t.append(" ")
        else:
            t.append("set after placement", DIM)
        title = f"Board: deck {len(st.deck)} bag {sum(st.bag)} favours {st.favour_supply} wreaths {st.wreaths}"
        if len(title) > width - 6:  # the border's corners and gaps
            title = f"Board: deck {len(st.deck)} bag {sum(st.bag)} fav {st.favour_supply} wr {st.wreaths}"
        if title != self.border_title:
            self.border_title = Text(title)
        return t


# ====================================================================== players


class PlayersPanel(_Panel):
    """Two rows a player: '>' to act, letter, name, decurions, favours, citizens by kind; then
    the family cards left and the Temple rank.  With ``sheet`` set to a seat (1-4, or ``i``),
    that family's sheet instead: its members at each institution, its cards and holdings."""

    DEFAULT_CSS = """
    PlayersPanel { border: round $primary 60%; border-title-color: $primary; height: 1fr; min-height: 10; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.sheet: int | None = None
        self._shown_titles = ("Families", "D decurions F favours")

    def show(self, state: State) -> None:
        # what it needs at least; the rest of the column too (its border meets the log's)
        height = 2 * state.n + 2 if self.sheet is None else max(2 * state.n + 2, SHEET_ROWS)
        if self.styles.min_height is None or self.styles.min_height.value != height:
            self.styles.min_height = height
        super().show(state)

    def on_mount(self) -> None:
        self.border_title = "Families"
        self.border_subtitle = "D decurions F favours"

    def build_lines(self) -> list[Text]:
        st = self.state
        if st is None:
            return []
        if self.sheet is not None and 0 <= self.sheet < st.n:
            return self._sheet(st, self.sheet)
        dark = self.dark
        width = self.width
        # the goal: the top line drops it where the prompt fills the line (always at 80 columns)
        goal = f"Families - goal {target(st)} decurions"
        self._titles(goal if len(goal) <= width - 4 else "Families", "D decurions F favours")
        actor = to_act(st)
        let = letters(st, self.theme_name)
        lines: list[Text] = []
        for s, p in enumerate(st.players):
            style = seat_style(st, s, dark)
            right = Text(f" D{p.decurions} F{p.favours} ")
            right.stylize(BOLD, 0, 3)
            right.append_text(citizens_text(p.citizens, dark, zero=True))
            t = Text()
            t.append(">" if s == actor else " ", BOLD)
            t.append(f"{let[s]} ", style)
            name_w = max(4, width - 3 - right.cell_len)
            t.append(pad(p.name, name_w), style)
            t.append_text(right)
            lines.append(t)
            t2 = Text("   ")
            if p.family:
                t2.append(" ".join(CARD_SHORT[x] for x in p.family))
            else:
                t2.append("no family cards", DIM)
            if st.temple:
                rank = f"Temple {ORDINALS[temple_pos(st, s)]}"
                gap = width - t2.cell_len - len(rank)
                if gap >= 1:
                    t2.append(" " * gap)
                    t2.append(rank, DIM)
            lines.append(t2)
        return lines

    def _titles(self, title: str, subtitle: str) -> None:
        """Set the border's words where they changed (a border repaints its panel)."""
        if (title, subtitle) != self._shown_titles:
            self._shown_titles = (title, subtitle)
            self.border_title = Text(title)
            self.border_subtitle = Text(subtitle)

    def _sheet(self, st: State, seat: int) -> list[Text]:
        """One family's sheet: holdings, cards, and its members at each institution."""
        dark = self.dark
        width = self.width
        p = st.players[seat]
        style = seat_style(st, seat, dark)
        key = key_for(self, "follow")
        self._titles(f"Family {letters(st, self.theme_name)[seat]} ({seat + 1})", f"{key}: every family" if key else "")
        right = Text(f" D{p.decurions} F{p.favours} ")
        right.stylize(BOLD, 0, 3)
        right.append_text(citizens_text(p.citizens, dark, zero=True))
        head = Text(">" if to_act(st) == seat else " ", BOLD)
        head.append(f"{letters(st, self.theme_name)[seat]} ", style)
        head.append(pad(p.name, max(4, width - 3 - right.cell_len)), style)
        head.append_text(right)
        lines = [head]
        cards = Text("   cards ")
        cards.append(" ".join(CARD_SHORT[x] for x in p.family) or "none", Style() if p.family else DIM)
        if p.spent:
            cards.append("; spent " + " ".join(CARD_SHORT[x] for x in p.spent), DIM)
        lines.append(cards)
        temple = f"   Temple {ORDINALS[temple_pos(st, seat)]}" if st.temple else "   Temple order after placement"
        led = [ROMAN[i] for i in range(7) if ranking(st, i)[:1] == (seat,)]
        lines.append(Text(temple + ("   leads " + " ".join(led) if led else ""), DIM))
        half = max(10, (width - 1) // 2)
        c = cat()
        for row in range(4):
            t = Text()
            for i in (row, row + 4):
                if i > 6:
                    continue
                n, k = p.plain[i], p.crowned[i]
                where = pad(f"{ROMAN[i]} {c.inst_name(i)}", half - 6)
                count = f"{n + k}" + ("*" * k if k <= 2 else f"*{k}")
                t.append(where)
                t.append(pad(count if n + k else "-", 6), style if n + k else DIM)
            lines.append(t)
        return lines


#: rows of a family's sheet (its border included)
SHEET_ROWS = 9


# ====================================================================== log


class LogPanel(_Panel, can_focus=True):
    """Every event as a sentence, newest at the bottom, wrapped by terminal cells.  Focus it
    (l) to scroll back with the arrows, PgUp/PgDn, Home and End."""

    DEFAULT_CSS = """
    LogPanel { border: round $primary 60%; border-title-color: $primary; height: 1fr; min-height: 4; }
    LogPanel:focus { border: round $accent; }
    """
    BINDINGS = [
        Binding("up", "back(1)", "Log: scroll up", show=False, id="mlog.up"),
        Binding("down", "back(-1)", "Log: scroll down", show=False, id="mlog.down"),
        Binding("pageup", "page(1)", "Log: page up", show=False, id="mlog.pageup"),
        Binding("pagedown", "page(-1)", "Log: page down", show=False, id="mlog.pagedown"),
        Binding("home", "oldest", "Log: oldest", show=False, id="mlog.home"),
        Binding("end", "newest", "Log: newest", show=False, id="mlog.end"),
    ]

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.events: list[Event] = []
        self.back = 0  # lines scrolled back from the newest
        self._wrapped: list[tuple[int, str]] = []
        self._wrapped_width = 0
        self._wrapped_count = 0

    def on_mount(self) -> None:
        self.border_title = "Log"

    def show_events(self, events: list[Event]) -> None:
        n = self._wrapped_count
        if len(events) < n or (n and events[n - 1] is not self.events[n - 1]):
            self._wrapped_count = 0
            self._wrapped = []
        self.events = list(events)
        self.redraw()

    def wrapped(self, width: int) -> list[tuple[int, str]]:
        """(event index, one line) for every event at ``width``, wrapped once per event; a
        turn's first event is preceded by a heading line (index -1)."""
        if width != self._wrapped_width:
            self._wrapped_width = width
            self._wrapped_count = 0
            self._wrapped = []
        for i in range(self._wrapped_count, len(self.events)):
            ev = self.events[i]
            if ev.round >= 1 and (i == 0 or self.events[i - 1].round != ev.round):
                self._wrapped.append((-1, f"-- Turn {ev.round} --"))  # a new turn begins
            self._wrapped.extend((i, line) for line in wrap_cells(ev.text, width))
        self._wrapped_count = len(self.events)
        return self._wrapped

    def build_lines(self) -> list[Text]:
        width = self.width
        height = self.content_region.height or 10
        rows = self.wrapped(width)
        self.back = max(0, min(self.back, len(rows) - height))
        end = len(rows) - self.back
        start = max(0, end - height)
        st = self.state
        dark = self.dark
        out: list[Text] = []
        for i, line in rows[start:end]:
            if i < 0:
                out.append(Text(line, BOLD))
                continue
            ev = self.events[i]
            if ev.kind in ("turn", "end", "temple"):
                style = BOLD
            elif st is not None and 0 <= ev.seat < st.n:
                style = seat_style(st, ev.seat, dark, bold=False)
            else:
                style = Style()
            out.append(Text(line, style))
        subtitle = f"{self.back} lines back, End: newest" if self.back else ""
        if subtitle != (self.border_subtitle or ""):
            self.border_subtitle = Text(subtitle)
        return out

    def _scroll(self, lines: int) -> None:
        self.back = max(0, self.back + lines)
        self.redraw()

    def action_back(self, lines: int) -> None:
        self._scroll(lines)

    def action_page(self, pages: int) -> None:
        self._scroll(pages * max(1, (self.content_region.height or 10) - 1))

    def action_oldest(self) -> None:
        self._scroll(10**6)

    def action_newest(self) -> None:
        self.back = 0
        self.redraw()


# ====================================================================== the body


class MuniBody(Horizontal):
    """Municipium's panels as the shell's game body (``client.GameBody``): the board over the
    families on the left, the log (in the viewer: the history) on the right."""

    DEFAULT_CSS = """
    MuniBody { height: 1fr; }
    MuniBody > #left { width: 46; height: 1fr; }
    MuniBody > .muni-log { width: 1fr; height: 1fr; }
    """

    def __init__(self, log: Widget) -> None:
        super().__init__(id="main")
        self._log = log
        log.add_class("muni-log")
        self.detail = False

    def compose(self) -> ComposeResult:
        with Vertical(id="left"):
            yield BoardPanel(id="board")
            yield PlayersPanel(id="players")
        yield self._log

    def show(self, state: State, seat: int, marks: object, *, chosen: bool = False) -> None:
        self.query_one(BoardPanel).show(state)
        players = self.query_one(PlayersPanel)
        players.sheet = seat if chosen or self.detail else None
        players.show(state)
        for log in self.query(LogPanel):
            log.state = state

    def show_events(self, events: list[Event]) -> None:
        for log in self.query(LogPanel):
            log.show_events(events)

    def toggle_detail(self) -> None:
        """``i``: the viewed family's sheet in place of every family's two rows, or back."""
        self.detail = not self.detail
        players = self.query_one(PlayersPanel)
        if players.state is not None:
            seat = players.sheet if players.sheet is not None else to_act(players.state)
            players.sheet = max(0, seat) if self.detail else None
            players.show(players.state)

    def set_preview(self, value: object) -> None:
        """Nothing on Municipium's board previews a choice (the dialogs say it in words)."""
