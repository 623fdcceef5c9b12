"""One meaning per key (issue 23): a letter means the same on the game screen and in every
decision dialog of every game, so a key pressed for the screen as a dialog opens under it (`g`,
the bots play on; `r`, the rules; `e`, the result; `a`, act; `d`, a deal) never acts there, and a
key of one dialog (`p`, pass) never does something else in the next (decision D-66)."""

from __future__ import annotations

import importlib
import pkgutil

from textual.binding import Binding

import colosseum.tui.dialogs
import colosseum.tui.games
from colosseum.core.registry import spec
from colosseum.tui.app import ColosseumApp
from colosseum.tui.client import load_client
from colosseum.tui.dialogs.frame import DecisionScreen
from colosseum.tui.screens.game import GameScreen

#: actions that say the same thing in different words
MEANING = {
    # pass: leave this decision without doing it (end the turn, skip, perform nothing)
    "pass_bid": "pass",
    "pass_turn": "pass",
    "end_turn": "pass",
    "skip": "pass",
    "nothing": "pass",
    # no: answer a proposal or an offer with no
    "reject": "no",
    "decline": "no",
    "full_log": "log",
    "focus_log": "log",
    "app.help": "help",
    "app.rules": "rules",
}


def meaning(b: Binding) -> str:
    action = b.action.split("(")[0]
    return MEANING.get(action, action)


def keys(b: Binding) -> list[str]:
    return [k.strip() for k in b.key.split(",")]


def bindings_of(cls: type) -> list[Binding]:
    found: list[Binding] = []
    for klass in cls.__mro__:
        for b in klass.__dict__.get("BINDINGS", []):
            if isinstance(b, Binding):
                found.append(b)
    return found


def dialog_classes() -> list[type]:
    for package in (colosseum.tui.games, colosseum.tui.dialogs):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(info.name)
    out: list[type] = []
    todo = [DecisionScreen]
    while todo:
        cls = todo.pop()
        out.append(cls)
        todo += cls.__subclasses__()
    return out


def one_char(key: str) -> bool:
    return len(key) == 1 and key.isalnum()


def test_every_dialog_is_found():
    names = {c.__name__ for c in dialog_classes()}
    for name in ("InvestDialog", "AuctionDialog", "NobleDialog", "PerformDialog", "MoveDialog", "CardDialog"):
        assert any(name in n for n in names), (name, sorted(names))


def test_a_letter_means_one_thing_on_the_game_screen_and_in_every_dialog():
    screen: dict[str, str] = {}
    own = [b for name in ("colosseum", "municipium") for b in load_client(spec(name)).bindings()]
    for b in [*bindings_of(ColosseumApp), *bindings_of(GameScreen), *own]:
        assert isinstance(b, Binding)
        for k in keys(b):
            if one_char(k):
                screen.setdefault(k, meaning(b))
    dialogs: dict[str, dict[str, str]] = {}  # key -> meaning -> a dialog using it
    for cls in dialog_classes():
        for b in bindings_of(cls):
            for k in keys(b):
                if one_char(k):
                    dialogs.setdefault(k, {}).setdefault(meaning(b), cls.__name__)
    clashes = []
    for k, meanings in sorted(dialogs.items()):
        if len(meanings) > 1:
            clashes.append(f"{k!r} in dialogs: {meanings}")
        for m, where in meanings.items():
            if k in screen and screen[k] != m:
                clashes.append(f"{k!r} is {screen[k]!r} on the game screen, {m!r} in {where}")
    assert not clashes, "\n".join(clashes)


def test_the_pace_keys_and_the_screen_keys_are_free_in_dialogs():
    used = {k for cls in dialog_classes() for b in bindings_of(cls) for k in keys(b)}
    for key in ("g", "full_stop", "a", "e", "d", "v", "f", "i", "h"):
        assert key not in used, key
