"""Municipium's client part (``CLIENT``, named by its ``GameSpec.client_path``): what the shell
asks of the game, each answer loaded when first asked (this module imports no Textual: the
command line's ``export`` uses it too)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from colosseum.tui.client import GameClient

if TYPE_CHECKING:
    from rich.style import Style
    from rich.text import Text
    from textual.screen import ModalScreen
    from textual.widget import Widget

    from colosseum.core.timeline import GameLog
    from colosseum.core.tutorial import Tutorial
    from colosseum.tui.session import GameSession


class MunicipiumClient(GameClient):
    header_words = {"short": ("Short", "Short game"), "single-chamber": ("1 chamber", "Single chamber citizen")}
    detail_help = ("Family sheet", "One family's members at each institution, its cards (i)")

    # ------------------------------------------------------------------ the game screen
    def body(self, history: Widget | None = None) -> Widget:
        from .panels import LogPanel, MuniBody

        return MuniBody(history if history is not None else LogPanel(id="log"))

    def prompt(self, state: Any) -> tuple[int, str]:
        from .text import prompt

        return prompt(state)

    def header(self, line: Text, state: Any, seat: int, *, width: int, theme: str, dark: bool) -> None:
        from rich.cells import cell_len
        from rich.style import Style

        from colosseum.core.games.municipium import target

        from .text import CARD_SHORT, card_name, prompt, seat_style

        if state.phase == "place":
            line.append(" Placement ")
        elif state.phase != "over":
            line.append(f" Turn {state.turn} ")
        if state.in_play:
            line.append(
                f"[{card_name(state.in_play) if width >= 100 else CARD_SHORT[state.in_play]}] ", Style(bold=True)
            )
        line.append("| ")
        actor, text = prompt(state)
        line.append(text, seat_style(state, actor, dark))
        goal = f"  goal {target(state)} decurions"
        if line.cell_len + cell_len(goal) <= width:
            line.append(goal, Style(dim=True))

    def seat_style(self, state: Any, seat: int, *, theme: str, dark: bool) -> Style:
        from .text import seat_style

        return seat_style(state, seat, dark, bold=False)

    def marks(self, state: Any, *, theme: str) -> tuple[str, ...]:
        from .text import letters

        return letters(state, theme)

    def tutorial(self) -> Tutorial:
        from colosseum.core.games.municipium.tutorial import TUTORIAL

        return TUTORIAL

    def dialog(self, session: GameSession[Any, Any], seat: int) -> ModalScreen[Any] | None:
        from .which import dialog_for

        return dialog_for(session, seat)

    def chooser_words(self, state: Any, action: Any) -> str:
        from .facts import describe

        return describe(state, action)

    # ------------------------------------------------------------------ words
    rules_resource = ("colosseum.core.games.municipium", "data/rules_short.toml")

    def legend(self, setup: Any = None) -> Sequence[tuple[str, Sequence[tuple[str, str]]]]:
        from .legend import legend

        return legend(setup)

    def help_panels(self) -> Sequence[tuple[str, str]]:
        from .help import PANELS

        return PANELS

    def end_text(self, state: Any, *, theme: str, dark: bool, width: int) -> Text:
        from .end import result_text

        return result_text(state, dark, theme)

    def history_text(self, state: Any, action: Any) -> str:
        from .facts import describe

        name = state.players[action.player].name if 0 <= action.player < state.n else f"Seat {action.player}"
        return f"{name}: {describe(state, action)}."

    def record_lines(self, log: GameLog, taken_back: dict[int, list[str]]) -> list[str]:
        from .record import record_lines

        return record_lines(log, taken_back)

    def where(self, state: Any) -> str:
        return "the placement" if state.phase == "place" else f"turn {state.turn}"


CLIENT = MunicipiumClient()
