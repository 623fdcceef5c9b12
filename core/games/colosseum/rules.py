"""Colosseum's rules behind the game interface (:class:`colosseum.core.game.Rules`): the engine's
own functions, as they are."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from colosseum.core.events import Event
from colosseum.core.game import Rules, ScoreSheet, places
from colosseum.core.games.colosseum import bots, invariants
from colosseum.core.games.colosseum.actions import Action, ChooseDice, Roll
from colosseum.core.games.colosseum.engine import apply, apply_fast, to_act
from colosseum.core.games.colosseum.model import GameSetup, State
from colosseum.core.games.colosseum.offers import legal, safe_action
from colosseum.core.games.colosseum.phases.setup import new_game
from colosseum.core.games.colosseum.phases.trade import may_propose
from colosseum.core.games.colosseum.queries import ANY_SEAT_ACTIONS, catalog
from colosseum.core.games.colosseum.spec import SPEC
from colosseum.core.games.colosseum.view import determinised, player_view

__all__ = ["RULES", "ColosseumRules"]

_SHORT = {
    "a tile left face down was turned up": "revealed",
    "tiles were drawn from the bag": "draw",
    "chance decided the new position": "chance",
    "a die was rolled": "dice",
}


class ColosseumRules(Rules[GameSetup, State, Action]):
    spec = SPEC
    setup_type = GameSetup
    state_type = State
    action_type = Action

    def new_game(self, setup: GameSetup) -> State:
        return new_game(setup)

    def to_act(self, state: State) -> int:
        return to_act(state)

    def legal_actions(self, state: State) -> Sequence[Action]:
        """Every concrete action, bids at every amount of their ranges (deal proposals, whose
        terms are free, are not listed: ``legal`` says whether one may be made)."""
        choices = legal(state)
        out: list[Action] = list(choices.actions)
        for option in choices.bids:
            out += [option.action(choices.player, amount) for amount in range(option.low, option.high + 1)]
        return out

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        return apply(state, action)

    def apply_quiet(self, state: State, action: Action) -> State:
        return apply_fast(state, action)[0]

    def may_act(self, state: State, seat: int, action: Action) -> bool:
        return to_act(state) == seat or type(action) in ANY_SEAT_ACTIONS

    def fallback_action(self, state: State) -> Action:
        return safe_action(state)

    def out_of_turn(self, state: State, seat: int) -> bool:
        return to_act(state) != seat and may_propose(state, seat)

    def bot_offer(self, bot: Any, state: State, seat: int) -> Action | None:
        active = to_act(state)
        if seat == active or not may_propose(state, active):
            return None
        return bots.deal_offer(bot, state, seat)

    def ranks(self, state: State) -> tuple[int, ...] | None:
        result = state.result
        return None if result is None else places(result.standings, len(state.players))

    def scores(self, state: State) -> tuple[int, ...]:
        return tuple(p.acclaim for p in state.players)

    def names(self, state: State) -> tuple[str, ...]:
        return tuple(p.name for p in state.players)

    def player_view(self, state: State, seat: int | None) -> State:
        return player_view(state, seat)

    def determinised(self, state: State, luck: int) -> State:
        return determinised(state, luck)

    def chance_between(self, before: State, after: State) -> tuple[str, str]:
        if before.aside != after.aside:
            what = "a tile left face down was turned up"
        elif before.rng != after.rng:
            if before.bag != after.bag:
                what = "tiles were drawn from the bag"
            elif before.round != after.round or before.phase != after.phase or before.phase == "setup":
                what = "chance decided the new position"
            else:
                what = "a die was rolled"
        else:
            return ("", "")
        return (what, _SHORT[what])

    def describe(self, action: Action) -> str:
        mode = getattr(action, "mode", None)
        if mode in ("sum", "split"):
            return f"chose to {'add' if mode == 'sum' else 'split'} the dice"
        fields = msgspec.to_builtins(action)
        tag = fields.pop("a")
        player = fields.pop("player")
        rest = ", ".join(f"{k}={v!r}" for k, v in fields.items())
        return f"{tag} by seat {player}" + (f" ({rest})" if rest else "")

    def progress(self, state: State) -> str:
        if state.phase == "setup":
            return "setup"
        return f"round {state.round}"

    def first_seat(self, state: State) -> int | None:
        # G-1.5: the markers are stacked in turn order from the first player (seq 0) at the start
        seqs = [p.seq for p in state.players]
        return seqs.index(0) if 0 in seqs else None

    def step_key(self, state: State, step: str) -> Any:
        if step == "round":
            return state.round if state.phase != "over" else -1
        if step == "phase":
            return (state.round, state.phase)
        if step == "turn":
            return (state.round, state.phase, state.turn, to_act(state))
        raise ValueError(f"unknown step {step!r}")

    score_name = "Acclaim"

    def score_word(self, state: State) -> str:
        return catalog(state).term("acclaim")  # "spectators" in the original (O-2)

    luck_words = "the dice and the tiles drawn from the bag"

    def invariants(self, state: State, previous: State | None) -> list[str]:
        return invariants.check(state, previous)

    def record_details(self, state: State) -> dict[str, Any]:
        result = state.result
        assert result is not None
        stars = [0] * state.n
        for standing in result.standings:
            stars[standing.seat] = standing.stars
        return {
            "variant": state.setup.variant,
            "acclaim": [p.acclaim for p in state.players],
            "coins": [p.coins for p in state.players],
            "stars": stars,  # Star Performers held at the end (tie-break 2)
            "stack": [p.seq for p in state.players],  # marker stack order (tie-break 3)
            "decided_by": result.standings[0].decided_by,  # what separated the winner
            "rounds": state.round,
        }

    # ---- the search (core.search): Colosseum's candidates and playout bot
    def candidates(self, state: State, first: Action, cap: int, policy: Any) -> list[Action]:
        from colosseum.core.games.colosseum.bots.search import candidates

        return candidates(state, first, cap, policy)

    def win_share(self, state: State, seat: int) -> float:
        # the winner the result names first (D-20: the first in seat order of those sharing)
        result = state.result
        return 1.0 if result is not None and result.winner == seat else 0.0

    def playout_bot(self, seed: int) -> Any:
        from colosseum.core.games.colosseum.bots.search import PlayoutGreedy

        return PlayoutGreedy(seed)

    def action_text(self, state: State, action: Action) -> str:
        if isinstance(action, ChooseDice):  # the engine logs nothing for it
            name = state.players[action.player].name
            return f"{name} uses the dice {'one by one' if action.mode == 'split' else 'as a sum'}"
        return super().action_text(state, action)

    def chance_words(self, state: State, action: Action) -> str:
        name = state.players[action.player].name
        return f"{name} rolls the dice" if isinstance(action, Roll) else super().chance_words(state, action)

    def score_sheet(
        self, states: Sequence[State], actions: Sequence[Action], events: Sequence[Sequence[Event]]
    ) -> ScoreSheet:
        from colosseum.core.games.colosseum.scoresheet import score_sheet

        return score_sheet(states, actions, events)

    def make_bot(self, level: str, seed: int, think: float | None = None) -> Any:
        return bots.make_bot(level, seed, think)

    def level_of(self, name: str) -> str:
        return bots.level_of(name)

    def bot_names(self) -> tuple[str, ...]:
        return tuple(bots.BOTS)


RULES = ColosseumRules()
