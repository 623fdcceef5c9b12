"""Helpers for the Municipium client tests: sessions from recorded positions, and an app
driver that answers every dialog with key presses only.

Positions are action lists recorded in ``data/muni_ui_positions.json`` (``record_positions``
rewrites it) so that they replay the same whatever the bots do later.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

from colosseum.core.games.municipium import MuniSetup, State, apply, decode_action, encode_action, new_game, to_act
from colosseum.core.games.municipium.bots import make_bot
from colosseum.tui.app import ColosseumApp
from colosseum.tui.games.municipium.dialog_base import MuniDialog
from colosseum.tui.session import LocalSession, Seat

NAMES = ("Kat", "Becky", "Laura", "Mia")
DATA = Path(__file__).parent / "data" / "muni_ui_positions.json"


def session_for(setup: MuniSetup, actions=(), humans=(0,), bot: str = "greedy") -> LocalSession:
    seats = tuple(Seat("human") if i in humans else Seat(bot) for i in range(len(setup.players)))
    return LocalSession(setup, seats, actions=list(actions))


def find_position(
    pred: Callable[[State], bool], *, n: int = 3, seed: int = 1, tries: int = 80, options=(), actor: int | None = 0
) -> tuple[MuniSetup, list]:
    """(setup, actions) of the first position, over seeds seed, seed+1, ..., where seat
    ``actor`` is to act and ``pred(state)`` holds, reached by random bots at every seat."""
    for s in range(seed, seed + tries):
        setup = MuniSetup(players=NAMES[:n], seed=s, options=tuple(options))
        st = new_game(setup)
        bots = [make_bot("random", seed=1000 * s + i) for i in range(n)]
        actions = []
        for _ in range(3000):
            if (actor is None or to_act(st) == actor) and pred(st):
                return setup, actions
            if st.phase == "over":
                break
            a = bots[to_act(st)].act(st)
            st, _ = apply(st, a)
            actions.append(a)
    raise LookupError("no such position")


def load_positions() -> dict[str, tuple[MuniSetup, list]]:
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    out = {}
    for name, rec in raw.items():
        setup = MuniSetup(players=tuple(rec["players"]), seed=rec["seed"], options=tuple(rec["options"]))
        out[name] = (setup, [decode_action(json.dumps(a)) for a in rec["actions"]])
    return out


def record_positions(cases: dict[str, tuple[Callable[[State], bool], dict]]) -> None:
    """Find and store a position for each case (after a rules change)."""
    raw = {}
    for name, (pred, kw) in cases.items():
        setup, actions = find_position(pred, **kw)
        raw[name] = {
            "players": list(setup.players),
            "seed": setup.seed,
            "options": list(setup.options),
            "actions": [json.loads(encode_action(a)) for a in actions],
        }
    DATA.parent.mkdir(exist_ok=True)
    body = ",\n".join(f"{json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}" for k, v in raw.items())
    DATA.write_text("{\n" + body + "\n}\n", encoding="utf-8")


def position_session(name: str, humans=None) -> LocalSession:
    setup, actions = load_positions()[name]
    humans = tuple(range(len(setup.players))) if humans is None else humans
    return session_for(setup, actions, humans=humans)


async def answer_dialogs(
    pilot, app: ColosseumApp, rng: random.Random, *, max_steps: int = 20_000, until=None, seen: set[str] | None = None
) -> int:
    """Answer every dialog that opens with arrows / Tab and Enter until the game is over (or
    ``until(state)``); returns the number of dialog answers given."""
    answers = 0
    for _ in range(max_steps):
        st = app.session.state
        if st.phase == "over" or (until is not None and until(st)):
            return answers
        screen = app.screen
        if isinstance(screen, MuniDialog) and not screen.over:
            if seen is not None:
                seen.add(type(screen).__name__)
            keys = [rng.choice(("down", "tab", "down", "up"))] * rng.randrange(0, 4) + ["enter"]
            await pilot.press(*keys)
            answers += 1
        else:
            await pilot.pause(0.01)
    raise AssertionError(f"the game did not end: {app.session.state.phase} turn {app.session.state.turn}")
