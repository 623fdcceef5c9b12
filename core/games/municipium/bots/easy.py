"""The ``easy`` Municipium bot: greedy's judgement, but now and then a random legal action.

With probability ``blunder`` (default 0.15, as Colosseum's easy bot) a decision with a choice is
taken by the random bot, otherwise by greedy.  Deterministic given its seed.
"""

from __future__ import annotations

import random

from colosseum.core.games.municipium.actions import MuniAction
from colosseum.core.games.municipium.bots.greedy import GreedyBot
from colosseum.core.games.municipium.model import State
from colosseum.core.games.municipium.offers import legal

BLUNDER = 0.15


class EasyBot:
    name = "easy"

    def __init__(self, seed: int = 0, blunder: float = BLUNDER) -> None:
        self.rng = random.Random(seed)
        self.blunder = blunder
        self.greedy = GreedyBot(seed)

    def act(self, state: State) -> MuniAction:
        if self.rng.random() < self.blunder:
            options = legal(state)
            if len(options) > 1:
                return self.rng.choice(options)
        return self.greedy.act(state)
