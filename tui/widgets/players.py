"""The impresarios: Acclaim (with the stack order), coins, Aquilas, stars, promoters, gates,
temple, gifts, the first player and who is to act."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from colosseum.core import State, catalog, star_count, to_act
from colosseum.core.catalog import Catalog
from colosseum.tui.text import pad

from .common import player_letters, seat_style
from .lines import LinePanel


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


def edition_headings(cat: Catalog, cols: tuple[tuple[str, int], ...], wide: bool) -> tuple[tuple[str, int], ...]:
    """Column headings in the words of an edition that has its own (the original: medals,
    season tickets, arena pieces, loge, podiums); The Grand Spectacle's stay as they are."""
    if not cat.rules.terms:
        return cols
    words = {
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


class PlayersPanel(LinePanel):
    """Drawn with the line API (``lines.LinePanel``): a move repaints only the rows it changed."""

    DEFAULT_CSS = """
    PlayersPanel { height: auto; border: round $primary 60%; border-title-color: $primary; padding: 0 0; }
    PlayersPanel > .players--act { background: $primary-muted; text-style: bold; }
    PlayersPanel > .players--head { text-style: dim; }
    PlayersPanel > .players--view { text-style: underline; }
    """
    COMPONENT_CLASSES = {"players--act", "players--head", "players--view"}

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.state: State | None = None
        self.seat = -1
        self.border_title = "Impresarios"

    def show(self, state: State, seat: int = -1) -> None:
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
        return self.state.n + (4 if width >= 50 else 2)

    def build_lines(self) -> list[Text]:
        st = self.state
        if st is None:
            return []
        theme = self.app.theme
        width = self.content_region.width or 37
        wide = width >= 50
        name_w = 10 if wide else 7
        letters = player_letters([p.name for p in st.players])
        actor = to_act(st)
        head = self.component_style("players--head")
        act = self.component_style("players--act")
        view = self.component_style("players--view")
        lines = []
        cols: tuple[tuple[str, int], ...]
        if wide:
            cols = (
                ("Acclaim", 8),
                ("Coins", 6),
                ("Aq", 4),
                ("Stars", 6),
                ("Prom", 5),
                ("Gates", 6),
                ("Tmp", 4),
                ("Gift", 5),
            )
        else:
            cols = (("Acc", 4), ("$", 4), ("Aq", 3), ("St", 3), ("Pr", 3), ("G", 2), ("T", 2), ("g", 2))
        cols = edition_headings(catalog(st), cols, wide)
        hdr = "   " + f"{'Name':<{name_w + 1}}" + "".join(f"{h:>{w}}" for h, w in cols)
        lines.append(Text(hdr, head))
        for seat, p in enumerate(st.players):
            t = Text()
            t.append(">" if seat == actor else " ", Style(bold=True))
            t.append(letters[seat], seat_style(theme, seat))
            t.append(" ")
            t.append(
                pad(p.name, name_w),
                seat_style(theme, seat, bold=seat == actor) + (view if seat == self.seat else Style()),
            )
            t.append("F" if seat == st.first else " ", Style(bold=True))
            values = (
                p.acclaim,
                p.coins,
                p.aquilas,
                star_count(st, seat),
                p.promoters,
                len(p.gates),
                "T" if p.temple else "-",
                p.gifts,
            )
            t.append("".join(f"{v:>{w}}" for v, (_, w) in zip(values, cols, strict=False)))
            if seat == actor:
                t.stylize(act)
            lines.append(t)
        track = Text()
        track.append("Stacks ", head)
        for pos, seats in stacks(st):
            track.append(f"{pos}:")
            for s in seats:
                track.append(letters[s], seat_style(theme, s))
            track.append(" ")
        if wide:
            track.append(" (bottom of stack first)", head)
        lines.append(track)
        if wide:
            lines.extend(number_line(st, letters, width, theme, head))
        for line in lines:
            line.truncate(width)
        return lines
