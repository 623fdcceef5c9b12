"""The header line of a game (the game screen and the viewer): the game's title, its options set
away from their defaults (so nobody plays the wrong rules: made from the option specs), then
the game's own words (``GameClient.header``: where the game is, who must do what)."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text

from colosseum.tui.client import GameClient
from colosseum.tui.setups import option_words

from .lines import LinePanel


def options_tag(client: GameClient, setup: Any, wide: bool = False) -> str:
    """How this game's rules differ from the defaults, in a few words (``Classic+A07``; who starts
    is left out: it is no rule, and the line is short)."""
    words = option_words(setup, wide=wide, words=client.header_words, rules_only=True)
    return " + ".join(words) if wide else "+".join(words)


def _dark(node: Any) -> bool:
    try:
        return bool(node.app.current_theme.dark)
    except Exception:  # noqa: BLE001 - no app yet (a panel built in a test)
        return True


class HeaderLine(LinePanel):
    DEFAULT_CSS = """
    HeaderLine { height: 1; background: $panel; color: $foreground; }
    HeaderLine > .header--title { color: $primary; text-style: bold; }
    """
    COMPONENT_CLASSES = {"header--title"}

    def __init__(self, client: GameClient, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.client = client
        self.state: Any = None
        self.seat = -1

    def show(self, state: Any, seat: int = -1) -> None:
        self.state = state
        self.seat = seat
        self.redraw()

    def build_lines(self) -> list[Text]:
        return [self._line()]

    def _line(self) -> Text:
        t = Text(no_wrap=True, overflow="crop")
        t.append(f" {self.client.spec.title.upper()} ", self.component_style("header--title"))
        st = self.state
        if st is None:
            return t
        width = self.size.width or 80
        tag = options_tag(self.client, st.setup, width >= 100)
        if tag:
            t.append(f"[{tag}] ", Style(bold=True))
        self.client.header(t, st, self.seat, width=width, theme=self.app.theme, dark=_dark(self))
        cut_line(t, width)
        return t


def cut_line(line: Text, width: int) -> None:
    """``line`` cut to ``width`` cells where it is longer, saying so (issue 23) in ASCII: "…" is
    two cells wide in some East Asian terminals."""
    if line.cell_len > width:
        line.truncate(max(0, width - 3))
        line.rstrip()
        line.append("..."[: max(0, width - line.cell_len)])
