"""A power cut under the table server: what the disk keeps of a table's log is what was synced
(each line is written and fsynced before it is acknowledged or broadcast), perhaps with a torn
piece of the line being written.  After a restart no acknowledged action is lost, and the table
plays on."""

from __future__ import annotations

import random
import shutil

import msgspec
from test_net_tables import client, run, server_at, three_at_a_table

from colosseum.core.games.colosseum import legal, to_act
from colosseum.core.logwriter import fsync_default
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.meta import TableMeta
from colosseum.tui.net.host.testing import Player, play_to_end


def test_a_power_cut_at_random_points_loses_no_acknowledged_action(tmp_path):
    assert fsync_default()  # every line reaches the disk before it is acknowledged

    async def play() -> tuple[str, list[tuple[list, int]], bytes]:
        """A whole game at a table of three people and two bots, with a few take-backs; after
        each acknowledged action (or take-back), the actions in effect and the log's synced
        length at that moment."""
        srv = await server_at(tmp_path / "live", bot_timeout=60)
        tid, players = await three_at_a_table(srv, seats=("human", "human", "human", "random", "random"), seed=11)
        table = srv.tables[tid]
        acked: list[tuple[list, int]] = []
        ref = 0
        while to_act(table.state) >= 0:
            seat = to_act(table.state)
            if seat > 2:  # a bot's move: wait for it
                await players[0].pump(timeout=0.05)
                continue
            p = players[seat]
            ref += 1
            p.c.send(P.Act(table=tid, action=P.Codec.of("colosseum").pack(legal(table.state).actions[-1]), ref=ref))
            reply = await p.c.expect(lambda m, r=ref: isinstance(m, (P.Ack, P.Error)) and m.ref == r)
            assert isinstance(reply, P.Ack)
            # (the bots may have moved on since: what is in effect now is what is synced now)
            acked.append((list(table.actions), table.log.size))
            assert table.actions[: reply.n] == acked[-1][0][: reply.n]
            if table.meta.status == "playing" and ref % 7 == 0 and table.reach(seat).steps:
                ref += 1
                p.c.send(P.Undo(table=tid, seat=seat, ref=ref))
                reply = await p.c.expect(lambda m, r=ref: isinstance(m, (P.Ack, P.Error)) and m.ref == r)
                assert isinstance(reply, P.Ack)
                acked.append((list(table.actions), table.log.size))
        data = table.log_path.read_bytes()
        meta = msgspec.json.decode((srv.data / "history" / f"{tid}.json").read_bytes(), type=TableMeta)
        await srv.close()
        meta.status = "playing"  # the table as it was on disk while the game ran
        return tid, acked, data, msgspec.json.encode(meta)

    async def go():
        tid, acked, data, meta = await play()
        assert len(acked) > 40
        assert any(len(a) < len(b) for (a, _), (b, _) in zip(acked[1:], acked[:-1], strict=True))  # undos too
        rng = random.Random(5)
        points = sorted(rng.sample(range(len(acked) - 1), 8))
        for k in points:
            actions, synced = acked[k]
            # the cut: what was synced stays; of what followed, a torn piece may have reached the disk
            following = data[synced:]
            torn = rng.randrange(0, following.find(b"\n") + 1 if b"\n" in following else 1)
            folder = tmp_path / f"cut{k}"
            shutil.rmtree(folder, ignore_errors=True)
            srv = await server_at(folder, bot_timeout=60)  # makes the folders and the secret
            await srv.close()
            (folder / "data" / "tables" / f"{tid}.json").write_bytes(meta)
            (folder / "data" / "games" / f"{tid}.jsonl").write_bytes(data[: synced + torn])
            srv = await server_at(folder, bot_timeout=60)
            try:
                table = srv.tables[tid]
                assert table.actions == actions, f"cut after acknowledgement {k}"
                assert table.meta.status == "playing"
                # the table plays on to the end with its people back in their seats
                players = []
                for seat, who in enumerate(("alice", "bob", "carol")):
                    c = await client(srv, who)
                    c.send(P.Join(table=tid, seat=seat))
                    j = await c.expect(lambda m: isinstance(m, P.Joined))
                    p = Player(c, tid, seat, seed=seat)
                    p.take(j)
                    players.append(p)
                await play_to_end(players, timeout=60)
                assert all(to_act(p.state) < 0 for p in players)
            finally:
                await srv.close()

    run(go(), 240)
