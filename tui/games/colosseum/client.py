"""Colosseum's client part (``CLIENT``, named by its ``GameSpec.client_path``): what the shell
asks of the game, each answer loaded when first asked (this module imports no Textual: the
command line's ``export`` uses it too)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from colosseum.tui.client import GameClient, GameScreenView

if TYPE_CHECKING:
    from rich.text import Text
    from textual.binding import Binding
    from textual.screen import ModalScreen
    from textual.widget import Widget

    from colosseum.core.timeline import GameLog, Timeline
    from colosseum.core.tutorial import Tutorial
    from colosseum.tui.session import GameSession, SessionHooks

#: the fewest cells the header's prompt is cut to so that the acting player's cash still shows
MIN_PROMPT = 24

PANELS = (
    ("Header", "round, phase, who must act with what to do, and the cash of the player to act"),
    (
        "Arena",
        "the noble track as a ring, clockwise from the top-left corner (0-9 top, 10-17 right, "
        "18-27 bottom, 28-35 left).  Each space: gate owner's letter, noble (E emperor, C consul, "
        "S senator), '*' an Aquila space.  Inside: markets A-E; '>' marks the lot being auctioned, "
        "|x| a pillar on an emptied market",
    ),
    (
        "Impresarios",
        "'>' who is to act, F the first player; Acc Acclaim, $ coins, Aq Aquilas, "
        "(the original edition: Me medals, Ti season tickets, A arena pieces, L loge, p podiums), "
        "St Star Performers, Pr promoters, G gates, T temple, g gifts.  Stacks: markers on each "
        "Acclaim space, bottom of the stack first",
    ),
    (
        "Board",
        "the viewed player's tiles ('*' a Star Performer), money, gates and spectacles: "
        "have = matched/needed, miss = performers missing, now = the Acclaim it would score now "
        "(-- cannot be performed yet), up = face up (performed before), 3g/4g = gates it needs; "
        "i shows each spectacle's needs, what is held, what is missing and its strip",
    ),
    ("Log", "every event, newest at the bottom; focus it with l and scroll with the arrows"),
)


class ColosseumClient(GameClient):
    header_words = {
        "classic": ("Classic", "Classic 2007"),
        "original": ("Original", "Original 2007"),
        "auction-2007": ("A07", "2007 auctions"),
    }
    detail_help = ("Spectacle detail", "Needs, holdings, missing types and strips (i)")

    # ------------------------------------------------------------------ the session
    def session_hooks(self) -> SessionHooks:
        from .session import ColosseumHooks

        return ColosseumHooks()

    # ------------------------------------------------------------------ the game screen
    def body(self, history: Widget | None = None) -> Widget:
        from colosseum.tui.widgets.log import LogPanel

        from .arena import ColosseumBody

        return ColosseumBody(history if history is not None else LogPanel(id="log"))

    def prompt(self, state: Any) -> tuple[int, str]:
        from .common import prompt

        return prompt(state)

    def header(self, line: Text, state: Any, seat: int, *, width: int, theme: str, dark: bool) -> None:
        from rich.cells import cell_len
        from rich.style import Style

        from colosseum.core.games.colosseum.components import load_catalog
        from colosseum.core.games.colosseum.queries import phase_title
        from colosseum.tui.text import fit

        from .common import prompt, rounds_total, seat_style
        from .players import short_words

        wide = width >= 100
        rnd = f"{min(state.round, rounds_total(state))}/{rounds_total(state)}"
        line.append(f" Round {rnd}  " if wide else f" R{rnd} ")
        actor, text = prompt(state)
        if state.phase == "over":  # the prompt says it: "game over: Marcus wins ..." (not twice)
            line.append(text[:1].upper() + text[1:], Style(bold=True))
            return
        line.append(phase_title(state), Style(bold=True))
        line.append("  |  " if wide else " | ")
        style = seat_style(theme, actor) if actor >= 0 else Style(bold=True)
        if actor < 0:
            line.append(text, style)
            return
        p = state.players[actor]
        # the acting player's purse, labelled (a bare "$23" read as anyone's); where the prompt
        # leaves no room for it, the prompt is cut (the dialog says it whole), not the purse
        money = f"${p.coins}"
        if p.aquilas:  # in the edition's word, as the players panel says it: Aq, the original's Me(dals)
            money += f" {short_words(load_catalog(state.setup.variant))[1]}{p.aquilas}"
        room = width - line.cell_len
        for label in (f"   cash {money}", f"  cash {money}", f" {money}"):
            if cell_len(text) + cell_len(label) <= room:
                break
        if cell_len(text) + cell_len(label) > room and room - cell_len(label) >= MIN_PROMPT:
            text = fit(text, room - cell_len(label))  # ("...": ASCII, one cell a character everywhere)
        line.append(text, style)
        if line.cell_len + cell_len(label) <= width:
            line.append(label)

    def tutorial(self) -> Tutorial:
        from colosseum.core.games.colosseum.tutorial import TUTORIAL

        return TUTORIAL

    def dialog(self, session: GameSession[Any, Any], seat: int) -> ModalScreen[Any] | None:
        from .dialogs.which import dialog_for

        return dialog_for(session, seat)

    def chooser_actions(self, state: Any) -> Sequence[Any]:
        from .chooser import choices

        return choices(state)

    def chooser_words(self, state: Any, action: Any) -> str:
        from .chooser import describe

        return describe(state, action)

    def chooser_preview(self, state: Any, action: Any) -> Any:
        from .chooser import preview

        return preview(state, action)

    # ---- `d`: a deal proposed out of turn (G-4)
    def bindings(self) -> Sequence[Binding]:
        from textual.binding import Binding

        return (
            Binding(
                "d",
                "game_key('deal')",
                "Deal",
                tooltip="Propose a deal to the player whose trade turn it is",
                id="game.deal",
            ),
        )

    def _deal_seat(self, screen: GameScreenView) -> int | None:
        """The viewed local seat, if it may propose a deal to the active player now (G-4: anyone
        may) and it is not that seat's turn anyway."""
        if screen.session.state.phase != "trade" or screen.has_dialogs():
            return None
        from .dialogs.which import may_deal

        seat = screen.view_seat()
        return seat if may_deal(screen.session, seat) else None

    def key_enabled(self, screen: GameScreenView, name: str) -> bool:
        return name == "deal" and self._deal_seat(screen) is not None

    def key_pressed(self, screen: GameScreenView, name: str) -> None:
        seat = self._deal_seat(screen) if name == "deal" else None
        if seat is None:
            return
        from .dialogs.which import deal_dialog

        dialog = deal_dialog(screen.session, seat)
        if dialog is not None:
            screen.session.hold(dialog)  # the bot whose trade turn it is waits for the offer
            screen.push_dialog(dialog)

    def palette(self, screen: GameScreenView) -> list[tuple[str, Callable[[], object], str]]:
        if not self.key_enabled(screen, "deal"):
            return []
        return [
            ("Propose a deal", lambda: self.key_pressed(screen, "deal"), "To the player whose trade turn it is (d)")
        ]

    # ------------------------------------------------------------------ words
    rules_resource = ("colosseum.core.games.colosseum", "data/rules_short.toml")

    def rules_edition(self, setup: Any) -> tuple[str, tuple[str, ...]]:
        if setup is None:
            return "grand", ()
        return str(setup.variant), tuple(str(o) for o in setup.options)

    def legend(self, setup: Any = None) -> Sequence[tuple[str, Sequence[tuple[str, str]]]]:
        from .legend import legend

        return legend(setup)

    def help_panels(self) -> Sequence[tuple[str, str]]:
        return PANELS

    def end_text(self, state: Any, *, theme: str, dark: bool, width: int) -> Text:
        from .end import result_text

        return result_text(state, theme, width)

    def history_text(self, state: Any, action: Any) -> str:
        from .record import quiet_text

        return quiet_text(state, action)

    def record_lines(self, log: GameLog, taken_back: dict[int, list[str]]) -> list[str]:
        from .record import record_lines

        return record_lines(log, taken_back)

    def viewer_marks(self, timeline: Timeline, index: int) -> Any:
        from colosseum.core.games.colosseum.summary import last_move

        return last_move([a.player for a in timeline.actions], timeline.state, index)

    def where(self, state: Any) -> str:
        return f"round {state.round}, {state.phase.capitalize()}"


CLIENT = ColosseumClient()
