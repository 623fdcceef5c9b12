"""Municipium's rules behind the game interface (:class:`colosseum.core.game.Rules`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from colosseum.core.events import Event
from colosseum.core.game import Rules, ScoreLine, ScoreSheet, places
from colosseum.core.games.municipium import bots, invariants
from colosseum.core.games.municipium.actions import BasilicaDraw, DrawCommon, EmporiumDraw, MuniAction
from colosseum.core.games.municipium.engine import apply, new_game, to_act
from colosseum.core.games.municipium.model import MuniSetup, State
from colosseum.core.games.municipium.offers import legal
from colosseum.core.games.municipium.spec import SPEC

__all__ = ["RULES", "MunicipiumRules"]


class MunicipiumRules(Rules[MuniSetup, State, MuniAction]):
    spec = SPEC
    setup_type = MuniSetup
    state_type = State
    action_type = MuniAction

    def new_game(self, setup: MuniSetup) -> State:
        return new_game(setup)

    def to_act(self, state: State) -> int:
        return to_act(state)

    def legal_actions(self, state: State) -> Sequence[MuniAction]:
        return legal(state)

    def apply(self, state: State, action: MuniAction) -> tuple[State, list[Event]]:
        return apply(state, action)

    def ranks(self, state: State) -> tuple[int, ...] | None:
        result = state.result
        return None if result is None else places(result.standings, len(state.players))

    def scores(self, state: State) -> tuple[int, ...]:
        return tuple(p.decurions for p in state.players)

    def names(self, state: State) -> tuple[str, ...]:
        return tuple(p.name for p in state.players)

    def player_view(self, state: State, seat: int | None) -> State:
        """Every seat sees the same: the bag's next draws and the next shuffle come from ``rng``
        (blanked) and the seed or secret would replay them (blanked); the common deck lies face
        down, so its order is not seen, only what it holds (sorted: anyone can count it from the
        cards out of it, M-2.8)."""
        setup = msgspec.structs.replace(state.setup, seed=0, secret="")
        return msgspec.structs.replace(state, rng=0, setup=setup, deck=tuple(sorted(state.deck)))

    def determinised(self, state: State, luck: int) -> State:
        setup = msgspec.structs.replace(state.setup, secret="") if state.setup.secret else state.setup
        return msgspec.structs.replace(state, rng=luck, setup=setup)

    def chance_between(self, before: State, after: State) -> tuple[str, str]:
        if before.rng == after.rng:
            return ("", "")
        if before.bag != after.bag:
            return ("citizens were drawn from the bag", "draw")
        return ("cards were drawn", "draw")

    def describe(self, action: MuniAction) -> str:
        fields = msgspec.to_builtins(action)
        tag = fields.pop("a")
        player = fields.pop("player")
        rest = ", ".join(f"{k}={v!r}" for k, v in fields.items())
        return f"{tag} by seat {player}" + (f" ({rest})" if rest else "")

    def action_text(self, state: State, action: MuniAction) -> str:
        if isinstance(action, (DrawCommon, BasilicaDraw, EmporiumDraw)):  # (``determinised``
            return self.chance_words(state, action)  # keeps the deck's order: never try them)
        return super().action_text(state, action)

    def chance_words(self, state: State, action: MuniAction) -> str:
        name = state.players[action.player].name
        if isinstance(action, DrawCommon):
            return f"{name} turns over the common card"
        if isinstance(action, BasilicaDraw):
            return f"{name} draws a citizen and keeps it"
        if isinstance(action, EmporiumDraw):
            return f"{name} draws a citizen"
        return super().chance_words(state, action)

    def progress(self, state: State) -> str:
        return "setup" if state.phase == "place" else f"turn {state.turn}"

    def step_key(self, state: State, step: str) -> Any:
        if step == "round":  # a round of Municipium is one player's turn (in the placement: one placement)
            if state.phase == "place":
                return ("place", state.placed)
            return state.turn if state.phase != "over" else -1
        if step == "phase":
            return (state.turn, state.phase)
        if step == "turn":
            return (state.turn, state.phase, to_act(state))
        raise ValueError(f"unknown step {step!r}")

    score_name = "decurions"
    luck_words = "the citizens drawn from the bag and the cards turned over"

    def invariants(self, state: State, previous: State | None) -> list[str]:
        return invariants.check(state, previous)

    def record_details(self, state: State) -> dict[str, Any]:
        result = state.result
        assert result is not None
        return {
            "held": [sum(p.citizens) + p.favours for p in state.players],  # M-11.2's tie-break
            "decided_by": result.standings[0].decided_by,
            "turns": state.turn,
        }

    def score_sheet(
        self, states: Sequence[State], actions: Sequence[MuniAction], events: Sequence[Sequence[Event]]
    ) -> ScoreSheet:
        """Decurions come from full sets exchanged (M-9.2) and hand-ins at the Basilica (M-8.4);
        the tie-breaks (favours and citizens held, the Temple) follow."""
        final = states[-1]
        n = final.n
        sets, basilica = [0] * n, [0] * n
        turns: dict[int, tuple[int, ...]] = {}
        for st in states:
            if st.turn:  # (turn 0: the initial placement, before the first turn)
                turns[st.turn] = tuple(p.decurions for p in st.players)
        for caused in events:
            for e in caused:
                if e.kind == "set" and 0 <= e.seat < n:
                    if "Basilica" in e.text:
                        basilica[e.seat] += 1
                    else:
                        sets[e.seat] += 1
        return ScoreSheet(
            score_name="decurions",
            lines=(
                ScoreLine(label="Full sets exchanged", values=tuple(sets)),
                ScoreLine(label="Hand-ins at the Basilica", values=tuple(basilica)),
                ScoreLine(
                    label="Favours and citizens held (tie-break)",
                    values=tuple(p.favours + sum(p.citizens) for p in final.players),
                    adds=False,
                ),
            ),
            totals=tuple(p.decurions for p in final.players),
            series=tuple(tuple(turns[t][s] for t in sorted(turns)) for s in range(n)),
            series_name="turn",
        )

    def make_bot(self, level: str, seed: int, think: float | None = None) -> Any:
        return bots.make_bot(level, seed, think)

    def level_of(self, name: str) -> str:
        return {"greedy": "normal"}.get(name, name)

    def bot_names(self) -> tuple[str, ...]:
        return (*self.spec.bot_levels, "greedy", "random")

    # ---- the search (core.search): greedy's best options as the candidates
    margin_weight = 0.05  # a decurion is worth more than a point of Acclaim: games are won by 1 or 2
    margin_clip = 10

    def candidates(self, state: State, first: MuniAction, cap: int, policy: Any) -> list[MuniAction]:
        ranked = policy.ranked(state) if hasattr(policy, "ranked") else list(legal(state))
        out = [first]
        for action in ranked:
            if len(out) >= cap:
                break
            if action != first:
                out.append(action)
        return out


RULES = MunicipiumRules()
