"""A server upgraded from protocol version 4 (one table class per game, a second wire for
Municipium) loads what the old server left: its table files (``variant`` and a list of
``options``, or no ``game``), its history lines (``variant``, "municipium" for a Municipium game)
and its games' logs, and plays on.  ``data/server_v4`` was written by that server
(``data/make_server_v4.py``)."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_net_tables import client, run

from colosseum.core.logread import read_log
from colosseum.core.registry import rules
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.hub import TableServer
from colosseum.tui.net.host.testing import Player, play_to_end

OLD = Path(__file__).parent / "data" / "server_v4"


def test_an_old_servers_tables_history_and_logs_load_and_play_on(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(OLD, data)

    async def go():
        srv = TableServer(data, bot_delay=0.0, bot_timeout=60, fixed_seeds=True)
        await srv.start()
        try:
            by_name = {t.meta.name: t for t in srv.tables.values()}
            assert set(by_name) == {"wait", "arena", "forum"}
            # the waiting table: its edition and rules options are the setup fields they name
            wait = by_name["wait"]
            assert wait.meta.game == "colosseum" and wait.meta.status == "waiting"
            assert wait.meta.options == {"variant": "original", "options": ["auction-2007"]}
            # (the original edition's one win per phase implies the 2007 auctions: not said again)
            assert wait.meta.edition == "Original 2007" and wait.meta.allow_takeover
            # the tables in play were replayed from their logs: every action, the take-back, the talk
            arena, forum = by_name["arena"], by_name["forum"]
            for t in (arena, forum):
                log = read_log(t.log_path)
                assert t.meta.status == "playing" and t.actions == log.actions and t.state == log.state
            assert arena.meta.hints and arena.meta.options == {"variant": "grand"} and arena.meta.edition == ""
            assert any(e.kind == "undo" and "took back" in e.text for e in arena.events)
            assert [c.text for c in arena.chat] == ["ave"]
            assert forum.meta.game == "municipium" and forum.rules is rules("municipium")
            assert forum.meta.options == {"options": ["short"]} and forum.meta.edition == "short game"
            assert forum.setup.options == ("short",)
            # the live list and the history, one way for every game
            alice, bob = await client(srv, "alice"), await client(srv, "bob")
            alice.send(P.ListTables())
            page = await alice.expect(lambda m: isinstance(m, P.Tables))
            listed = {t.name: t for t in page.tables}
            assert listed["forum"].game == "municipium" and listed["forum"].edition == "short game"
            assert listed["wait"].edition == "Original 2007" and listed["wait"].status == "waiting"
            assert sorted(page.held) == sorted([(wait.id, 0), (arena.id, 0), (forum.id, 0)])
            alice.send(P.ListTables(history=True))
            done = (await alice.expect(lambda m: isinstance(m, P.Tables))).history
            assert [(h.name, h.game, h.edition) for h in done] == [
                ("done municipium", "municipium", ""),
                ("done colosseum", "colosseum", ""),
            ]
            assert all(h.winner in h.players and h.actions > 0 for h in done)
            # the waiting table starts with its options when bob sits down
            bob.send(P.Join(table=wait.id, seat=1))
            await bob.expect(lambda m: isinstance(m, P.Joined) and m.state is not None)
            assert wait.setup.variant == "original" and wait.setup.options == ()  # (implied: O-17)
            # the tables in play go on to their ends with their people back in their seats
            people = []
            alice2 = await client(srv, "alice")  # (a player reads one table's messages per connection)
            for t, seats in ((arena, ((alice, 0), (bob, 1))), (forum, ((alice2, 0),))):
                for c, seat in seats:
                    c.send(P.Join(table=t.id, seat=seat))
                    j = await c.expect(lambda m, tid=t.id: isinstance(m, P.Joined) and m.table.id == tid)
                    p = Player(c, t.id, seat, seed=seat)
                    p.take(j)
                    people.append(p)
            await play_to_end(people, timeout=60)
            for t in (arena, forum):
                log = read_log(t.log_path)
                assert log.intact and log.finished and log.ended
        finally:
            await srv.close()

    run(go(), 90)
