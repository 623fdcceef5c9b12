"""Game positions for the client's snapshot and pilot tests, reached by playing the engine's
``random`` bot from a fixed seed and then handing every seat to a human (so nothing moves
while a snapshot is taken)."""

from __future__ import annotations

from colosseum.core.games.colosseum import GameSetup, to_act
from colosseum.tui.session import LocalSession, Seat

NAMES = ("Becky", "Kat", "Laura", "Marcus", "Titus")


def play_until(until, *, n: int = 4, seed: int = 3, bot: str = "random", limit: int = 5000, **game) -> list:
    """Actions of a bot game from ``seed`` up to the first state where ``until(state)``."""
    setup = GameSetup(players=NAMES[:n], seed=seed, **game)
    s = LocalSession(setup, (Seat(bot),) * n)
    for _ in range(limit):
        if until(s.state):
            return list(s.actions)
        if not s.step_bot():
            break
    raise AssertionError("position not reached")


def human_session(actions, *, n: int = 4, seed: int = 3, humans: int | None = None, **game) -> LocalSession:
    """A session at the position after ``actions``; every seat human unless ``humans`` given."""
    setup = GameSetup(players=NAMES[:n], seed=seed, **game)
    h = n if humans is None else humans
    seats = (Seat("human"),) * h + (Seat("random"),) * (n - h)
    return LocalSession(setup, seats, actions=actions)


POSITIONS = {
    "setup": lambda st: st.actions >= 2,
    "invest": lambda st: st.round == 2 and st.phase == "invest" and st.invest is not None and st.invest.made,
    "hire": lambda st: st.phase == "hire" and st.hire is not None and st.hire.auction is not None and True,
    "trade": lambda st: st.phase == "trade" and st.round == 2 and st.trade is not None and st.trade.deal is not None,
    "perform": lambda st: (
        st.phase == "perform" and st.round == 2 and st.perform is not None and st.perform.stage == "after"
    ),
    "closing": lambda st: st.phase == "closing" and st.round == 2,
    "over": lambda st: st.phase == "over",
}


def position(name: str, *, n: int = 4, seed: int = 3) -> LocalSession:
    session = human_session(play_until(POSITIONS[name], n=n, seed=seed), n=n, seed=seed)
    return session


def actor(session) -> int:
    return to_act(session.state)
