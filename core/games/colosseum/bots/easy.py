"""The ``easy`` bot: greedy's judgement, but now and then a random legal move instead.

With probability ``blunder`` (default 0.15) a decision is taken by the random bot (any legal
action, a random bid within the offered range), otherwise by greedy.  It loses clearly to greedy
(``normal``) and beats random clearly.  Deterministic given its seed.
"""

from __future__ import annotations

import random

from colosseum.core.games.colosseum import Action, State, legal
from colosseum.core.games.colosseum.bots.greedy import GreedyBot
from colosseum.core.games.colosseum.bots.random_bot import RandomBot

BLUNDER = 0.15


class EasyBot:
    name = "easy"

    def __init__(self, seed: int = 0, blunder: float = BLUNDER) -> None:
        self.rng = random.Random(seed)
        self.blunder = blunder
        self.greedy = GreedyBot(seed)
        self.random = RandomBot(seed + 1)

    def act(self, state: State) -> Action:
        if self.rng.random() < self.blunder and len(legal(state)) > 1:
            return self.random.act(state)
        return self.greedy.act(state)
