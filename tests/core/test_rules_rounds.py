"""G-0: rounds, phases and turn order."""

from __future__ import annotations

from builders import play, start

from colosseum.core.games.colosseum import legal, to_act
from colosseum.core.games.colosseum.actions import ChooseFirstPlayer, EndTurn, Retire


def passive_game(n=4, seed=5, variant="grand", chooser=lambda st: (to_act(st) + 1) % st.n):
    """Everyone always passes; the least acclaimed names ``chooser(state)`` first player.
    Returns the sequence of (round, phase, seat to act)."""
    st = start(n, seed=seed, variant=variant)
    trail = []
    while st.phase != "over":
        seat = to_act(st)
        trail.append((st.round, st.phase, seat))
        acts = legal(st).actions
        if st.phase == "closing" and st.closing.stage == "first":
            a = ChooseFirstPlayer(player=seat, first=chooser(st))
        else:
            a = next((x for x in acts if isinstance(x, (EndTurn, Retire))), acts[0])
        st, _ = play(st, a)
    return st, trail


def test_g0_four_rounds_of_five_phases_no_closing_after_the_last():
    st, trail = passive_game()
    phases = []
    for rnd, ph, _ in trail:
        if not phases or phases[-1] != (rnd, ph):
            phases.append((rnd, ph))
    expected = []
    for rnd in (1, 2, 3, 4):
        expected += [(rnd, p) for p in ("invest", "hire", "trade", "perform", "closing")]
    assert phases == expected[:-1], "no Phase 5 after the last Perform phase"
    assert st.round == 4 and st.phase == "over"


def test_g0_every_phase_clockwise_from_the_first_player_who_is_chosen_each_round():
    """G-0 / G-6.3: each phase runs clockwise from the first player; the least acclaimed
    chooses the next round's first player."""
    st, trail = passive_game(n=4, chooser=lambda st: 2)
    firsts = {}
    for rnd, ph, seat in trail:
        if ph in ("invest", "trade", "perform"):
            firsts.setdefault((rnd, ph), []).append(seat)
    for (rnd, ph), seats in firsts.items():
        first = seats[0]
        assert seats == [(first + k) % 4 for k in range(4)], (rnd, ph, seats)
        if rnd > 1:
            assert first == 2
