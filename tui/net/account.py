"""The lobby's account screen (``a``): this player's name and SSH keys; a new name (unique, the
server's name rules) or another key (its public key line pasted, as in an ``authorized_keys``
file: D-79).  Keyboard only, 80x24; names and keys are shown as text, never as markup."""

from __future__ import annotations

from typing import Any, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input

from colosseum.tui.plain import Static
from colosseum.tui.widgets.keybar import KeyBar

from .host import protocol as P
from .host.proto_client import NetError

__all__ = ["AccountScreen", "account_text"]

HELP = (
    "Tab: the next field | Enter: send it | Esc: lobby\n"
    "A key: paste the line of its .pub file (never the private key);\n"
    "from then on it logs you in as this player."
)


def account_text(info: P.AccountInfo) -> Text:
    lines = [f"Your account: {info.name}", f"Keys ({len(info.keys)}):"]
    lines += [f"  {k}" for k in info.keys[:6]]
    if len(info.keys) > 6:
        lines.append(f"  and {len(info.keys) - 6} more")
    return Text("\n".join(lines))


class AccountScreen(Screen[None]):
    """Name and keys of this player; rename, add a key."""

    BINDINGS = [Binding("escape", "back", "Lobby")]
    DEFAULT_CSS = """
    AccountScreen { layout: vertical; }
    #ac-head { height: auto; padding: 0 1; }
    AccountScreen .ac-label { height: 1; padding: 0 1; margin-top: 1; }
    AccountScreen Input { margin: 0 1; }
    #ac-note { height: auto; min-height: 1; padding: 0 1; margin-top: 1; }
    #ac-help { height: auto; padding: 0 1; color: $text-muted; dock: bottom; margin-bottom: 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="ac-head")
        yield Static("New name:", classes="ac-label")
        yield Input(placeholder="1 to 24 cells, not another player's", id="ac-name", max_length=64, compact=True)
        yield Static("Add a key (paste its public key line):", classes="ac-label")
        yield Input(placeholder="ssh-ed25519 AAAA... you@laptop", id="ac-key", max_length=16000, compact=True)
        yield Static(id="ac-note")
        yield Static(Text(HELP), id="ac-help")
        yield KeyBar()

    def on_mount(self) -> None:
        self.ask(P.Account())
        self.query_one("#ac-name", Input).focus()

    def ask(self, msg: P.Account) -> bool:
        head, note = self.query_one("#ac-head", Static), self.query_one("#ac-note", Static)
        try:
            info: P.AccountInfo = cast(Any, self.app).client.request(msg, P.AccountInfo)
        except NetError as exc:
            note.update(Text(str(exc)))
            return False
        head.update(account_text(info))
        note.update(Text(info.note))
        if msg.what == "rename":
            client = cast(Any, self.app).client
            client.name = info.name  # the lobby's title says it from now on
        return True

    def on_input_submitted(self, event: Input.Submitted) -> None:
        value = event.value.strip()
        if not value:
            return
        what = "rename" if event.input.id == "ac-name" else "add_key"
        if self.ask(P.Account(what=what, value=value)):
            event.input.value = ""

    def action_back(self) -> None:
        self.dismiss(None)
