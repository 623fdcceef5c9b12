"""RemoteSession's take-back and deal-composing signal: what the game screen's keys call."""

from __future__ import annotations

import asyncio

import pytest

from colosseum.core.games.colosseum import RuleError, legal, to_act
from colosseum.core.games.colosseum.view import player_view
from colosseum.tui.net.remote import RemoteClient


async def _until(cond, timeout: float = 10.0) -> None:
    for _ in range(int(timeout / 0.01)):
        if cond():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not met in time")


def test_remote_undo_takes_back_and_every_client_rewinds(server):
    becky = RemoteClient(server.address, server.token_for("key:becky", "Becky"))
    kat = RemoteClient(server.address, server.token_for("key:kat", "Kat"))
    joined = becky.create_table(seats=["human", "human", "random"], sit=0, seed=3)
    tid = joined.table.id
    mine = kat.session_for(kat.join(tid, 1))
    table = server.tables[tid]

    async def main():
        ours = becky.session_for(becky.join(tid, 0))
        spy = RemoteClient(server.address, server.token_for("key:eve", "Eve"))
        assert ours.offers_undo and not spy.session_for(spy.watch(tid)).offers_undo
        spy.close()
        for s in (ours, mine):
            s.add_listener(lambda st, ev: None)  # (listeners: drained on this loop)
        # play (both seats) until Becky has just decided and Kat is to act
        while True:
            await _until(lambda: to_act(table.state) in (0, 1))
            seat = to_act(table.state)
            s = ours if seat == 0 else mine
            await _until(lambda s=s: s.state == player_view(table.state))
            s.submit(legal(s.state).actions[0])
            await _until(lambda s=s: len(s.actions) == len(table.actions))
            if seat == 0 and to_act(table.state) == 1 and table.reach(0).steps:
                break
        n = len(table.actions)
        steps = table.reach(0).steps
        await _until(lambda: ours.undo_reach().steps == steps, 3)
        line = ours.undo()
        assert line.text.startswith("Becky took back: ") and "seat 0" not in line.text
        assert len(ours.actions) == n - 1 == len(table.actions)
        assert ours.state == player_view(table.state) and to_act(ours.state) == 0
        assert ours.events[-1].kind == "undo" and ours.events[-1].text == line.text
        # Kat's client rewinds too, with the same line in its log
        await _until(lambda: len(mine.actions) == n - 1)
        assert mine.state == player_view(table.state) and mine.events[-1].text == line.text
        assert mine.undo_reach().steps == 0
        # Becky decides again; once Kat has acted there is nothing Becky may take back
        ours.submit(legal(ours.state).actions[0])
        await _until(lambda: to_act(table.state) != 0)
        if to_act(table.state) == 1:
            await _until(lambda: mine.state == player_view(table.state))
            mine.submit(legal(mine.state).actions[0])
            await _until(lambda: len(ours.actions) == len(table.actions))
        reach = ours.undo_reach()
        assert reach.steps == 0 and reach.reason
        with pytest.raises(RuleError):
            ours.undo()

    asyncio.run(asyncio.wait_for(main(), 40))
    becky.close()
    kat.close()


def test_remote_hold_and_release_say_when_a_deal_is_being_composed(server):
    becky = RemoteClient(server.address, server.token_for("key:becky", "Becky"))
    joined = becky.create_table(seats=["human", "random", "random"], sit=0, seed=3)
    table = server.tables[joined.table.id]
    session = becky.session_for(joined)

    async def main():
        session.hold("deal dialog")
        await _until(lambda: 0 in table.composing)
        session.release("another dialog")  # every dialog closing releases: only the holder counts
        await asyncio.sleep(0.1)
        assert 0 in table.composing
        session.release("deal dialog")
        await _until(lambda: 0 not in table.composing)

    asyncio.run(asyncio.wait_for(main(), 20))
    becky.close()


def test_the_game_screens_undo_key_works_over_ssh(slow_bots):
    """The game app of a networked client: the key bar counts what may be taken back, and
    ``u`` takes it back at the server."""
    from colosseum.tui.net.client import _game_app
    from colosseum.tui.screens.game import GameScreen

    becky = RemoteClient(slow_bots.address, slow_bots.token_for("key:becky", "Becky"))
    joined = becky.create_table(seats=["human", "random", "random"], sit=0, seed=7)
    session = becky.session_for(joined)
    table = slow_bots.tables[joined.table.id]
    app = _game_app(session, None)

    async def main():
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause(0.5)
            (screen,) = [s for s in app.screen_stack if isinstance(s, GameScreen)]
            assert to_act(session.state) == 0
            assert screen._undo_label() == "Undo 0"
            session.submit(legal(session.state).actions[0])
            await pilot.pause(0.3)
            assert screen._undo_label() == "Undo 1"
            await pilot.press("u")
            await pilot.pause(0.3)
            assert table.actions == [] and session.actions == []
            assert session.events[-1].kind == "undo" and session.events[-1].text.startswith("Becky took back: ")
            assert screen._undo_label() == "Undo 0"

    asyncio.run(asyncio.wait_for(main(), 30))
    becky.close()
