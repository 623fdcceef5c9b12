"""Command palette (ctrl+p): new game, theme, rules, help, statistics, view a player's board, the game
screen's keys (bot pace, detail, log, review), the game's own commands, quit: for every game."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from colosseum.themes import THEME_NAMES

if TYPE_CHECKING:  # pragma: no cover
    from .screens.game import GameScreen


class _Host(Protocol):
    """What the palette asks of the app (``ColosseumApp``; not imported: the app imports this)."""

    def action_new_game(self) -> None: ...
    def action_rules(self) -> None: ...
    def action_help(self) -> None: ...
    def action_statistics(self) -> None: ...
    def action_set_theme(self, name: str) -> None: ...
    def action_quit(self) -> Any: ...
    def game_screen(self) -> GameScreen | None: ...


class ColosseumCommands(Provider):
    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        app = cast(_Host, self.app)
        cmds: list[tuple[str, Callable[[], object], str]] = [
            ("New game", app.action_new_game, "Open the new-game screen"),
            ("Rules", app.action_rules, "The rules in short"),
            ("Help", app.action_help, "Keys and panels of this screen"),
            ("Statistics", app.action_statistics, "Wins, scores and plays over the saved games"),
        ]
        for name in THEME_NAMES:
            cmds.append((f"Theme: {name}", partial(app.action_set_theme, name), "Switch the colour theme"))
        game = app.game_screen()
        if game is not None:
            for seat, name in enumerate(game.rules.names(game.state)):
                cmds.append((f"View board of {name}", partial(game.action_view, seat), f"Show seat {seat + 1}'s board"))
            cmds.append(("Follow the turn", game.action_follow, "The board shown follows who must act (f)"))
            cmds.append(("Hint", game.action_hint, "What would the bot do in your decision? (h)"))
            if game.session.offers_undo:
                cmds.append(("Take back (undo)", game.action_undo, "Take back your last decision (u)"))
            if game.check_action("rush", ()):
                cmds.append(("Bots play on", game.action_rush, "Let the bots run until your next decision (g)"))
                cmds.append(("Step bot moves", game.action_step, "Bots move one at a time, one per press (.)"))
            title, words = game.client.detail_help
            cmds.append((title, game.action_detail, words))
            cmds.append(("Log", game.action_focus_log, "Move to the log to scroll it (l)"))
            cmds.append(("Review the game", game.action_review, "Step through the game so far (v)"))
            cmds.append(("Legend", game.action_legend, "What the codes and symbols on the screen mean (k)"))
            cmds += game.client.palette(game)
        cmds.append(("Quit", app.action_quit, "Leave the game (it is saved as you play)"))
        return cmds

    # A command's words hold player names: plain Content, never markup (Textual reads a str, and
    # its matcher's highlight, as markup: `[bold red]x` was red in "View board of ...").

    async def discover(self) -> Hits:
        for name, cb, help_text in self._commands():
            yield DiscoveryHit(Content(name), cb, text=name, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, cb, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, _highlight(matcher, name), cb, text=name, help=help_text)


def _highlight(matcher: Any, name: str) -> Content:
    """``name`` with the letters the query matched styled, as plain text."""
    content = Content(name)
    score, offsets = matcher.fuzzy_search.match(matcher.query, name)
    if score:
        for offset in offsets:
            if not name[offset].isspace():
                content = content.stylize(matcher._match_style, offset, offset + 1)
    return content
