"""Issue 24's limits on tables: tables per address (identities are free, addresses are not),
tables nobody uses end (a short timeout here), a full disk at a table's creation leaves nothing
half-made, and the bots of every table share one budget."""

from __future__ import annotations

import asyncio
import errno
import os

import pytest

from colosseum.core.logread import read_log
from colosseum.tui.net.host import limits
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.botbudget import BotBudget
from colosseum.tui.net.host.gamelog_io import TableLog
from colosseum.tui.net.host.hub import TableServer
from colosseum.tui.net.host.proto_client import ProtoClient
from colosseum.tui.net.host.testing import running_server

HUMANS = ["human", "human", "human"]


def run(coro, timeout: float = 60.0):
    async def main():
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(main())


async def client(srv: TableServer, who: str, address: str = "") -> ProtoClient:
    return await ProtoClient.connect(srv.address, srv.token_for(f"key:{who}", who, address))


async def create(c: ProtoClient, **kw) -> P._Msg:
    c.send(P.CreateTable(**{"seats": HUMANS, "sit": 0, **kw}))
    return await c.expect(lambda m: isinstance(m, (P.Joined, P.Error)))


# ---------------------------------------------------------------- tables per address
def test_the_players_of_one_address_make_a_bounded_number_of_tables(tmp_path):
    async def go():
        srv = TableServer(tmp_path / "data", fixed_seeds=True)
        await srv.start()
        try:
            cap = limits.MAX_TABLES_PER_ADDRESS
            # fresh names from one address: each may make tables, the address no more than cap
            made = [await client(srv, f"p{i}", "192.0.2.7") for i in range(cap + 1)]
            for c in made[:cap]:
                assert isinstance(await create(c), P.Joined)
            refused = await create(made[cap])
            assert isinstance(refused, P.Error)
            assert refused.message.startswith(f"Your address has made {cap} open tables already")
            assert "\n" not in refused.message
            # another address, and the server's own tests (no address), are not held back
            other = await client(srv, "q", "192.0.2.8")
            assert isinstance(await create(other), P.Joined)
            local = await client(srv, "r")
            assert isinstance(await create(local), P.Joined)
            # a table of the address leaves (everybody left it): one more may be made
            first = next(t for t in srv.tables.values() if t.meta.creator == "key:p0")
            made[0].send(P.Leave(table=first.id))
            for _ in range(100):
                if first.id not in srv.tables:
                    break
                await asyncio.sleep(0.01)
            assert isinstance(await create(made[cap]), P.Joined)
            for c in [*made, other, local]:
                await c.close()
        finally:
            await srv.close()

    run(go())


def test_the_token_carries_the_address_and_old_tokens_still_work(tmp_path):
    from colosseum.tui.net.host.tokens import check_token, load_secret, make_token, token_parts

    secret = load_secret(tmp_path)
    assert token_parts(secret, make_token(secret, "key:a", "小明", "10.1.2.3")) == ("key:a", "小明", "10.1.2.3")
    assert token_parts(secret, make_token(secret, "key:a", "[/a]")) == ("key:a", "[/a]", "")
    assert check_token(secret, make_token(secret, "key:a", "a", "::1")) == ("key:a", "a")
    # forged: its signature changed, or another identity's claims under this signature (a
    # replace of the first "a" changed nothing when the random signature had none: CI red)
    payload, mac = make_token(secret, "key:a", "a", "10.0.0.1").rsplit(".", 1)
    other = make_token(secret, "key:b", "a", "10.0.0.1").rsplit(".", 1)[0]
    for forged in (f"{payload}.{mac[:-1]}{'1' if mac[-1] == '0' else '0'}", f"{other}.{mac}"):
        assert token_parts(secret, forged) is None


# ---------------------------------------------------------------- a full disk at creation
def _full(monkeypatch, on: dict[str, bool]) -> None:
    real = os.fsync

    def fsync(fd):
        if on["full"]:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)


@pytest.mark.parametrize("seats,sit", [(HUMANS, 0), (["random", "random", "random"], -1)])
def test_a_full_disk_at_creation_leaves_no_table_and_no_file(tmp_path, monkeypatch, seats, sit):
    on = {"full": False}
    _full(monkeypatch, on)

    async def go():
        srv = TableServer(tmp_path / "data", fixed_seeds=True)
        await srv.start()
        try:
            c = await client(srv, "Aurelia Maximiliana Cornelia")
            on["full"] = True
            err = await create(c, seats=seats, sit=sit)
            on["full"] = False
            assert isinstance(err, P.Error) and err.message == limits.NOT_SAVED and err.code == "disk"
            assert not srv.tables and not c.closed
            assert not list((tmp_path / "data" / "tables").iterdir())
            assert not list((tmp_path / "data" / "games").iterdir())
            c.send(P.ListTables())
            listed = await c.expect(lambda m: isinstance(m, P.Tables))
            assert listed.total == 0 and listed.tables == []  # no phantom waiting table
            # once the disk takes writes again, the same request makes the table
            assert isinstance(await create(c, seats=seats, sit=sit), P.Joined)
            assert len(srv.tables) == 1
            await c.close()
        finally:
            await srv.close()

    run(go())


def test_a_game_log_the_disk_refuses_at_creation_takes_the_description_with_it(tmp_path, monkeypatch):
    def begin(self, setup, seats, talk):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(TableLog, "begin", begin)

    async def go():
        srv = TableServer(tmp_path / "data", fixed_seeds=True)
        await srv.start()
        try:
            c = await client(srv, "w")
            err = await create(c, seats=["random", "random", "random"], sit=-1)
            assert isinstance(err, P.Error) and err.message == limits.NOT_SAVED
            assert not srv.tables and not list((tmp_path / "data" / "tables").iterdir())
            await c.close()
        finally:
            await srv.close()

    run(go())


# ---------------------------------------------------------------- idle tables end
def test_a_waiting_table_nobody_joins_is_closed_and_its_creator_told(tmp_path):
    async def go():
        srv = TableServer(tmp_path / "data", fixed_seeds=True, idle_timeout=0.3)
        await srv.start()
        try:
            c = await client(srv, "小明")
            joined = await create(c, name="[/a]")
            assert isinstance(joined, P.Joined)
            tid = joined.table.id
            told = await c.expect(lambda m: isinstance(m, P.Error) and m.code == "ended", timeout=10)
            assert told.message == "Table [/a] was closed: nobody joined it in 1 second."
            gone = await c.expect(lambda m: isinstance(m, P.TableChanged), timeout=5)
            assert gone.table.status == "over"
            assert tid not in srv.tables and not (tmp_path / "data" / "tables" / f"{tid}.json").exists()
            assert not c.closed
            await c.close()
        finally:
            await srv.close()

    run(go())


def test_a_waiting_table_someone_joins_lives_on(tmp_path):
    async def go():
        srv = TableServer(tmp_path / "data", fixed_seeds=True, idle_timeout=1.0)
        await srv.start()
        try:
            a, b = await client(srv, "a"), await client(srv, "b")
            joined = await create(a)
            assert isinstance(joined, P.Joined)
            await asyncio.sleep(0.6)
            b.send(P.Join(table=joined.table.id, seat=1))
            await b.expect(lambda m: isinstance(m, P.Joined))
            await asyncio.sleep(0.6)  # past the timeout since the creation, not since b sat
            assert joined.table.id in srv.tables
            await asyncio.sleep(1.2)
            assert joined.table.id not in srv.tables
            for c in (a, b):
                await c.close()
        finally:
            await srv.close()

    run(go())


def test_a_game_nobody_is_at_ends_its_log_kept_and_its_player_told(tmp_path):
    async def go():
        srv = TableServer(tmp_path / "data", fixed_seeds=True, bot_delay=0.05, bot_timeout=0.05, idle_timeout=0.5)
        await srv.start()
        try:
            me = await client(srv, "Becky")
            watcher = await client(srv, "w")
            joined = await create(me, seats=["human", "random", "random"], seed=3)
            assert isinstance(joined, P.Joined)
            tid = joined.table.id
            me.send(P.Start(table=tid))
            await me.expect(lambda m: isinstance(m, P.TableChanged) and m.table.status == "playing")
            watched = await create(watcher, seats=["random", "random", "random"], sit=-1, seed=5)
            assert isinstance(watched, P.Joined)
            srv.bot_delay = 1.0  # the watched game goes slowly on: it must not end by itself
            me.send(P.Leave(table=tid))  # a bot stands in; nobody is at the table now
            told = await me.expect(lambda m: isinstance(m, P.Error) and m.code == "ended", timeout=10)
            assert told.message == "Table Becky's table was ended: no one had been at it for 1 second."
            assert tid not in srv.tables
            log = read_log(tmp_path / "data" / "games" / f"{tid}.jsonl")
            assert not log.ended and any("The table was ended" in ch.chat for ch in log.chat)
            history = (tmp_path / "data" / "history.jsonl").read_text()
            assert tid in history
            assert (tmp_path / "data" / "history" / f"{tid}.json").exists()
            # the game someone watches goes on
            assert srv.tables[watched.table.id].meta.status == "playing"
            for c in (me, watcher):
                await c.close()
        finally:
            await srv.close()

    run(go())


# ---------------------------------------------------------------- the bots' budget
def test_the_budget_serves_one_decision_at_a_time_people_first():
    async def go():
        budget = BotBudget(slots=1, share=1.0)
        order: list[str] = []

        release = asyncio.Event()  # (no sleeps: a loaded machine gives the same order)

        async def decide(name: str, person: bool, hold: asyncio.Event | None = None):
            async with budget.decision(person=person):
                order.append(name)
                if hold is not None:
                    await hold.wait()

        async def until(cond) -> None:
            while not cond():
                await asyncio.sleep(0)

        first = asyncio.create_task(decide("first", False, release))
        await until(lambda: order == ["first"])
        tasks = [asyncio.create_task(decide(f"bots{i}", False)) for i in range(3)]
        await until(lambda: budget.waiting == 3)
        tasks.append(asyncio.create_task(decide("person", True)))
        await until(lambda: budget.waiting == 4)
        assert budget.think(1.0) == pytest.approx(0.2)  # five sharing the time: a fifth each
        assert budget.think(0.01) == 0.01 and budget.think(0.2) == budget.least
        release.set()
        await asyncio.gather(first, *tasks)
        assert order == ["first", "person", "bots0", "bots1", "bots2"]
        assert budget.most_at_once == 1 and budget.decisions == 5 and budget.waiting == 0
        assert budget.think(1.0) == 1.0  # nobody waiting: the bot's own time

    run(go())


def test_the_budget_rests_after_a_decision_and_a_cancelled_wait_frees_nothing():
    async def go():
        budget = BotBudget(slots=1, share=0.5)
        loop = asyncio.get_running_loop()
        async with budget.decision(person=False):
            await asyncio.sleep(0.1)
        t0 = loop.time()
        async with budget.decision(person=False):
            waited = loop.time() - t0
        assert waited >= 0.08  # rested as long as the last decision took: half the time each
        held, asked = budget.decision(person=False), budget.decision(person=True)
        await held.__aenter__()
        stuck = asyncio.create_task(asked.__aenter__())
        await asyncio.sleep(0.01)
        stuck.cancel()
        with pytest.raises(asyncio.CancelledError):
            await stuck
        assert budget.waiting == 0 and budget.busy == 1
        await held.__aexit__(None, None, None)
        assert budget.busy == 0

    run(go())


def test_the_bots_of_many_tables_share_the_budget(tmp_path):
    """Six tables of search bots (a second a decision on their own): one decision at a time
    over the server, each shorter while others wait, and every table goes on."""

    async def go():
        srv = TableServer(tmp_path / "data", fixed_seeds=True, bot_delay=0.0)
        await srv.start()
        try:
            cs = [await client(srv, "w"), await client(srv, "v")]
            made = []
            for k in range(6):
                j = await create(cs[k % 2], seats=["hard", "hard", "hard"], sit=-1, seed=k)
                assert isinstance(j, P.Joined)
                made.append(srv.tables[j.table.id])
            await asyncio.sleep(3.0)
            b = srv.budget
            assert b.most_at_once == 1 and b.most_waiting >= 3
            assert b.decisions >= 6  # alone, a second each: three at most in three seconds
            assert sum(1 for t in made if t.actions) >= 3  # the tables take turns
            for c in cs:
                await c.close()
        finally:
            await srv.close()

    run(go())


# ---------------------------------------------------------------- what the player sees
def test_the_lobby_says_why_a_table_is_refused_and_why_a_waiting_table_closed(tmp_path):
    """The lobby driven with keys: the table the address may no longer make is refused with
    one line on the screen; a table nobody joins closes and the lobby says so."""
    from colosseum.tui.net.lobby import LobbyApp, WaitingScreen
    from colosseum.tui.net.remote import RemoteClient

    with running_server(tmp_path / "data", fixed_seeds=True, idle_timeout=4.0) as srv:
        address = "198.51.100.9"
        others = [RemoteClient(srv.address, srv.token_for(f"key:o{i}", f"o{i}", address)) for i in range(10)]
        for c in others:
            c.create_table(seats=HUMANS, sit=0)
        me = RemoteClient(srv.address, srv.token_for("key:me", "Aurelia Maximiliana Cornelia", address))
        app = LobbyApp(me)

        def notes() -> list[str]:
            return [str(n.message) for n in app._notifications]

        async def refused_then_closed():
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause(0.3)
                await pilot.press("n")
                await pilot.pause(0.3)
                await pilot.press(*"Arena", "enter")
                for _ in range(50):
                    await pilot.pause(0.1)
                    if any("Your address" in n for n in notes()):
                        break
                assert [n for n in notes() if "Your address" in n] == [
                    "Your address has made 10 open tables already: join one, or wait for one to end."
                ]
                assert not isinstance(app.screen, WaitingScreen)
                for c in others:  # their tables close as nobody joins them (4 s): room again
                    c.close()
                for _ in range(100):
                    await pilot.pause(0.1)
                    if not srv.tables:
                        break
                app.clear_notifications()
                await pilot.press("n")
                await pilot.pause(0.3)
                await pilot.press(*"Arena", "enter")
                for _ in range(50):
                    await pilot.pause(0.1)
                    if isinstance(app.screen, WaitingScreen):
                        break
                assert isinstance(app.screen, WaitingScreen)
                for _ in range(100):
                    await pilot.pause(0.1)
                    if not isinstance(app.screen, WaitingScreen):
                        break
                assert not isinstance(app.screen, WaitingScreen)  # back in the lobby
                closed = "Table Arena was closed: nobody joined it in 4 seconds."
                for _ in range(30):  # (said by a message of its own: it may come a moment after)
                    if closed in notes():
                        break
                    await pilot.pause(0.1)
                assert closed in notes()
                # the waiting screen's removal finishes before the app ends (Textual completes a
                # pop after the screen stack changed: ended in between, it had no app to refresh)
                await pilot.pause(0.3)

        asyncio.run(asyncio.wait_for(refused_then_closed(), 60))
        me.close()


def test_a_turn_based_table_may_go_unvisited_for_two_of_its_turns():
    from types import SimpleNamespace

    idle = limits.IdleTables(SimpleNamespace(tables={}), 1800.0)
    assert idle.limit(SimpleNamespace(meta=SimpleNamespace(turn_hours=0.0))) == 1800.0
    assert idle.limit(SimpleNamespace(meta=SimpleNamespace(turn_hours=24.0))) == 48 * 3600
    assert limits.span(48 * 3600) == "48 hours" and limits.span(1800) == "30 minutes"
    assert limits.span(60) == "1 minute" and limits.span(0.3) == "1 second"
