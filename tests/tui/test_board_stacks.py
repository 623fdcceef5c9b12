"""Issue 23: a noble sharing a space was not drawn ("Emperor at 10 -> 12" with Senator 1 on 12
showed `.S*` and no E anywhere).  A space holding several nobles shows the first and '+', and the
ring's inside names every stack ("12 E+S"), so every noble is seen, at 80x24 and larger."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from colosseum.core.games.colosseum import GameSetup
from colosseum.tui.app import ColosseumApp
from colosseum.tui.games.colosseum.board import BoardPanel, ring_position
from colosseum.tui.session import LocalSession, Seat


@pytest.mark.parametrize("variant", ["classic", "original"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_every_noble_is_seen_where_nobles_stack(variant, size):
    setup = GameSetup(players=("Kat", "Becky", "Laura"), seed=3, variant=variant)
    session = LocalSession(setup, (Seat("human"), Seat("random"), Seat("random")))
    nobles = list(session.state.nobles)
    # Emperor onto Senator 1's space, Consul 1 and Senator 2 together on another
    nobles[0] = nobles[3]
    nobles[1] = nobles[4] = 19 if 19 not in nobles else 20
    state = msgspec.structs.replace(session.state, nobles=tuple(nobles))
    emperor, consul = nobles[0], nobles[1]

    async def go():
        app = ColosseumApp(session, auto_dialogs=False)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            board = app.screen.query_one(BoardPanel)
            board.show(state)
            lines = [line.plain for line in board.build_lines()]
            assert board._cells[ring_position(emperor)].plain[1:] == "E+"
            assert board._cells[ring_position(consul)].plain[1:] == "C+"
            inside = " ".join(lines)
            assert f"{emperor} E+S" in inside and f"{consul} C+S" in inside

    asyncio.run(go())
