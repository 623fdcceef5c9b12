"""The lobby's store on SQLite and on PostgreSQL: accounts, finished games written once,
ratings (Bradley-Terry Full, bots as fixed anchors, leavers last) rebuilt to the same numbers,
leaderboards and histories, an older data folder imported, a damaged or locked file refused with
one line."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

from colosseum.tui.net.host.store import FinishedGame, SeatResult, Store, StoreError
from colosseum.tui.net.host.store.accounts import Refused
from colosseum.tui.net.host.store.ratings import Entry, Rating, places, rate, shown


def run(coro):
    return asyncio.run(coro)


async def opened(tmp_path: Path, url: str | None) -> Store:
    tmp_path.mkdir(parents=True, exist_ok=True)
    return await Store.open(tmp_path, url)


def finished(gid: str, seats: list[tuple[str, int | None, int]], *, rated: bool = True, ended: float = 1000.0, left=()):
    return FinishedGame(
        id=gid,
        table_id=gid.split("@")[0],
        table_name="Roma",
        game="colosseum",
        started=ended - 600,
        ended=ended,
        rated=rated,
        actions=300,
        log=f"{gid}.jsonl",
        seats=tuple(
            SeatResult(
                seat=i,
                name=name,
                kind="human" if pid is not None else name,
                player_id=pid,
                rank=rank,
                score=50 - rank,
                left=i in left,
            )
            for i, (name, pid, rank) in enumerate(seats)
        ),
    )


def test_accounts_keys_names_and_blocks(tmp_path, db_url):
    async def go():
        store = await opened(tmp_path, db_url)
        try:
            becky = await store.login("ベッキー", "SHA256:becky")
            assert becky.name == "ベッキー" and (await store.login("whatever", "SHA256:becky")).id == becky.id
            with pytest.raises(Refused, match="belongs to another player"):
                await store.login("ベッキー", "SHA256:eve")  # her name, another key
            kat = await store.login("[b]Kat[/b]", "SHA256:kat")
            assert kat.name == "[b]Kat[b]"  # as the name rules keep it (no slash); never markup on a screen
            await store.add_key(becky.id, "SHA256:becky-laptop")
            assert (await store.login("x", "SHA256:becky-laptop")).id == becky.id
            with pytest.raises(Refused):
                await store.add_key(kat.id, "SHA256:becky")
            with pytest.raises(Refused):
                await store.rename(kat.id, "ベッキー")
            assert await store.rename(kat.id, "Katharina") == "Katharina"
            assert (await store.player_named("katharina")).id == kat.id
            await store.set_blocked("Katharina", True, "rude in chat")
            with pytest.raises(Refused, match="blocked: rude in chat"):
                await store.login("Katharina", "SHA256:kat")
            listed, total = await store.players(blocked_only=True)
            assert total == 1 and listed[0].name == "Katharina"
            await store.set_blocked("katharina", False)
            assert (await store.login("Katharina", "SHA256:kat")).id == kat.id
        finally:
            await store.close()

    run(go())


def test_a_finished_game_is_written_once_and_rates_its_people(tmp_path, db_url):
    async def go():
        store = await opened(tmp_path, db_url)
        try:
            a = await store.login("Ann", "k:a")
            b = await store.login("Bo", "k:b")
            game = finished("t1@1", [("Ann", a.id, 1), ("Bo", b.id, 2), ("normal", None, 3)])
            assert await store.record(game)
            await store.record(game)  # again: nothing counted twice
            rows, total = await store.finished(player_id=a.id)
            assert total == 1 and rows[0].seats[0].name == "Ann" and rows[0].rated
            ra, rb = await store.rating(a.id, "colosseum"), await store.rating(b.id, "colosseum")
            assert ra.games == rb.games == 1 and ra.mu > rb.mu
            board = await store.leaderboard("colosseum")
            assert [r.name for r in board] == ["Ann", "Bo"] and board[0].rating.provisional
            assert len(await store.rating_history(a.id, "colosseum")) == 1
            # an unrated game and a game with one person change no rating
            await store.record(finished("t2@1", [("Ann", a.id, 2), ("Bo", b.id, 1)], rated=False))
            await store.record(finished("t3@1", [("Ann", a.id, 2), ("hard", None, 1)]))
            assert (await store.rating(a.id, "colosseum")) == ra
        finally:
            await store.close()

    run(go())


def test_rebuild_gives_every_stored_rating_exactly(tmp_path, db_url):
    async def go():
        store = await opened(tmp_path, db_url)
        try:
            people = [await store.login(n, f"k:{n}") for n in ("Ann", "Bo", "Cy", "Di", "Ed")]
            rng = random.Random(5)
            for g in range(30):
                sitting = rng.sample(people, rng.randint(2, 4))
                ranks = [rng.randint(1, len(sitting)) for _ in sitting]
                seats = [(p.name, p.id, r) for p, r in zip(sitting, ranks, strict=True)]
                if g % 3 == 0:
                    seats.append(("normal", None, rng.randint(1, 4)))
                left = (0,) if g % 7 == 0 else ()
                await store.record(finished(f"g{g}@1", seats, ended=1000.0 + g, left=left))
            before = {p.id: await store.rating(p.id, "colosseum") for p in people}
            replayed = await store.rebuild_ratings()
            after = {p.id: await store.rating(p.id, "colosseum") for p in people}
            assert replayed == 30 and before == after  # the same floats
        finally:
            await store.close()

    run(go())


def test_bradley_terry_full_shares_a_win_and_leavers_count_last():
    a, b, c = (Entry(seat=i, rank=r, rating=Rating()) for i, r in enumerate((1, 1, 3)))
    after = rate([a, b, c])
    assert after[0] == after[1] and after[2].mu < after[0].mu  # Plackett-Luce gets this wrong
    assert places([Entry(seat=0, rank=1, rating=Rating(), left=True), Entry(seat=1, rank=3, rating=Rating())]) == [2, 1]
    bot = Entry(seat=3, rank=1, rating=Rating(mu=31, sigma=1), fixed=True)
    assert 3 not in rate([a, bot])
    assert shown(25.0, 25 / 3) == 1500


def test_an_older_data_folder_is_imported_once(tmp_path, db_url):
    from colosseum.core.logwriter import LogWriter
    from colosseum.core.registry import rules

    data = tmp_path / "data"
    (data / "games").mkdir(parents=True)
    (data / "names.jsonl").write_text(
        json.dumps({"id": "becky", "name": "Becky", "key": "SHA256:b"})
        + "\n"
        + json.dumps({"id": "kat", "name": "Kat", "key": "SHA256:k"})
        + "\n{cut"
    )
    game = rules("colosseum")
    setup = game.spec.make_setup(("Becky", "Kat", "Laura"), seed=4)
    state, actions = game.new_game(setup), []
    bots = [game.make_bot("normal", i) for i in range(3)]
    while not game.is_over(state):
        action = bots[game.to_act(state)].act(state)
        state, _ = game.apply(state, action)
        actions.append(action)
    from colosseum.core.gamelog import make_header

    w = LogWriter.create_at(
        data / "games" / "t7.jsonl", make_header(setup, ("human", "human", "normal")), actions, end=True
    )
    w.close()
    (data / "history.jsonl").write_text(
        json.dumps(
            {
                "id": "t7",
                "name": "Roma",
                "variant": "grand",
                "players": ["Becky", "Kat", "Laura"],
                "winner": "",
                "ended": 5.0,
                "actions": len(actions),
            }
        )
        + "\n"
    )

    async def go():
        store = await opened(data, db_url)
        try:
            becky = await store.player_for_key("SHA256:b")
            assert becky is not None and becky.name == "Becky"
            rows, total = await store.finished()
            assert total == 1 and rows[0].table_name == "Roma" and not rows[0].rated
            assert sorted(s.rank for s in rows[0].seats) == sorted(game.ranks(state))
        finally:
            await store.close()
        again = await opened(data, db_url)
        try:
            assert (await again.finished())[1] == 1  # imported once
        finally:
            await again.close()

    run(go())


def test_a_damaged_sqlite_file_is_one_clear_line(tmp_path):
    (tmp_path / "lobby.db").write_bytes(b"this is not a database, just words" * 100)
    with pytest.raises(StoreError, match="damaged"):
        run(Store.open(tmp_path))


def test_a_locked_sqlite_file_is_one_clear_line(tmp_path):
    import sqlite3

    run(_open_close(tmp_path))
    holder = sqlite3.connect(tmp_path / "lobby.db")
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match="locked"):
            run(Store.open(tmp_path))
    finally:
        holder.rollback()
        holder.close()


async def _open_close(path: Path) -> None:
    store = await Store.open(path)
    await store.close()


def test_postgresql_stopped_then_back_loses_nothing_and_counts_once(tmp_path, pg):
    url = pg.fresh_database()

    async def go():
        store = await opened(tmp_path, url)
        try:
            a = await store.login("Ann", "k:a")
            b = await store.login("Bo", "k:b")
            await store.record(finished("t1@1", [("Ann", a.id, 1), ("Bo", b.id, 2)], ended=1))
            pg.stop()
            try:
                # the database is away: both games are kept (synced) in the outbox
                await store.record(finished("t2@1", [("Ann", a.id, 2), ("Bo", b.id, 1)], ended=2))
                await store.record(finished("t3@1", [("Ann", a.id, 1), ("Bo", b.id, 2)], ended=3))
                assert len(store.pending) == 2
                with pytest.raises(StoreError, match="cannot be used"):
                    await store.leaderboard("colosseum")
            finally:
                pg.start()
            # back: the next record writes what waited first, in order, then itself
            await store.record(finished("t4@1", [("Ann", a.id, 2), ("Bo", b.id, 1)], ended=4))
            assert len(store.pending) == 0
            rows, total = await store.finished()
            assert total == 4 and [r.id for r in rows] == ["t4@1", "t3@1", "t2@1", "t1@1"]
            assert (await store.rating(a.id, "colosseum")).games == 4
            # the very numbers a rebuild in the order they were rated gives
            before = await store.rating(a.id, "colosseum")
            await store.rebuild_ratings()
            assert await store.rating(a.id, "colosseum") == before
            # a flush that finds the game already written (a crash after the commit) counts nothing
            store.pending.add(finished("t4@1", [("Ann", a.id, 2), ("Bo", b.id, 1)], ended=4))
            assert await store.flush() == 1 and (await store.rating(a.id, "colosseum")).games == 4
        finally:
            await store.close()

    run(go())
