"""A small app for testing the dialogs without the main screen: it holds a LocalSession, shows
a plain stand-in for the board on the left, runs the bots (no delay) and pushes the dialog a
local seat needs.  Also finds game positions by letting random bots play a seeded game."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Footer, Static

from colosseum.core import GameSetup, RuleError, apply, decode_action, encode_action, legal, new_game, to_act
from colosseum.core.bots import make_bot
from colosseum.core.engine import MARKET_NAMES
from colosseum.tui.base import BaseApp
from colosseum.tui.dialogs import dialog_for, ensure_dialog
from colosseum.tui.session import LocalSession, Seat

NAMES = ("Kat", "Becky", "Laura", "Mia", "Nora")


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


class Board(Static):
    """A stand-in for the arena: markets and nobles as text (the real board is elsewhere)."""

    def show(self, state) -> None:
        lines = [f"Round {state.round}  {state.phase}", ""]
        for i, lot in enumerate(state.markets):
            from colosseum.core import catalog

            cat = catalog(state)
            tiles = " ".join(cat.tiles[k].short for k in lot)
            lines.append(f"{MARKET_NAMES[i]}  {tiles}")
        lines.append("")
        lines.append("Nobles " + " ".join(str(x) for x in state.nobles))
        for p in state.players:
            lines.append(f"{p.name:<6} A{p.acclaim:<3} ${p.coins:<3} Aq{p.aquilas}")
        self.update("\n".join(lines))


class Harness(BaseApp):
    CSS = """
    #top { height: 1; background: $panel; }
    #board { width: 51%; border: round $secondary; height: 1fr; }
    #right { width: 1fr; border: round $secondary; height: 1fr; }
    """

    def __init__(self, session, seat: int = 0, *, push: bool = True, auto: bool = True, seats=None) -> None:
        super().__init__()
        self.session = session
        self.seat = seat
        self.push = push
        self.auto = auto
        self.seats = seats
        self.previews: list[frozenset[int]] = []
        self._bots_running = False

    def compose(self) -> ComposeResult:
        yield Static(" COLOSSEUM  dialog test", id="top")
        with Horizontal():
            yield Board(id="board")
            yield Static("players, hand ...", id="right")
        yield Footer()

    def on_mount(self) -> None:
        self.session.add_listener(lambda state, events: self.call_later(self.changed))
        self.query_one(Board).show(self.session.state)
        if self.push:
            dialog = dialog_for(self.session, self.seat)
            if dialog is not None:
                self.push_screen(dialog)
        if self.auto:
            self.call_later(self.changed)

    def set_preview(self, spaces: frozenset[int]) -> None:
        self.previews.append(frozenset(spaces))

    async def changed(self) -> None:
        self.query_one(Board).show(self.session.state)
        if self.session.bot_to_act() and not self._bots_running:
            self._bots_running = True
            try:
                await self.session.run_bots(0)
            finally:
                self._bots_running = False
        if self.auto:
            ensure_dialog(self, self.session, self.seats)


async def settle(pilot, rounds: int = 6) -> None:
    """Let bots, listeners and dialogs catch up."""
    for _ in range(rounds):
        await pilot.pause()


# ---------------------------------------------------------------------- recorded positions

POSITIONS_FILE = __import__("pathlib").Path(__file__).with_name("data") / "dialog_positions.json"


def record_positions(cases: dict) -> None:
    """Write the setup and action list of each case's position (``{name: (pred, kwargs)}``) so
    snapshots replay the same game whatever the bots do later.  Run by hand after a rules
    change: ``python -c "import test_dialog_snapshots as t; t.record()"`` from tests/."""
    import json

    import msgspec

    out = {}
    for name, (pred, kw) in cases.items():
        setup, actions = find_position(pred, **kw)
        out[name] = {
            "setup": msgspec.to_builtins(setup),
            "actions": [json.loads(encode_action(a)) for a in actions],
        }
    POSITIONS_FILE.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")


def load_position(name: str, pred=None, **kw):
    """(setup, actions) recorded for ``name``; found afresh if it was never recorded."""
    import json

    import msgspec

    if POSITIONS_FILE.exists():
        data = json.loads(POSITIONS_FILE.read_text())
        if name in data:
            rec = data[name]
            setup = msgspec.convert(rec["setup"], GameSetup)
            actions = [decode_action(json.dumps(a)) for a in rec["actions"]]
            return setup, actions
    return find_position(pred, **kw)
