"""What a seat may see of each game (``Rules.player_view``), beside the chance to come (no seed,
no secret, no generator state: ``test_chance.py``): what lies face down stays face down.

* The original edition (O-9): the green tiles left aside by the board are seen face down
  (``view.HIDDEN``), as many as lie there, until one is turned up (O-18: then it is in a market,
  and its event names it).  A playout on a view makes them up from what anyone can count.
* Municipium: the common deck is seen in no order (sorted); what it holds anyone can count.
"""

from __future__ import annotations

from collections import Counter

import msgspec

from colosseum.core.games.colosseum import invariants
from colosseum.core.games.colosseum.rules import RULES as COLOSSEUM
from colosseum.core.games.colosseum.view import HIDDEN, determinised, player_view
from colosseum.core.games.municipium.rules import RULES as MUNICIPIUM
from colosseum.core.rng import new_secret


def _positions(rules, setup, bot_level: str = "random", limit: int = 2000):
    state = rules.new_game(setup)
    bots = [rules.make_bot(bot_level, i) for i in range(len(setup.players))]
    out = [state]
    while rules.to_act(state) >= 0 and len(out) < limit:
        action = bots[rules.to_act(state)].act(state)
        try:
            state = rules.apply(state, action)[0]
        except Exception:  # noqa: BLE001 - a random bot's refused move: the safe one
            state = rules.apply(state, rules.fallback_action(state))[0]
        out.append(state)
    return out


def test_the_original_editions_tiles_aside_are_seen_face_down_until_turned_up():
    setup = COLOSSEUM.spec.make_setup(["A", "B", "C"], seed=0, secret=new_secret(), variant="original")
    states = _positions(COLOSSEUM, setup)
    assert states[0].aside, "the original edition leaves green tiles face down"
    turned = 0
    for before, after in zip(states, states[1:], strict=False):
        view = player_view(after, 1)
        assert view.aside == (HIDDEN,) * len(after.aside)
        assert msgspec.structs.replace(view, aside=after.aside, rng=after.rng, setup=after.setup) == after
        turned += len(after.aside) < len(before.aside)
    assert turned and not states[-1].aside  # every one was turned up in the end
    assert player_view(states[0], None) == player_view(states[0], 2)  # every seat sees the same


def test_a_playout_on_a_view_makes_up_the_tiles_aside_from_what_anyone_can_count():
    setup = COLOSSEUM.spec.make_setup(["A", "B", "C", "D"], seed=0, secret=new_secret(), variant="original")
    real = next(s for s in _positions(COLOSSEUM, setup) if s.phase == "invest" and s.aside)
    view = player_view(real, 0)
    made = [determinised(view, luck) for luck in range(20)]
    for luck in made:
        assert Counter(luck.aside) == Counter(real.aside)  # the same tiles ...
        assert invariants.check(luck) == []  # ... so every tile is accounted for
    assert len({d.aside for d in made}) > 1 or len(set(real.aside)) == 1  # ... in an order of its own
    assert determinised(real, 5).aside == real.aside  # a real state's (a server bot's) is left as it is
    # the hard bot thinks on a view (a hint at a table) without knowing them
    line = COLOSSEUM.hint(view, playouts=2, seed=1)
    assert line.hint and line.seat == COLOSSEUM.to_act(view)


def test_municipiums_common_deck_is_seen_in_no_order():
    setup = MUNICIPIUM.spec.make_setup(["A", "B", "C"], seed=0, secret=new_secret())
    states = _positions(MUNICIPIUM, setup, "normal")
    assert any(s.deck != tuple(sorted(s.deck)) for s in states)
    for st in states:
        view = MUNICIPIUM.player_view(st, 0)
        assert view.deck == tuple(sorted(st.deck))  # what it holds, not in what order
        assert msgspec.structs.replace(view, deck=st.deck, rng=st.rng, setup=st.setup) == st
        assert view.setup.seed == 0 and view.setup.secret == "" and view.rng == 0
