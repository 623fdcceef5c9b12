"""Several hosts, one lobby (issue 30), as players meet it: three ``colosseum serve --host-id``
processes on one throwaway PostgreSQL cluster; six players at two tables (a Colosseum and a
Municipium table), each table with people on two hosts; the host owning a table is killed with
SIGKILL in the middle of play; the players reconnect (to the hosts still up) and finish; every
acknowledged action is in the final log, none twice, and the digest chain verifies.  And the
fence: a host paused (SIGSTOP) past its lease, then resumed, cannot append to its old table.

The drill itself is ``tests/clusterdrill.py``; ``scripts/cluster_failover.py --kills N`` runs
it at N random points."""

from __future__ import annotations

import signal
import time

import pytest
from clusterdrill import Drill, shared_secret
from pgcluster import cluster_or_skip

from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.tokens import make_token
from colosseum.tui.net.hosts import HostsClient


@pytest.fixture(scope="module")
def pg():
    with cluster_or_skip() as cluster:
        yield cluster


LAYOUT = [("colosseum", [0, 0, 1]), ("municipium", [1, 2, 1])]  # the host of each seat's player


def test_a_host_killed_mid_game_loses_no_acknowledged_move(pg, tmp_path):
    drill = Drill(tmp_path, pg.fresh_database(), seed=7)
    try:
        drill.start(3)
        drill.seat_players(LAYOUT)
        result = drill.play(kill=(0, 25))
        assert result["killed"] == "h1"
        assert not result["errors"], result["errors"]
        figures = drill.check()
        print(figures, [(p.name, p.host, p.reconnects, len(p.acked)) for p in drill.players])
        assert all(p.done for p in drill.players)
        # the players of the killed host came back through the others
        assert all(p.reconnects >= 1 for p in drill.players if p.table == drill.tables[0])
        gens = figures["gens"][drill.tables[0]]
        assert len(gens) >= 2, gens  # another host took the table over and wrote on
        # every host up lists both finished games, and shows each move by move (the one lobby)
        for host in [h for h in drill.hosts if h.up]:
            client = HostsClient(host.peer, make_token(shared_secret(drill.url), "key:p0", "p0"))
            try:
                end = time.monotonic() + 20
                while {e.id for e in client.list_page(history=True).history} != set(drill.tables):
                    assert time.monotonic() < end, f"{host.name}'s finished games: {client.list_page(history=True)}"
                    time.sleep(0.2)
                for tid in drill.tables:
                    positions = client.request(P.ReviewGame(game=tid, start=0), P.Positions)
                    assert positions.actions, (host.name, tid)
            finally:
                client.close()
    finally:
        drill.close()


def test_a_paused_host_that_lost_its_lease_cannot_append(pg, tmp_path):
    drill = Drill(tmp_path, pg.fresh_database(), seed=11)
    try:
        drill.start(2)
        drill.seat_players([("colosseum", [0, 1, 1])])
        result = drill.play(kill=(0, 15), pause=6.0)  # twice the drill's lease
        assert not result["errors"], result["errors"]
        drill.check()
        gens = drill.check()["gens"][drill.tables[0]]
        assert len(gens) >= 2, gens
        for (g1, _a1, last1), (g2, first2, _b2) in zip(gens, gens[1:], strict=False):
            assert g1 < g2 and last1 < first2, gens  # nothing of an older generation after a newer one began
        h1 = "".join(drill.hosts[0].out)
        assert "no longer this host's" in h1, h1[-3000:]
    finally:
        drill.close()


def test_the_database_stopped_mid_game_loses_nothing_acknowledged(pg, tmp_path):
    """PostgreSQL stopped for twice the lease in the middle of play, then started again: moves
    are refused meanwhile (one line); the table stays on its host, its lease renewed though it
    ran out (the other host, itself just back in touch, does not take it: D-105), so nobody
    is sent to find it again; the games finish and every acknowledged action is in the log."""
    drill = Drill(tmp_path, pg.fresh_database(), seed=13)

    def outage() -> None:
        pg.stop()
        time.sleep(6.0)
        pg.start()

    try:
        drill.start(2)
        drill.seat_players([("colosseum", [0, 1, 1])])
        result = drill.play(kill=(0, 20), outage=outage)
        assert not result["errors"], result["errors"]
        figures = drill.check()
        out = "".join(drill.hosts[0].out + drill.hosts[1].out)
        assert [g for g, _first, _last in figures["gens"][drill.tables[0]]] == [1], figures["gens"]
        assert [p.reconnects for p in drill.players] == [0, 0, 0]
        assert "no longer this host's" not in out and "adopted from" not in out, out[-3000:]
        at = out.find("Traceback")
        assert at < 0, out[max(0, at - 300) : at + 3000]
    finally:
        drill.close()


def test_a_host_stopped_by_its_operator_mid_game_hands_its_table_over(pg, tmp_path):
    """A rolling restart: the host owning a table gets SIGTERM in the middle of play; it gives
    its leases up as it stops, another host adopts the table at once, the players of the
    stopped host come back through the others, and nothing acknowledged is lost."""
    drill = Drill(tmp_path, pg.fresh_database(), seed=19)
    try:
        drill.start(2)
        drill.seat_players([("colosseum", [0, 1, 1])])
        result = drill.play(kill=(0, 20), sig=signal.SIGTERM)
        assert not result["errors"], result["errors"]
        figures = drill.check()
        assert all(p.done for p in drill.players)
        assert not drill.hosts[0].up
        # given up as it stopped, not left to run out: a lease taken after it ran out is a new
        # generation; one given up is taken afresh (the adopter's lines are generation 1 too)
        assert [g for g, _first, _last in figures["gens"][drill.tables[0]]] == [1], figures["gens"]
        assert "adopted from host h1" in "".join(drill.hosts[1].out)
        assert all(p.reconnects >= 1 for p in drill.players)  # back at the table on its new host
        assert drill.players[0].host == 1  # (p0 was h1's: as a player's ssh lands on another host)
    finally:
        drill.close()


def test_a_rematch_of_people_on_two_hosts(pg, tmp_path):
    """A finished table whose people are on two hosts: one asks for a rematch, the others
    accept, the new table is made on the owner's host (leased there) and everyone sits at it."""
    drill = Drill(tmp_path, pg.fresh_database(), seed=17)
    try:
        drill.start(2)
        drill.seat_players([("colosseum", [0, 1, 1])])
        result = drill.play()
        assert not result["errors"], result["errors"]
        sessions = [p.session for p in drill.players]
        heard: list[list[P.RematchState]] = [[] for _ in sessions]
        for s, box in zip(sessions, heard, strict=True):
            s.rematch_listeners.append(box.append)

        def wait(what) -> None:
            end = time.monotonic() + 20
            while not what():
                assert time.monotonic() < end, (heard, "".join(drill.hosts[0].out[-30:]))
                for s in sessions:
                    s.drain()
                time.sleep(0.05)

        sessions[0].ask_rematch(True)
        wait(lambda: all(box for box in heard[1:]))
        for s in sessions[1:]:
            s.ask_rematch(True)
        wait(lambda: all(box and box[-1].new_table for box in heard))
        new = heard[0][-1].new_table
        for p in drill.players:
            assert p.client is not None
            joined = p.client.join(new, p.seat)
            assert joined.state is not None and joined.table.id == new
    finally:
        drill.close()
