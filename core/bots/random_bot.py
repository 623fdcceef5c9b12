"""The ``random`` bot: any legal action, uniformly among the kinds of choice offered."""

from __future__ import annotations

import random

from colosseum.core.actions import Action, ProposeDeal
from colosseum.core.catalog import load_catalog
from colosseum.core.legal import legal
from colosseum.core.model import State, Transfer


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, state: State) -> Action:
        ch = legal(state)
        n = len(ch)
        i = self.rng.randrange(n)
        if i < len(ch.actions):
            return ch.actions[i]
        i -= len(ch.actions)
        if i < len(ch.bids):
            opt = ch.bids[i]
            return opt.action(ch.player, self.rng.randint(opt.low, opt.high))
        return self.random_deal(state, ch.player) or ch.actions[-1]

    def random_deal(self, state: State, seat: int) -> Action | None:
        """A one-for-one swap of tiles with a random other player, if both have tiles."""
        cat = load_catalog(state.setup.variant)
        kinds = [*cat.performers, cat.balatro]
        other = self.rng.choice([s for s in range(state.n) if s != seat])
        mine = [k for k in kinds if state.players[seat].tiles[k]]
        theirs = [k for k in kinds if state.players[other].tiles[k]]
        if not mine or not theirs:
            return None
        give = self.rng.choice(mine)
        get = self.rng.choice(theirs)
        return ProposeDeal(
            player=seat,
            transfers=(
                Transfer(seat, other, cat.codes[give], 1),
                Transfer(other, seat, cat.codes[get], 1),
            ),
        )

    def answer(self, state: State) -> Action:  # pragma: no cover - same as act
        return self.act(state)
