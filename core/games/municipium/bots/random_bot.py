"""The ``random`` Municipium bot: any legal action, uniformly."""

from __future__ import annotations

import random

from colosseum.core.games.municipium.actions import MuniAction
from colosseum.core.games.municipium.model import State
from colosseum.core.games.municipium.offers import legal


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, state: State) -> MuniAction:
        return self.rng.choice(legal(state))
