"""The ``random`` bot: any legal action, uniformly among the kinds of choice offered (a refusal
"not this round" counts as the refusal it is, D-69).

It runs in every random playout, so it draws its numbers straight from the generator's
``getrandbits`` the way ``random.Random.randrange``, ``randint`` and ``choice`` do (rejection
sampling on ``n.bit_length()`` bits): the same calls in the same order, so a seed gives the very
same game as with those methods, without their argument checks.
"""

from __future__ import annotations

import random
from functools import cache

from colosseum.core.games.colosseum.actions import Action, ProposeDeal, RejectDeal
from colosseum.core.games.colosseum.components import load_catalog
from colosseum.core.games.colosseum.model import State, Transfer
from colosseum.core.games.colosseum.offers import legal_parts


@cache
def _kinds(variant: str) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The tile kinds a deal may swap (performers and the balatro) and their codes by kind."""
    cat = load_catalog(variant)
    return (*cat.performers, cat.balatro), tuple(cat.codes)


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def _below(self, n: int) -> int:
        """``rng.randrange(n)`` for ``n > 0``: the same draws, the same result."""
        bits = self.rng.getrandbits
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        return r

    def act(self, state: State) -> Action:
        seat, acts, bids, can_propose = legal_parts(state)
        na = len(acts)
        if na > 2 and type(acts[-1]) is RejectDeal and acts[-1].whole_round:
            na -= 1  # a refusal "not this round" (D-69, offered last) is not a move of its own here
        n = na + len(bids) + (1 if can_propose else 0)
        # ``self._below(n)`` written out: this runs for every action of a random playout, and
        # the call alone cost 2% of the playouts' time
        bits = self.rng.getrandbits
        k = n.bit_length()
        i = bits(k)
        while i >= n:
            i = bits(k)
        if i < na:
            return acts[i]
        i -= na
        if i < len(bids):
            opt = bids[i]
            return opt.action(seat, opt.low + self._below(opt.high + 1 - opt.low))  # randint(low, high)
        return self.random_deal(state, seat) or acts[-1]

    def random_deal(self, state: State, seat: int) -> Action | None:
        """A one-for-one swap of tiles with a random other player, if both have tiles."""
        kinds, codes = _kinds(state.setup.variant)
        players = state.players
        # choice() of the other seats, in seat order
        j = self._below(len(players) - 1)
        other = j if j < seat else j + 1
        if any(r.whole_round and r.proposer == seat and r.by == other for r in state.refusals):
            return None  # D-69: that player asked for no more offers from this one this round
        have = players[seat].tiles
        mine = [k for k in kinds if have[k]]
        have = players[other].tiles
        theirs = [k for k in kinds if have[k]]
        if not mine or not theirs:
            return None
        give = mine[self._below(len(mine))]
        get = theirs[self._below(len(theirs))]
        return ProposeDeal(
            player=seat,
            transfers=(
                Transfer(seat, other, codes[give], 1),
                Transfer(other, seat, codes[get], 1),
            ),
        )

    def answer(self, state: State) -> Action:  # pragma: no cover - same as act
        return self.act(state)
