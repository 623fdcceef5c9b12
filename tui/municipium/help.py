"""F1 help (the keys that work now and what the panels show) and the rules in short, in this
project's own words (the full reading is docs/rules.md, "Municipium (M)")."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen

from colosseum.tui.plain import Static

PANELS = (
    ("Header", "the turn, the card in play, who must act and what they decide"),
    (
        "Board",
        "the seven institutions 0-VI.  Members: the players there, first (most influence) first: "
        "letter, members, one '*' per crowned member (a crown counts 2).  Ban: the citizens on the "
        "banner (P priest, S soldier, M merchant, A advocate; 3 set off a citizen event).  Chm: "
        "the chamber: G the governor, f the favour, then its citizen.  Roads: neighbours.  Below: "
        "the Temple order (ties go to the higher disc), the deck, the bag, the favour supply and "
        "the wreaths left",
    ),
    (
        "Families",
        "'>' who must act; D decurions, F favours, then citizens held by kind; family cards left and Temple rank",
    ),
    ("Log", "every event, newest at the bottom; focus it with l, scroll with the arrows, End"),
    (
        "Dialogs",
        "arrows or Tab move, Enter chooses, Esc goes back a step or closes (the game waits; a or "
        "Enter opens the dialog again).  The lines under the list show what the choice would do",
    ),
)

GENERIC = {"Focus Next", "Focus Previous", "Copy selected text", "palette"}

RULES = (
    (
        "The aim",
        "2 to 4 families spread members over seven institutions.  Collect citizens of the four "
        "kinds (priest, soldier, merchant, advocate) and the governor's favours (wild); a full "
        "set of four is turned in at once for a decurion.  The game ends at the end of the turn in "
        "which someone has 5 decurions (4 in the short game); most decurions wins, then most "
        "favours and citizens held, then the higher Temple rank.",
    ),
    (
        "Setup and placement",
        "Each banner starts with one citizen; with 3-4 players each chamber gets a citizen from "
        "the bag.  In turn from the start player, everyone places one member at a time until all "
        "7 are placed; most Temple members takes Temple space I.",
    ),
    (
        "Influence",
        "Members at an institution, a crowned member counting 2.  The first is the player with "
        "most influence; ties go to the higher Temple rank, so there is always one first and one "
        "second.",
    ),
    (
        "A turn",
        "First an optional move: one or two members one step along roads, or one member two "
        "steps.  Then a card: the top common card (Governor's Visit, Citizens' Visit, One Power, "
        "All Powers) or one of your three family cards (Citizens' Invitation, Great Family, Your "
        "Powers), each usable once.",
    ),
    (
        "Governor event",
        "The governor moves clockwise to the next chamber: the first there takes its favour, the "
        "second its citizen (3-4 players); with one player there, the citizen goes to the bag.  "
        "Then the chamber is refilled.",
    ),
    (
        "Citizen event",
        "A citizen is placed on the banner of an institution that takes its kind (priests "
        "anywhere; soldiers Tavern or Praetorium; merchants Baths or Emporium; advocates Basilica "
        "or Forum).  When a banner holds 3, the first there keeps 2 of them, the second takes "
        "the last.",
    ),
    (
        "Powers",
        "Used only by the first at an institution, and always optional.  0 Temple: re-order the "
        "discs by Temple influence.  I Tavern: pull members of one colour from one institution to "
        "the Tavern.  II Baths: your Baths members go to the Temple and one member there is "
        "crowned.  III Emporium: draw and place citizens until you stop or an event.  IV "
        "Basilica: 3 citizens or favours for a decurion, or draw a citizen.  V Forum: take a "
        "citizen from a player or a banner.  VI Praetorium: rearrange your members.",
    ),
)


def _section(title: str, body: str) -> Text:
    t = Text(title + "\n", Style(bold=True))
    t.append(body + "\n")
    return t


class MuniRulesScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    MuniRulesScreen { align: center middle; }
    MuniRulesScreen > VerticalScroll { width: 76; max-width: 100%; height: 1fr; max-height: 100%;
        border: round $primary; border-title-color: $primary; padding: 0 1; background: $surface; }
    """
    BINDINGS = [
        Binding("escape,r,q", "close", "Close", id="mrules.close"),
        Binding("down", "scroll(1)", "Down", show=False, id="mrules.down"),
        Binding("up", "scroll(-1)", "Up", show=False, id="mrules.up"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll() as box:
            box.border_title = "Municipium: the rules in short"
            box.border_subtitle = "arrows scroll, Esc closes"
            text = Text()
            for title, body in RULES:
                text.append_text(_section(title, body))
                text.append("\n")
            yield Static(text)

    def action_scroll(self, lines: int) -> None:
        self.query_one(VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_close(self) -> None:
        self.dismiss()


class MuniHelpScreen(ModalScreen[None]):
    """The keys active on the screen below, and the panels."""

    DEFAULT_CSS = MuniRulesScreen.DEFAULT_CSS.replace("MuniRulesScreen", "MuniHelpScreen")
    BINDINGS = [
        Binding("escape,f1,question_mark,q", "close", "Close", id="mhelp.close"),
        Binding("down", "scroll(1)", "Down", show=False, id="mhelp.down"),
        Binding("up", "scroll(-1)", "Up", show=False, id="mhelp.up"),
    ]

    def __init__(self, below: Screen[Any]) -> None:
        super().__init__()
        self.below = below

    def compose(self) -> ComposeResult:
        with VerticalScroll() as box:
            box.border_title = "Help"
            box.border_subtitle = "arrows scroll, Esc closes"
            text = Text("Keys now\n", Style(bold=True))
            seen: set[str] = set()
            for _key, active in self.below.active_bindings.items():
                b = active.binding
                if not active.enabled or not b.description or b.description in seen:
                    continue
                if b.description in GENERIC or b.action in ("help", "muni_help", "quit", "command_palette"):
                    continue
                if not isinstance(active.node, Screen | App) and type(active.node).__name__ != "LogPanel":
                    continue  # a list's own keys: one line below says how lists work
                seen.add(b.description)
                text.append(f"  {self.app.get_key_display(b):<8} {b.description}\n")
            if type(self.below).__name__.endswith("Dialog"):
                text.append("  Up/Down  move in the list (Tab too); Home/End, PgUp/PgDn\n")
            text.append("  F1 / ?   this help\n  ^p       command palette (themes)\n  ^q       quit\n\n")
            for title, body in PANELS:
                text.append_text(_section(title, body))
            yield Static(text)

    def action_scroll(self, lines: int) -> None:
        self.query_one(VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_close(self) -> None:
        self.dismiss()
