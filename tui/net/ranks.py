"""The lobby's leaderboard (``L``) and a player's profile, read from the server's store, and the
one-time web link (``w``).

The leaderboard is one game's at a time (Tab or the arrows left and right change the game): each
player's place, name, the conservative rating (D-30) with ``?`` while it is provisional, and
the rated games played; under it, what each bot level counts as in a rated game of it (D-90:
``*`` where the strength runs measured it).  Enter opens the chosen player's profile: their
rating, games and wins in that game, and their recent games.  Names are the players' own:
shown as ``Text``, never read as markup.  Everything fits an 80x24 terminal.
"""

from __future__ import annotations

import time
from typing import Any, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable
from textual.widgets.data_table import CellDoesNotExist

from colosseum.core.ratings import bot_anchor, shown
from colosseum.core.registry import game_names, spec
from colosseum.tui.plain import Static
from colosseum.tui.widgets.keybar import KeyBar

from .host import protocol as P
from .host.proto_client import NetError

__all__ = ["LeaderboardScreen", "ProfileScreen", "WebLinkScreen", "rating_text"]

ROWS = 20  # leaderboard rows asked for at once (one screen at 80x24)


def rating_text(rating: int, provisional: bool) -> str:
    return f"{rating}?" if provisional else str(rating)


def bots_line(game: str) -> str:
    """What each of ``game``'s bot levels counts as in a rated game, on the people's scale."""
    try:
        levels = spec(game).bot_levels
    except ValueError:
        return ""
    parts, measured = [], False
    for level in levels:
        mu, sigma, found = bot_anchor(game, level)
        measured = measured or found
        parts.append(f"{level} {shown(mu, sigma)}" + ("*" if found else ""))
    return "Bots count as: " + ", ".join(parts) + (" (* measured)" if measured else "")


def _title(game: str) -> str:
    try:
        return spec(game).title
    except ValueError:
        return game


def _client(screen: Screen[Any]) -> Any:
    return cast(Any, screen.app).client


class LeaderboardScreen(Screen[None]):
    """One game's leaderboard, best first; Enter: the player's profile."""

    BINDINGS = [
        Binding("escape", "back", "Lobby"),
        Binding("enter", "profile", "Profile"),
        Binding("tab,right", "game(1)", "Next game", key_display="Tab"),
        Binding("shift+tab,left", "game(-1)", "Previous game", show=False),
        Binding("m", "mine", "My profile"),
        Binding("right_square_bracket", "page(1)", "Next page", key_display="]", show=False),
        Binding("left_square_bracket", "page(-1)", "Prev page", key_display="[", show=False),
    ]
    DEFAULT_CSS = """
    LeaderboardScreen { layout: vertical; }
    #lb-title { height: 2; padding: 0 1; text-style: bold; }
    #leaders { height: 1fr; }
    #lb-hint { height: 3; padding: 0 1; color: $text-muted; }
    """
    HINT = (
        "Tab: next game | Enter: profile | m: mine | ] [ pages | Esc: lobby\n? provisional: fewer than 10 rated games"
    )

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        self.games = list(game_names(discover=False))
        self.game = game if game in self.games else self.games[0]
        self.page_start = 0
        self.total = 0
        self.rows: list[P.LeaderRow] = []

    def compose(self) -> ComposeResult:
        yield Static(id="lb-title")
        table: DataTable[Text] = DataTable(id="leaders", cursor_type="row", zebra_stripes=True)
        table.add_columns("Place", "Player", "Rating", "Games")
        yield table
        yield Static(self._hint(), id="lb-hint")
        yield KeyBar()

    def _hint(self) -> Text:
        return Text(f"{self.HINT}\n{bots_line(self.game)}")

    def on_mount(self) -> None:
        self.load()
        self.query_one(DataTable).focus()

    def load(self) -> None:
        title = self.query_one("#lb-title", Static)
        dt = self.query_one(DataTable)
        dt.clear()
        self.rows = []
        try:
            page = _client(self).leaderboard(self.game, self.page_start, ROWS)
        except NetError as exc:
            title.update(Text(f"Leaderboard - {_title(self.game)}: {exc}"))
            return
        self.rows, self.total = page.rows, page.total
        for r in page.rows:
            cells = (str(r.place), r.name, rating_text(r.rating, r.provisional), str(r.games))
            dt.add_row(*(Text(c) for c in cells))
        where = (
            f"{self.page_start + 1}-{self.page_start + len(page.rows)} of {self.total}"
            if page.rows
            else "nobody rated yet"
        )
        title.update(Text(f"Leaderboard - {_title(self.game)}   [{where}]"))

    def action_game(self, step: int) -> None:
        self.game = self.games[(self.games.index(self.game) + step) % len(self.games)]
        self.page_start = 0
        self.query_one("#lb-hint", Static).update(self._hint())
        self.load()

    def action_page(self, step: int) -> None:
        offset = max(0, self.page_start + step * ROWS)
        if offset == self.page_start or (step > 0 and offset >= self.total):
            return
        self.page_start = offset
        self.load()

    def chosen(self) -> P.LeaderRow | None:
        dt = self.query_one(DataTable)
        try:
            row = dt.cursor_coordinate.row
        except CellDoesNotExist:  # pragma: no cover - an empty table has row 0
            return None
        return self.rows[row] if 0 <= row < len(self.rows) else None

    def action_profile(self) -> None:
        row = self.chosen()
        if row is not None:
            self.app.push_screen(ProfileScreen(row.name, self.game))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_profile()

    def action_mine(self) -> None:
        self.app.push_screen(ProfileScreen(_client(self).name, self.game))

    def action_back(self) -> None:
        self.app.pop_screen()


class ProfileScreen(Screen[None]):
    """A player in one game: rating, games, wins, their recent games (Enter: one in the viewer)."""

    BINDINGS = [Binding("escape", "back", "Back"), Binding("enter", "review", "Review")]
    DEFAULT_CSS = """
    ProfileScreen { layout: vertical; }
    #pf-head { height: auto; padding: 0 1; }
    #recent { height: 1fr; }
    #pf-plot { height: 9; margin: 0 1; }
    """

    def __init__(self, name: str, game: str) -> None:
        super().__init__()
        self.player = name
        self.game = game

    def compose(self) -> ComposeResult:
        yield Static(id="pf-head")
        table: DataTable[Text] = DataTable(id="recent", cursor_type="row", zebra_stripes=True)
        table.add_columns("Ended", "Place", "Table", "Players")
        yield table
        yield KeyBar()

    def on_mount(self) -> None:
        head = self.query_one("#pf-head", Static)
        try:
            found: P.PlayerProfile = _client(self).profile(self.player, self.game)
        except NetError as exc:
            head.update(Text(f"{self.player} - {_title(self.game)}\n{exc}"))
            return
        from .rankplot import plot_fits, rating_plot

        dt = self.query_one(DataTable)
        plotted = plot_fits(found.history, (self.app.size.width, self.app.size.height), self.app.no_color)
        head.update(profile_text(found, plotted=plotted))
        if plotted:  # the rating after each of the last rated games (D-80)
            self.mount(rating_plot(found.history, found.rated_games - len(found.history) + 1), before=dt)
        self.recent = found.recent
        for g in found.recent:
            ended = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.ended)) if g.ended else ""
            # a person who left is no place of the bot that finished for them (rated: counted last)
            place = f"left (of {len(g.players)})" if g.left else f"{g.place} of {len(g.players)}"
            place += " rated" if g.rated else ""
            dt.add_row(*(Text(c) for c in (ended, place, g.name, ", ".join(g.players))))
        dt.focus()

    recent: list[P.GameLine] = []

    def action_review(self) -> None:
        """The chosen game in the viewer, move by move (as the asker saw it)."""
        row = self.query_one(DataTable).cursor_coordinate.row
        if 0 <= row < len(self.recent):
            game = self.recent[row]
            cast(Any, self.app).review(game.id, self.game, game.name)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_review()

    def action_back(self) -> None:
        self.app.pop_screen()


def profile_text(p: P.PlayerProfile, *, plotted: bool = False) -> Text:
    """A profile's head, as plain text (the name is the player's own); ``plotted``: the rating
    after each of the last rated games is a plot under it (else a line of numbers here)."""
    if p.rated_games:
        rating = f"Rating {rating_text(p.rating, p.provisional)}: {p.rated_games} rated game(s)"
        if p.provisional:
            rating += " (provisional for the first 10)"
    else:
        rating = "Not rated yet (no rated game)"
    if not plotted and len(p.history) > 1:
        rating += "\nAfter each of the last rated games: " + " ".join(str(r) for r in p.history[-8:])
    share = f" ({round(100 * p.wins / p.played)}%)" if p.played else ""
    lines = [
        f"{p.name} - {_title(p.game)}",
        rating,
        f"Games {p.played}, wins {p.wins}{share}",
    ]
    if not plotted or not p.recent:
        lines.append("Recent games:" if p.recent else "No finished game yet.")
    return Text("\n".join(lines))


class WebLinkScreen(Screen[None]):
    """The one-time link that signs a browser in as this player, shown to copy: alone on its
    lines from the first column (nothing drawn beside it, so a selection in the terminal is the
    link; a browser's address bar drops the line breaks), or ``c`` to copy it (OSC 52)."""

    BINDINGS = [Binding("escape,enter", "back", "Close"), Binding("c", "copy", "Copy")]
    DEFAULT_CSS = """
    WebLinkScreen { layout: vertical; }
    #wl-title { height: 2; padding: 0 1; text-style: bold; }
    #wl-url { width: 100%; padding: 0; margin: 0 0 1 0; color: $accent; }
    #wl-note { height: auto; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, link: P.WebLink) -> None:
        super().__init__()
        self.link = link

    def compose(self) -> ComposeResult:
        yield Static(
            Text(f"Play in a browser: open this link there (valid {self.link.minutes} minutes, once)"), id="wl-title"
        )
        yield Static(Text(self.link.url, overflow="fold"), id="wl-url")
        yield Static(
            Text("It signs that browser in as you: do not share it.\nc: copy it to your clipboard   Esc: back"),
            id="wl-note",
        )
        yield KeyBar()

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self.link.url)  # OSC 52: the terminal's clipboard, over SSH too
        self.notify("Sent to your terminal's clipboard (where it allows that).")

    def action_back(self) -> None:
        self.app.pop_screen()
