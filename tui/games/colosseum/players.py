"""The impresarios: Acclaim (with the stack order), coins, Aquilas, stars, promoters, gates,
temple, gifts, the first player and who is to act."""

from __future__ import annotations

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from colosseum.core.games.colosseum import State, catalog, star_count, to_act
from colosseum.core.games.colosseum.components import Catalog
from colosseum.core.games.colosseum.summary import Changes
from colosseum.tui.text import pad
from colosseum.tui.widgets.lines import LinePanel

from .common import player_marks, seat_style


def stacks(state: State) -> list[tuple[int, list[int]]]:
    """Acclaim positions with the seats on each, bottom of the stack first (lower seq)."""
    by: dict[int, list[int]] = {}
    for seat, p in enumerate(state.players):
        by.setdefault(p.acclaim, []).append(seat)
    return [(pos, sorted(seats, key=lambda s: state.players[s].seq)) for pos, seats in sorted(by.items(), reverse=True)]


def number_line(st: State, letters, width: int, theme: str, head: Style) -> list[Text]:
    """The Acclaim track as a number line: a ruler every 10 and each stack's letters (bottom
    of the stack first) at its position.  Stacks too close to fit are pushed right."""
    label = "Track "
    room = max(20, width - len(label) - 1)
    top = max(30, -(-max(p.acclaim for p in st.players) // 10) * 10)

    def col(pos: int) -> int:
        return round(pos * (room - 3) / top)

    ruler = [" "] * room
    for v in range(0, top + 1, 10):
        c = col(v)
        for i, ch in enumerate(str(v)):
            if c + i < room:
                ruler[c + i] = ch
    marks = Text(" " * len(label))
    cursor = 0
    for pos, seats in sorted(stacks(st)):
        c = max(col(pos), cursor)
        if c + len(seats) > room:
            break
        marks.append(" " * (c - cursor))
        for s in seats:
            marks.append(letters[s], seat_style(theme, s))
        cursor = c + len(seats)
        if cursor < room:
            marks.append(" ")
            cursor += 1
    ruler_text = Text(label, head)
    ruler_text.append("".join(ruler).rstrip(), head)
    return [ruler_text, marks]


#: the fewest cells the number line takes (where the panel has them)
TRACK_MIN = 60

WIDE_COLS = (("Acclaim", 8), ("Coins", 6), ("Aq", 4), ("Stars", 6), ("Prom", 5), ("Gates", 6), ("Tmp", 4), ("Gift", 5))
NARROW_COLS = (("Acc", 4), ("$", 4), ("Aq", 3), ("St", 3), ("Pr", 3), ("G", 2), ("T", 2), ("g", 2))


def is_wide(width: int) -> bool:
    """The wide table only where all of it fits: the marks, the name and every column (from 50
    to 57 cells its last column, the gifts, that count for the score, was cut off)."""
    return width >= 3 + 11 + sum(w for _h, w in WIDE_COLS)


def edition_headings(cat: Catalog, cols: tuple[tuple[str, int], ...], wide: bool) -> tuple[tuple[str, int], ...]:
    """Column headings in the words of an edition that has its own (the original: spectators,
    medals, season tickets, arena pieces, loge, podiums); The Grand Spectacle's stay as they are."""
    if not cat.rules.terms:
        return cols
    words = {
        0: cat.term("acclaim"),
        2: cat.term("aquilas"),
        4: cat.term("promoters").split()[-1],
        5: cat.term("gates").split()[0],
        6: cat.term("temple").split(" of ")[0].split()[-1],
        7: cat.term("gifts"),
    }
    out = []
    for i, (head, w) in enumerate(cols):
        word = words.get(i)
        if word is not None:
            head = word[: w - 1].capitalize() if wide or w > 2 else word[:1].upper()
            if i == 7 and not wide:
                head = head.lower()  # "g" beside the gates' capital
        out.append((head, w))
    return tuple(out)


def short_words(cat: Catalog) -> tuple[str, str]:
    """The edition's short words for Acclaim and Aquilas in a note of changes: ``Acc``, ``Aq``;
    the original's ``Spe`` (spectators), ``Me`` (medals), as its columns read."""
    return cat.term("acclaim")[:3].capitalize(), cat.term("aquilas")[:2].capitalize()


def _delta_text(delta: int, form: str) -> str:
    """A change shown beside its number: `` (+9)`` in full, ``(+9)`` compact."""
    if not form:
        return ""
    return f" ({delta:+d})" if form == "full" else f"({delta:+d})"


class PlayersPanel(LinePanel):
    """Drawn with the line API (``lines.LinePanel``): a move repaints only the rows it changed."""

    DEFAULT_CSS = """
    PlayersPanel { height: auto; border: round $primary 60%; border-title-color: $primary; padding: 0 0; }
    PlayersPanel > .players--act { background: $primary-muted; text-style: bold; }
    PlayersPanel > .players--head { text-style: dim; }
    PlayersPanel > .players--view { text-style: underline; }
    PlayersPanel > .players--mark { text-style: bold reverse; }
    """
    COMPONENT_CLASSES = {"players--act", "players--head", "players--view", "players--mark"}

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.state: State | None = None
        self.seat = -1
        self.marks = Changes()  # the last move: its values are marked, its deltas shown
        self.border_title = "Impresarios"

    def show(self, state: State, seat: int = -1, marks: Changes | None = None) -> None:
        if marks is not None:
            self.marks = marks
        # The height depends only on the number of players: re-layout only when that changes
        # (a full layout on every move is the costliest part of a redraw).
        relayout = self.state is None or self.state.n != state.n
        self.state = state
        self.seat = seat
        if relayout:
            self._stale = True
            self.refresh(layout=True)
        else:
            self.redraw()

    def get_content_height(self, container, viewport, width: int) -> int:
        if self.state is None:
            return 1
        return self.state.n + (4 if is_wide(width) else 2)

    def _deltas(self, seat: int) -> tuple[int, int, int, int]:
        """The last move's change in this seat's Acclaim, coins, Aquilas and tiles."""
        m = self.marks

        def at(values: tuple[int, ...]) -> int:
            return values[seat] if seat < len(values) else 0

        return at(m.acclaim), at(m.coins), at(m.aquilas), at(m.tiles)

    def _tiles_swapped(self, seat: int) -> tuple[int, int]:
        """Tiles the last move gave this seat and took from it, when it did both (a swap)."""
        m = self.marks
        moved = m.tiles_moved[seat] if seat < len(m.tiles_moved) else 0
        net = m.tiles[seat] if seat < len(m.tiles) else 0
        if moved <= abs(net):
            return 0, 0
        return (moved + net) // 2, (moved - net) // 2

    @staticmethod
    def _delta_note(
        deltas: tuple[int, int, int, int],
        wide: bool,
        room: int,
        swapped: tuple[int, int] = (0, 0),
        words: tuple[str, str] = ("Acc", "Aq"),
    ) -> str:
        """e.g. ``(+9 $-11 +3t)``: Acclaim, coins, Aquilas, tiles that the last move changed,
        as many as fit in ``room`` cells (the changed numbers are marked anyway); a swap of
        tiles is ``+1/-1t``.  ``words``: the edition's short words for Acclaim and Aquilas
        (``short_words``)."""
        acclaim, coins, aquilas, tiles = deltas
        if any(swapped):
            tiles = 0  # said below as what came in and what went out
        parts = []
        if acclaim:
            parts.append(f"{acclaim:+d}" + (f" {words[0]}" if wide else ""))
        if coins:
            parts.append(f"${coins:+d}")
        if aquilas:
            parts.append(f"{words[1]}{aquilas:+d}")
        if tiles:
            parts.append(f"{tiles:+d}" + (" tiles" if wide else "t"))
        if any(swapped):
            parts.append(f"+{swapped[0]}/-{swapped[1]}" + (" tiles" if wide else "t"))
        while parts and len(" ".join(parts)) + 2 > room:
            parts.pop()
        return "(" + " ".join(parts) + ")" if parts else ""

    @staticmethod
    def _values(st: State, seat: int) -> tuple[int | str, ...]:
        p = st.players[seat]
        return (
            p.acclaim,
            p.coins,
            p.aquilas,
            star_count(st, seat),
            p.promoters,
            len(p.gates),
            "T" if p.temple else "-",
            p.gifts,
        )

    @staticmethod
    def _fit_deltas(
        cols: tuple[tuple[str, int], ...],
        values: list[tuple[int | str, ...]],
        deltas: list[tuple[int, int, int, int]],
        room: int,
    ) -> tuple[tuple[tuple[str, int], ...], str]:
        """Widen the Acclaim, coins and Aquilas columns so the last move's change shows in the
        cell itself (``37 (+9)``, or ``37(+9)`` where that does not fit in ``room`` cells).
        Returns the columns and the form used (``""``: no room, the deltas go elsewhere)."""
        if not any(any(d[:3]) for d in deltas):
            return cols, ""
        for form in ("full", "compact"):
            widths = [w for _h, w in cols]
            for vals, ds in zip(values, deltas, strict=False):
                for i in range(min(3, len(widths))):
                    if ds[i]:
                        need = 1 + cell_len(str(vals[i])) + cell_len(_delta_text(ds[i], form))
                        widths[i] = max(widths[i], need)
            if sum(widths) <= room:
                return tuple((h, w) for (h, _w), w in zip(cols, widths, strict=True)), form
        return cols, ""

    def _append_deltas(self, line: Text, letters, theme: str, width: int, wide: bool) -> None:
        """The last move's deltas by seat (``m +19 $+20``) where the rows had no room for
        them, as far as they fit."""
        st = self.state
        if st is None or not self._notes_left:
            return
        for seat in range(st.n):
            if seat not in self._notes_left:
                continue
            note = self._delta_note(
                self._deltas(seat), wide, width - line.cell_len - 3, self._tiles_swapped(seat), short_words(catalog(st))
            ).strip("()")
            if not note:
                break
            line.append("  ")
            line.append(letters[seat], seat_style(theme, seat))
            line.append(" " + note, Style(bold=True))

    def build_lines(self) -> list[Text]:
        st = self.state
        if st is None:
            return []
        theme = self.app.theme
        width = self.content_region.width or 37
        wide = is_wide(width)
        name_w = 10 if wide else 7
        letters = player_marks([p.name for p in st.players], theme)
        actor = to_act(st)
        head = self.component_style("players--head")
        act = self.component_style("players--act")
        view = self.component_style("players--view")
        lines = []
        self._notes_left: set[int] = set()  # seats whose deltas did not fit on their row
        cols: tuple[tuple[str, int], ...]
        cols = WIDE_COLS if wide else NARROW_COLS
        cols = edition_headings(catalog(st), cols, wide)
        values_by_seat = [self._values(st, seat) for seat in range(st.n)]
        deltas_by_seat = [self._deltas(seat) for seat in range(st.n)]
        cols, form = self._fit_deltas(cols, values_by_seat, deltas_by_seat, width - 3 - (name_w + 1))
        hdr = "   " + f"{'Name':<{name_w + 1}}" + "".join(f"{h:>{w}}" for h, w in cols)
        lines.append(Text(hdr, head))
        mark = self.component_style("players--mark")
        for seat, p in enumerate(st.players):
            t = Text()
            t.append(">" if seat == actor else " ", Style(bold=True))
            t.append(letters[seat], seat_style(theme, seat))
            t.append(" ")
            t.append(
                pad(p.name, name_w - 1),
                seat_style(theme, seat, bold=seat == actor) + (view if seat == self.seat else Style()),
            )
            # a cell apart from the name, cut or not (issue 23: "ベッキ~F" read as part of it)
            t.append(" F" if seat == st.first else "  ", Style(bold=True))
            deltas = deltas_by_seat[seat]
            for i, (v, (_, w)) in enumerate(zip(values_by_seat[seat], cols, strict=False)):
                d = deltas[i] if i < 3 else 0  # Acclaim, coins, Aquilas columns
                if not d:
                    t.append(f"{v:>{w}}")
                    continue
                # the number itself marked (reverse reads without colour), its change beside it
                digits, change = str(v), _delta_text(d, form)
                t.append(" " * (w - cell_len(digits) - cell_len(change)))
                t.append(digits, mark)
                if change:
                    t.append(change, Style(bold=True))
            if seat == actor:
                t.stylize(act)
            left = deltas if not form else (0, 0, 0, deltas[3])  # what the cells did not show
            swapped = self._tiles_swapped(seat)
            note = self._delta_note(left, wide, width - t.cell_len - 1, swapped, short_words(catalog(st)))
            if note:
                t.append(" " + note, Style(bold=True))
            elif any(left) or any(swapped):
                self._notes_left.add(seat)
            lines.append(t)
        track = Text()
        track.append("Stacks ", head)
        for pos, seats in stacks(st):
            track.append(f"{pos}:")
            for s in seats:
                track.append(letters[s], seat_style(theme, s))
            track.append(" ")
        if wide and not self._notes_left:  # (the last move's deltas take its place)
            track.append(" (bottom of stack first)", head)
        self._append_deltas(track, letters, theme, width, wide)
        lines.append(track)
        if wide:
            # as wide as the table, not the panel: on a wide screen a decision dialog covers the
            # panel's right part, and the high scores' marks were under it (200x60)
            lines.extend(number_line(st, letters, min(width, max(TRACK_MIN, cell_len(hdr))), theme, head))
        for line in lines:
            line.truncate(width)
        return lines
