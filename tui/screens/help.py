"""Help for the screen below: its active key bindings (what works now) and, below a game, a word
on each of the game's panels (``GameClient.help_panels``)."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen

from colosseum.tui.plain import Static
from colosseum.tui.widgets.keybar import KeyBar

GENERIC = {
    "Scroll Left",
    "Scroll Right",
    "Page Left",
    "Page Right",
    "Focus Next",
    "Focus Previous",
    "Copy selected text",
    "Scroll Up",
    "Scroll Down",
    "Scroll Home",
    "Scroll End",
}


def key_name(app, key: str, display: str | None) -> str:
    if display:
        return display
    return app.get_key_display(Binding(key, ""))


class HelpScreen(ModalScreen):
    BINDINGS = [
        Binding("escape", "close", "close", id="help.close"),
        Binding("f1", "close", "close", show=False, id="help.close-f1"),
        Binding("question_mark", "close", "close", show=False, id="help.close-q"),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; background: $background 40%; }
    HelpScreen > VerticalScroll { width: 90%; max-width: 96; height: 90%; border: heavy $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, below: Screen | None = None) -> None:
        super().__init__()
        self.below = below

    def compose(self) -> ComposeResult:
        scroll = VerticalScroll(id="help-body", can_focus=True)
        scroll.border_title = "Help"
        scroll.border_subtitle = "Escape closes"
        with scroll:
            yield Static(self._text(), id="help-text")
        yield KeyBar()  # the help's keys, not those of the screen it tells about

    def on_mount(self) -> None:
        self.query_one("#help-body").focus()

    def _text(self) -> Text:
        bold = Style(bold=True)
        muted = Style(dim=True)
        out = Text()
        out.append("Keys that work now\n", bold)
        below = self.below
        seen = set()
        rows: list[tuple[str, str]] = []
        panel_rows: list[tuple[str, str]] = []
        panel_name = ""
        if below is not None:
            for key, (node, b, enabled, _tip) in below.active_bindings.items():
                if not enabled or not b.description or b.description in GENERIC:
                    continue
                desc = b.description
                if b.group is not None and b.group.description:
                    # "Board 4", but "Turn back" (not "Turn Turn back"), "Start" (not "Start/End Start")
                    words = set(b.group.description.casefold().replace("/", " ").split())
                    if not words & set(desc.casefold().split()):
                        desc = f"{b.group.description} {desc}"
                if b.tooltip:  # the key bar's word is short: the help says it in full
                    desc = b.tooltip
                if key == self.app.COMMAND_PALETTE_BINDING:
                    desc = "command palette: new game, theme, rules, bot pace, review, quit"
                if (b.action, desc) in seen:
                    continue
                seen.add((b.action, desc))
                row = (key_name(self.app, key, b.key_display), desc)
                if node is below or node is self.app:
                    rows.append(row)
                else:
                    panel_rows.append(row)
                    panel_name = getattr(node, "border_title", "") or type(node).__name__
        rows.append(("tab", "move between panels and fields"))
        for k, d in rows:
            out.append(f"  {k:<12}", bold)
            out.append(d + "\n")
        if panel_rows:
            out.append(f"\nIn the focused panel ({panel_name})\n", bold)
            for k, d in panel_rows:
                out.append(f"  {k:<12}", bold)
                out.append(d + "\n")
        client = getattr(below, "client", None) if type(below).__name__ == "GameScreen" else None
        if client is not None:
            out.append("\nThe screen\n", bold)
            for name, text in client.help_panels():
                out.append(f"  {name}: ", bold)
                out.append(text + "\n")
            out.append_text(_symbols_line(self.app, below, client))
            legend = client.legend(getattr(getattr(below, "session", None), "setup", None))
            if legend:
                from .legend import legend_text

                out.append("\nThe codes and symbols (k shows them alone)\n\n", bold)
                out.append_text(legend_text(legend))
                out.append("\n")
            out.append(
                "\nWhen it is your turn the decision's dialog opens by itself; Escape closes it "
                "without changing the game and a or Enter opens it again.  Bots move on their own.\n",
                muted,
            )
        return out

    def action_close(self) -> None:
        self.dismiss(None)


def _symbols_line(app: Any, game: Any, client: Any) -> Text:
    """In a theme that shows players by symbol (the colour-blind one), which symbol is whose:
    the panels' words above say "letter"."""
    from colosseum.themes import seat_symbols

    if seat_symbols(app.theme) is None:
        return Text()
    state = game.state
    names = game.rules.names(state)
    marks = client.marks(state, theme=app.theme)
    out = Text()
    out.append("  Players: ", Style(bold=True))
    out.append("in this theme a player is a symbol where the words above say letter: ")
    for seat, name in enumerate(names):
        style = client.seat_style(state, seat, theme=app.theme, dark=app.current_theme.dark)
        out.append(f"{marks[seat]} ", style + Style(bold=True))
        out.append(name, style)
        out.append(", " if seat < len(names) - 1 else "\n")
    return out
