"""Nim for 2 to 4 players: a toy third game that exists only in the tests.

It implements the game interface (``core.game``) and nothing else: no client part, no entry
point.  The tests register it (``register()``, or ``COLOSSEUM_GAMES=nim=toygame:SPEC`` for a
process they start), and the shell must then play, save, resume, view, export, fork, simulate
and host it through the interface alone: the proof that nothing outside a game's own package
names a game.

Rules: heaps of stones; on your turn take 1 to 3 stones from one heap; whoever takes the last
stone wins, the others share second place.  The first player is drawn by lot (chance, so the
take-back rule and the generator are exercised); the one option is the heaps' size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, ClassVar

import msgspec
from msgspec import Meta

from colosseum.core import rng
from colosseum.core.errors import RuleError
from colosseum.core.events import Event
from colosseum.core.game import GameSpec, Rules
from colosseum.core.options import SetupBase


class NimSetup(SetupBase, frozen=True, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    game: ClassVar[str] = "nim"
    heap: Annotated[
        Annotated[int, Meta(ge=1, le=12)], Meta(title="Heap size", description="stones in each of the three heaps")
    ] = 5


class Take(msgspec.Struct, frozen=True, kw_only=True, tag="take", tag_field="a"):
    player: int
    heap: int
    count: int


NimAction = Take


class NimState(msgspec.Struct, frozen=True, kw_only=True):
    setup: NimSetup
    rng: int
    heaps: tuple[int, ...]
    turn: int
    winner: int = -1
    actions: int = 0


def _new_game(setup: NimSetup) -> NimState:
    n = len(setup.players)
    if not 2 <= n <= 4:
        raise RuleError("N-1", f"Nim is played by 2 to 4 players, not {n}")
    key = rng.key_of(setup.secret)
    s, first = rng.below(rng.seed_state(setup.seed, key), n, key)
    return NimState(setup=setup, rng=s, heaps=(setup.heap,) * 3, turn=first)


class NimRules(Rules[NimSetup, NimState, Take]):
    setup_type = NimSetup
    state_type = NimState
    action_type = Take

    def new_game(self, setup: NimSetup) -> NimState:
        return _new_game(setup)

    def to_act(self, state: NimState) -> int:
        return -1 if state.winner >= 0 else state.turn

    def legal_actions(self, state: NimState) -> Sequence[Take]:
        if state.winner >= 0:
            return ()
        return tuple(
            Take(player=state.turn, heap=h, count=c)
            for h, left in enumerate(state.heaps)
            for c in range(1, min(3, left) + 1)
        )

    def apply(self, state: NimState, action: Take) -> tuple[NimState, list[Event]]:
        if not isinstance(action, Take) or type(action.count) is not int or type(action.heap) is not int:
            raise RuleError("N-0", "not a Nim action")
        if state.winner >= 0:
            raise RuleError("N-3", "the game is over")
        if action.player != state.turn:
            raise RuleError("N-2", f"it is seat {state.turn}'s turn")
        if not 0 <= action.heap < len(state.heaps) or not 1 <= action.count <= min(3, state.heaps[action.heap]):
            raise RuleError("N-2", "take 1 to 3 stones from a heap that has them")
        heaps = list(state.heaps)
        heaps[action.heap] -= action.count
        name = state.setup.players[action.player]
        events = [
            Event(kind="take", text=f"{name} takes {action.count} from heap {action.heap + 1}.", seat=action.player)
        ]
        winner = action.player if not any(heaps) else -1
        if winner >= 0:
            events.append(Event(kind="end", text=f"{name} takes the last stone and wins.", seat=winner))
        turn = (state.turn + 1) % len(state.setup.players)
        new = msgspec.structs.replace(state, heaps=tuple(heaps), turn=turn, winner=winner, actions=state.actions + 1)
        return new, events

    def ranks(self, state: NimState) -> tuple[int, ...] | None:
        if state.winner < 0:
            return None
        return tuple(1 if i == state.winner else 2 for i in range(len(state.setup.players)))

    def scores(self, state: NimState) -> tuple[int, ...]:
        return tuple(1 if i == state.winner else 0 for i in range(len(state.setup.players)))

    def player_view(self, state: NimState, seat: int | None) -> NimState:
        setup = msgspec.structs.replace(state.setup, seed=0, secret="")
        return msgspec.structs.replace(state, rng=0, setup=setup)

    def determinised(self, state: NimState, luck: int) -> NimState:
        return msgspec.structs.replace(state, rng=luck, setup=msgspec.structs.replace(state.setup, secret=""))

    def chance_between(self, before: NimState, after: NimState) -> tuple[str, str]:
        return ("lots were drawn", "lots") if before.rng != after.rng else ("", "")

    def describe(self, action: Take) -> str:
        return f"takes {action.count} from heap {action.heap + 1}"

    def progress(self, state: NimState) -> str:
        return f"{sum(state.heaps)} stones left"

    def step_key(self, state: NimState, step: str) -> Any:
        return state.actions if step in ("turn", "phase") else state.actions // len(state.setup.players)

    def make_bot(self, level: str, seed: int, think: float | None = None) -> Any:
        if level not in ("normal", "random", "greedy"):
            raise ValueError(f"unknown bot {level!r}")
        return NimBot(seed, level)


class NimBot:
    """``normal`` leaves a multiple of 4 in the heap it takes from where it can; ``random`` any."""

    def __init__(self, seed: int, name: str) -> None:
        import random

        self.rng = random.Random(seed)
        self.name = name

    def act(self, state: NimState) -> Take:
        moves = list(RULES.legal_actions(state))
        if self.name != "random":
            good = [m for m in moves if (state.heaps[m.heap] - m.count) % 4 == 0]
            if good:
                return good[0]
        return self.rng.choice(moves)


SPEC = GameSpec(
    name="nim",
    title="Nim",
    min_players=2,
    max_players=4,
    default_players=2,
    bot_levels=("normal",),
    setup_type=NimSetup,
    rules_path="toygame:RULES",
)
RULES = NimRules()
RULES.spec = SPEC

__all__ = ["RULES", "SPEC", "NimSetup", "NimState", "Take", "register"]


def register() -> None:
    from colosseum.core.registry import register as add

    add(SPEC)
