"""The ``random`` Municipium bot: any legal action, uniformly."""

from __future__ import annotations

import random

from colosseum.core.municipium.actions import MuniAction
from colosseum.core.municipium.legal import legal
from colosseum.core.municipium.model import State


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, state: State) -> MuniAction:
        return self.rng.choice(legal(state))
