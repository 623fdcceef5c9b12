"""The lobby's leaderboard and profiles (``L``), answered by the table server from the store,
and the one-time web link (``w``): over the protocol, and on the lobby's screens at 80x24 with
hostile names (shown as text, never markup)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import aiohttp
import pytest
from rich.text import Text
from test_net_tables import client, run

from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.hub import TableServer
from colosseum.tui.net.host.ssh import start_server
from colosseum.tui.net.host.store import FinishedGame, SeatResult, Store
from colosseum.tui.net.host.testing import free_port
from colosseum.tui.net.host.weblink import Signer
from colosseum.tui.net.lobby import LobbyApp
from colosseum.tui.net.ranks import LeaderboardScreen, ProfileScreen, WebLinkScreen
from colosseum.tui.net.remote import RemoteClient

HOSTILE = "[red]Kat[b]"  # a name that would be markup
LONG = "Aurelia 小明 Cornelia"  # wide characters


async def fill(store: Store) -> dict[str, int]:
    """Three players and three finished Colosseum games (two rated); their ids by name."""
    ids = {}
    for name, key in (("alice", "SHA256:a"), (HOSTILE, "SHA256:k"), (LONG, "SHA256:c")):
        ids[name] = (await store.login(name, key)).id
    names = list(ids)
    for n, (order, rated) in enumerate((((0, 1, 2), True), ((1, 0, 2), True), ((0, 2, 1), False))):
        seats = tuple(
            SeatResult(seat=i, name=names[who], kind="human", player_id=ids[names[who]], rank=i + 1, score=10 - i)
            for i, who in enumerate(order)
        ) + (SeatResult(seat=3, name="Titus", kind="normal", rank=4, score=0),)
        await store.record(
            FinishedGame(
                id=f"g{n}",
                table_id=f"g{n}",
                table_name=f"Friday {n}",
                game="colosseum",
                started=1000.0 + n,
                ended=2000.0 + n,
                rated=rated,
                actions=100,
                log=f"g{n}.jsonl",
                seats=seats,
            )
        )
    return ids


async def stored(tmp_path) -> TableServer:
    data = tmp_path / "data"
    data.mkdir(parents=True, exist_ok=True)
    srv = TableServer(data, store=await Store.open(data), fixed_seeds=True)
    await srv.start()
    return srv


def test_a_first_place_a_bot_finished_for_a_person_who_left_is_no_win(tmp_path):
    """Before, a player who walked out of a game the bot then won for them read it as a win."""

    async def go():
        srv = await stored(tmp_path)
        try:
            assert srv.store is not None
            ids = await fill(srv.store)
            seats = (
                SeatResult(seat=0, name="alice", kind="human", player_id=ids["alice"], rank=1, score=50, left=True),
                SeatResult(seat=1, name=LONG, kind="human", player_id=ids[LONG], rank=2, score=40),
                SeatResult(seat=2, name="Titus", kind="normal", rank=3, score=30),
            )
            await srv.store.record(
                FinishedGame(
                    id="g9", table_id="g9", table_name="walked out", game="colosseum", started=3000.0,
                    ended=3100.0, rated=False, actions=50, log="g9.jsonl", seats=seats,
                )
            )  # fmt: skip
            c = await client(srv, "alice")
            c.send(P.Profile(name="alice", game="colosseum"))
            p = await c.expect(lambda m: isinstance(m, P.PlayerProfile))
            assert (p.played, p.wins) == (4, 2) and p.recent[0].left
        finally:
            await srv.close()

    run(go())


def test_the_leaderboard_and_a_profile_over_the_protocol(tmp_path):
    async def go():
        srv = await stored(tmp_path)
        try:
            assert srv.store is not None
            await fill(srv.store)
            c = await client(srv, "alice")
            c.send(P.Leaderboard(game="colosseum"))
            board = await c.expect(lambda m: isinstance(m, P.Leaders))
            assert board.total == 3 and [r.place for r in board.rows] == [1, 2, 3]
            assert {r.name for r in board.rows} == {"alice", HOSTILE, LONG}
            assert all(r.games == 2 and r.provisional for r in board.rows)
            assert board.rows[-1].name == LONG  # last in both rated games
            c.send(P.Leaderboard(game="municipium"))
            assert (await c.expect(lambda m: isinstance(m, P.Leaders))).rows == []
            c.send(P.Profile(name="ALICE", game="colosseum"))
            p = await c.expect(lambda m: isinstance(m, P.PlayerProfile))
            assert (p.name, p.played, p.wins, p.rated_games, p.provisional) == ("alice", 3, 2, 2, True)
            assert [g.id for g in p.recent] == ["g2", "g1", "g0"]  # newest first
            assert [g.place for g in p.recent] == [1, 2, 1] and [g.rated for g in p.recent] == [False, True, True]
            assert p.recent[0].players == ["alice", LONG, HOSTILE, "Titus"]
            assert len(p.history) == 2 and p.history[-1] == p.rating
            c.send(P.Profile(name="nobody", game="colosseum"))
            assert "no player is called nobody" in (await c.expect(lambda m: isinstance(m, P.Error))).message
        finally:
            await srv.close()
        bare = TableServer(tmp_path / "bare")
        await bare.start()
        try:
            c = await client(bare, "alice")
            c.send(P.Leaderboard(game="colosseum"))
            assert "keeps no ratings" in (await c.expect(lambda m: isinstance(m, P.Error))).message
        finally:
            await bare.close()

    run(go())


def test_a_web_link_is_refused_without_web_pages_and_signs_a_browser_in_once(tmp_path):
    async def go():
        srv = await stored(tmp_path)
        try:
            c = await client(srv, "alice")
            c.send(P.WebLinkRequest())
            err = await c.expect(lambda m: isinstance(m, P.Error))
            assert err.message == "this server has no web pages (it runs without --web)"
        finally:
            await srv.close()
        server = await start_server(
            listen=f"127.0.0.1:{free_port()}", data=tmp_path / "web", open_to_all=True, web=f"127.0.0.1:{free_port()}"
        )
        try:
            assert server.web is not None
            c = await client(server.tables, "becky")
            c.send(P.WebLinkRequest())
            link = await c.expect(lambda m: isinstance(m, P.WebLink))
            assert link.url.startswith(server.web.public_url + "/login/") and link.minutes == 10
            payload = Signer(server.tables.secret).check(link.url.rsplit("/", 1)[1])
            assert payload is not None and payload["i"] == "key:becky" and payload["n"] == "becky"
            async with aiohttp.ClientSession() as http:
                async with http.get(link.url, allow_redirects=False) as r:
                    assert r.status == 303 and "colosseum" in r.headers.get("Set-Cookie", "").lower()
                async with http.get(link.url, allow_redirects=False) as r:
                    assert r.status == 403  # once only
        finally:
            await server.close()

    run(go(), 60)


# ---------------------------------------------------------------- the screens


@pytest.fixture
def ranked(tmp_path) -> Iterator[TableServer]:
    """A table server with a store holding three players' games, on its own loop in a thread."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    box: list[TableServer] = []

    def go() -> None:
        asyncio.set_event_loop(loop)
        srv = loop.run_until_complete(stored(tmp_path))
        assert srv.store is not None
        loop.run_until_complete(fill(srv.store))
        box.append(srv)
        ready.set()
        loop.run_forever()

    t = threading.Thread(target=go, daemon=True)
    t.start()
    assert ready.wait(20)
    try:
        yield box[0]
    finally:
        asyncio.run_coroutine_threadsafe(box[0].close(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        t.join(10)


def _text(app) -> str:
    from colosseum.tui.net.lobby import LobbyScreen  # noqa: F401 - (the screen under test)

    return app.export_screenshot()


def test_the_leaderboard_and_a_profile_on_screen_at_80x24(ranked):
    me = RemoteClient(ranked.address, ranked.token_for("key:SHA256:k", HOSTILE))
    app = LobbyApp(me)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.3)
            await pilot.press("L")
            await pilot.pause(0.3)
            screen = app.screen
            assert isinstance(screen, LeaderboardScreen) and screen.game == "colosseum"
            from textual.widgets import DataTable

            dt = screen.query_one(DataTable)
            cells = [[str(c) for c in dt.get_row_at(i)] for i in range(dt.row_count)]
            assert [row[1] for row in cells] == [r.name for r in screen.rows]
            assert HOSTILE in [row[1] for row in cells] and all(row[2].endswith("?") for row in cells)
            assert all(isinstance(c, Text) for i in range(dt.row_count) for c in dt.get_row_at(i))
            assert "Leaderboard - Colosseum" in str(screen.query_one("#lb-title").render())
            from colosseum.tui.net.ranks import bots_line

            hint = str(screen.query_one("#lb-hint").render())
            assert bots_line("colosseum") in hint and "normal " in hint  # what the bots count as
            await pilot.press("tab")  # the next game: nobody rated yet
            await pilot.pause(0.2)
            assert screen.game != "colosseum" and screen.rows == []
            assert bots_line(screen.game) in str(screen.query_one("#lb-hint").render())
            assert "nobody rated yet" in str(screen.query_one("#lb-title").render())
            await pilot.press("shift+tab")
            await pilot.pause(0.2)
            row = next(i for i, r in enumerate(screen.rows) if r.name == HOSTILE)
            screen.query_one(DataTable).move_cursor(row=row)
            await pilot.press("enter")
            await pilot.pause(0.3)
            prof = app.screen
            assert isinstance(prof, ProfileScreen) and prof.player == HOSTILE
            head = str(prof.query_one("#pf-head").render())
            assert head.startswith(f"{HOSTILE} - Colosseum") and "Games 3, wins 1 (33%)" in head
            assert "Rating" in head and "2 rated game(s) (provisional" in head
            # the rating after each rated game: a plot at 80x24 (D-80), not the numbers' line
            assert "After each of the last rated games" not in head
            plot = prof.query_one("#pf-plot")
            assert plot.region.height == 9 and plot.region.right <= 80
            recent = prof.query_one(DataTable)
            assert recent.row_count == 3 and recent.region.bottom <= 23 and recent.region.y >= plot.region.bottom
            assert recent.region.height >= 4  # the header and the three games
            assert [str(c) for c in recent.get_row_at(0)][1] == "3 of 4"  # g2, unrated: third
            await pilot.press("escape")
            await pilot.press("m")  # my own profile
            await pilot.pause(0.3)
            assert isinstance(app.screen, ProfileScreen) and app.screen.player == HOSTILE
            await pilot.press("escape", "escape")
            await pilot.pause(0.1)
            assert not isinstance(app.screen, (ProfileScreen, LeaderboardScreen))

    asyncio.run(asyncio.wait_for(go(), 60))


def test_w_without_web_pages_is_one_line_and_with_them_a_dialog(ranked):
    me = RemoteClient(ranked.address, ranked.token_for("key:SHA256:a", "alice"))
    app = LobbyApp(me)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.3)
            await pilot.press("w")
            await pilot.pause(0.3)
            (note,) = [n for n in app._notifications]
            assert note.message == "this server has no web pages (it runs without --web)"
            assert not isinstance(app.screen, WebLinkScreen)
            ranked.link_for = lambda who, name: f"http://127.0.0.1:8080/login/{'x' * 200}-{who}"
            await pilot.press("w")
            await pilot.pause(0.3)
            dialog = app.screen
            assert isinstance(dialog, WebLinkScreen)
            assert dialog.link.url.endswith("-key:SHA256:a") and dialog.link.minutes == 10
            url = dialog.query_one("#wl-url")
            assert url.region.x == 0 and url.region.width == 80  # nothing beside it: a selection is the link
            assert url.region.height >= 3 and url.region.bottom <= 23  # the whole link, folded
            await pilot.press("escape")
            await pilot.pause(0.1)
            assert not isinstance(app.screen, WebLinkScreen)

    asyncio.run(asyncio.wait_for(go(), 60))


def test_a_rated_table_says_so_while_it_waits(ranked):
    from colosseum.tui.net.lobby import WaitingScreen

    me = RemoteClient(ranked.address, ranked.token_for("key:SHA256:a", "alice"))
    app = LobbyApp(me)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.3)
            app.enter(lambda: me.create_table(seats=["human", "human", "normal"], sit=0, name="[b]x", rated=True))
            await pilot.pause(0.3)
            assert isinstance(app.screen, WaitingScreen)
            head = str(app.screen.query_one("#seats").render())
            assert "| [b]x | Colosseum | rated - waiting for players" in head
            # and in the lobby's list, among its options
            other = LobbyApp(RemoteClient(ranked.address, ranked.token_for("key:SHA256:c", LONG)))
            async with other.run_test(size=(80, 24)) as pilot2:
                await pilot2.pause(0.3)
                from textual.widgets import DataTable

                dt = other.screen.query_one(DataTable)
                assert str(dt.get_row_at(0)[-1]) == "rated"

    asyncio.run(asyncio.wait_for(go(), 60))


@pytest.mark.parametrize("how", ["no_color", "short"])
def test_the_rating_history_is_a_line_of_text_without_colour_or_room(ranked, how):
    """Under NO_COLOR, or in a terminal too short for a plot and the recent games, the
    profile gives the ratings as numbers (D-80)."""
    me = RemoteClient(ranked.address, ranked.token_for("key:SHA256:k", HOSTILE))
    app = LobbyApp(me)

    async def go():
        async with app.run_test(size=(80, 24 if how == "no_color" else 20)) as pilot:
            app.no_color = how == "no_color"
            await pilot.pause(0.3)
            app.push_screen(ProfileScreen(HOSTILE, "colosseum"))
            await pilot.pause(0.3)
            prof = app.screen
            head = str(prof.query_one("#pf-head").render())
            assert "After each of the last rated games: " in head
            assert not prof.query("#pf-plot")

    asyncio.run(asyncio.wait_for(go(), 60))
