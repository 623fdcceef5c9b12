"""LocalSession (colosseum.tui.session): bots never stall a game."""

from __future__ import annotations

from colosseum.core.games.colosseum import GameSetup, legal
from colosseum.core.games.colosseum.actions import EndTurn
from colosseum.core.games.colosseum.offers import safe_action
from colosseum.tui.session import LocalSession, Seat


class _Refused:
    """A bot whose every move is refused by the engine (an action for a seat that is not to act)."""

    name = "refused"

    def act(self, state):
        seat = legal(state).player
        return EndTurn(player=(seat + 1) % state.n)


def test_a_refused_bot_move_falls_back_to_the_safe_action():
    s = LocalSession(GameSetup(players=("Becky", "Kat", "Laura"), seed=2), tuple(Seat("random") for _ in range(3)))
    for seat in list(s._bots):
        s._bots[seat] = _Refused()
    for _ in range(40):
        if not s.bot_to_act():
            break
        expected = safe_action(s.state)
        assert s.step_bot()
        assert s.actions[-1] == expected
    assert len(s.actions) >= 1
