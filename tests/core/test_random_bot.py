"""The random bot draws its numbers straight from ``getrandbits``: the choices must be exactly
those of ``random.Random.randrange`` / ``randint`` / ``choice`` (seeded games are pinned in logs
and tests)."""

from __future__ import annotations

import random

import pytest

from colosseum.core.games.colosseum import Action, State, apply, legal, new_game, to_act
from colosseum.core.games.colosseum.actions import ProposeDeal, RejectDeal
from colosseum.core.games.colosseum.bots.random_bot import RandomBot
from colosseum.core.games.colosseum.components import VARIANTS, load_catalog
from colosseum.core.games.colosseum.model import Transfer
from colosseum.core.simulate import make_setup


class _Reference:
    """The random bot as first written, on the ``random.Random`` methods."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, state: State) -> Action:
        ch = legal(state)
        # every action but the refusal "not this round" (D-69): a kind of refusal, not a move
        actions = [a for a in ch.actions if not (isinstance(a, RejectDeal) and a.whole_round)]
        i = self.rng.randrange(len(ch) - (len(ch.actions) - len(actions)))
        if i < len(actions):
            return actions[i]
        i -= len(actions)
        if i < len(ch.bids):
            opt = ch.bids[i]
            return opt.action(ch.player, self.rng.randint(opt.low, opt.high))
        return self.deal(state, ch.player) or ch.actions[-1]

    def deal(self, state: State, seat: int) -> Action | None:
        cat = load_catalog(state.setup.variant)
        kinds = [*cat.performers, cat.balatro]
        other = self.rng.choice([s for s in range(state.n) if s != seat])
        if any(r.whole_round and r.proposer == seat and r.by == other for r in state.refusals):
            return None  # D-69: no more offers to that player this round
        mine = [k for k in kinds if state.players[seat].tiles[k]]
        theirs = [k for k in kinds if state.players[other].tiles[k]]
        if not mine or not theirs:
            return None
        give, get = self.rng.choice(mine), self.rng.choice(theirs)
        return ProposeDeal(
            player=seat,
            transfers=(Transfer(seat, other, cat.codes[give], 1), Transfer(other, seat, cat.codes[get], 1)),
        )


def test_below_is_randrange() -> None:
    for seed in range(20):
        mine, ref = RandomBot(seed), random.Random(seed)
        for n in (1, 2, 3, 5, 7, 8, 9, 31, 32, 33, 100, 1000):
            assert mine._below(n) == ref.randrange(n)
        assert mine.rng.getstate() == ref.getstate()


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_same_games_as_the_reference(variant: str, players: int) -> None:
    for g in range(6):
        state = new_game(make_setup(players, 100 + g, variant=variant))
        bots = [RandomBot(g * 31 + i) for i in range(players)]
        refs = [_Reference(g * 31 + i) for i in range(players)]
        while (seat := to_act(state)) >= 0:
            action = bots[seat].act(state)
            assert action == refs[seat].act(state)
            state, _ = apply(state, action)
        assert all(b.rng.getstate() == r.rng.getstate() for b, r in zip(bots, refs, strict=True))
