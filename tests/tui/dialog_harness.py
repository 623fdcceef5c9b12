"""Helpers for the dialog tests, which run on the real client: ``ColosseumApp`` with its
``GameScreen`` over a ``LocalSession`` (seat 0 human, the other seats random bots that play at
once), so the dialog tests exercise the same dialog director as a game.

Game positions are found by letting random bots play a seeded game (``find_position``); the
snapshot positions are stored as game logs (``data/positions/<name>.jsonl``: the setup and
the actions that reach the position) and loaded by replaying them.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

from colosseum.core.gamelog import dump_log, make_header
from colosseum.core.games.colosseum import GameSetup, RuleError, apply, legal, new_game, to_act
from colosseum.core.games.colosseum.bots import make_bot
from colosseum.core.logread import read_log
from colosseum.tui.app import ColosseumApp
from colosseum.tui.games.colosseum.board import BoardPanel
from colosseum.tui.session import LocalSession, Seat

NAMES = ("Kat", "Becky", "Laura", "Mia", "Nora")
POSITIONS_DIR = Path(__file__).with_name("data") / "positions"


def find_position(pred, *, n=4, seed=1, tries=60, first_player=None, variant="grand", max_actions=3000, actor=0):
    """(setup, actions) of the first position, over seeds seed, seed+1, ..., where seat ``actor``
    is to act (any seat if None) and ``pred(state)`` holds, reached by random bots playing
    every seat."""
    for s in range(seed, seed + tries):
        setup = GameSetup(players=NAMES[:n], seed=s, first_player=first_player, variant=variant)
        st = new_game(setup)
        bots = [make_bot("random", seed=1000 * s + i) for i in range(n)]
        actions = []
        for _ in range(max_actions):
            if st.phase == "over":
                break
            if (actor is None or to_act(st) == actor) and pred(st):
                return setup, actions
            a = bots[to_act(st)].act(st)
            try:
                st2, _ = apply(st, a)
            except RuleError:
                a = legal(st).actions[-1]
                st2, _ = apply(st, a)
            st = st2
            actions.append(a)
    raise LookupError("no such position")


def make_session(setup, actions, humans=(0,)):
    seats = tuple(Seat("human") if i in humans else Seat("random") for i in range(len(setup.players)))
    return LocalSession(setup, seats, actions=list(actions))


def dialog_app(session, *, auto: bool = False) -> ColosseumApp:
    """The client over ``session``, bots without delay, a fixed theme.  ``auto``: dialogs open
    by themselves as in a game; else only the first one, with ``open_first`` (and hot-seat
    hand-overs), so a test sees what its keys did before the game moves on."""
    return ColosseumApp(session, bot_delay=0, theme="colosseum-dark", auto_dialogs=auto)


async def settle(pilot, rounds: int = 6) -> None:
    """Let bots, listeners and dialogs catch up."""
    for _ in range(rounds):
        await pilot.pause()


async def open_first(pilot) -> None:
    """Open the dialog of the local seat to act, as the player does with ``a``."""
    await settle(pilot)
    await pilot.press("a")
    await settle(pilot)


def board_preview(app) -> frozenset[int]:
    """The track spaces the game's board highlights now."""
    return app.game_screen().query_one(BoardPanel).preview


# ---------------------------------------------------------------------- recorded positions


def position_path(name: str) -> Path:
    return POSITIONS_DIR / f"{name}.jsonl"


def record_positions(cases: dict) -> None:
    """Write each case's position (``{name: (pred, kwargs)}``) as a game log, so snapshots
    replay the same game whatever the bots do later.  Run by hand after a rules change:
    ``python -c "import test_dialog_snapshots as t; t.record()"`` from tests/tui/."""
    POSITIONS_DIR.mkdir(parents=True, exist_ok=True)
    for name, (pred, kw) in cases.items():
        setup, actions = find_position(pred, **kw)
        seats = ("human",) + ("random",) * (len(setup.players) - 1)
        header = make_header(setup, seats, created=_dt.datetime(2026, 1, 1, tzinfo=_dt.UTC))
        position_path(name).write_bytes(dump_log(header, actions))


def load_position(name: str, pred=None, **kw):
    """(setup, actions) recorded for ``name``; found afresh if it was never recorded."""
    path = position_path(name)
    if path.exists():
        log = read_log(path)
        if log.error is not None:
            raise log.error
        return log.setup, list(log.actions)
    return find_position(pred, **kw)
