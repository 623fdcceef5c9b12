"""How ``server_v4/`` was made: a table server of protocol version 4 (the program before one
Table hosted every game, commit cb9ac18) left with a waiting table, two tables in play (Colosseum,
Municipium, one take-back) and two finished games (one of each) in its data folder, then stopped.

Run with that version's code first on the path (``git archive cb9ac18``, its folders laid out as
the ``colosseum`` package), e.g. ``PYTHONPATH=OLD python make_server_v4.py OUT``; the tests read
what it wrote (``test_net_upgrade.py``)."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import msgspec

from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.hub import TableServer, write_private
from colosseum.tui.net.host.muni_wire import MuniAct
from colosseum.tui.net.host.muni_wire import encode as muni_encode
from colosseum.tui.net.host.proto_client import ProtoClient
from colosseum.tui.net.host.table import SeatMeta, TableMeta
from colosseum.tui.net.host.testing import Player

assert P.PROTOCOL_VERSION == 4, "made by the version 4 server"


async def main(out: Path) -> None:
    data = out / "data"
    shutil.rmtree(out, ignore_errors=True)
    srv = TableServer(data, bot_delay=0.0, fixed_seeds=True)
    await srv.start()
    a, b = [await ProtoClient.connect(srv.address, srv.token_for(f"key:{n}", n)) for n in ("alice", "bob")]
    # a Colosseum table in play: alice and bob and a bot, a few moves and one take-back
    a.send(P.CreateTable(seats=["human", "human", "random"], seed=7, name="arena", hints=True))
    tid = (await a.expect(lambda m: isinstance(m, P.Joined))).table.id
    b.send(P.Join(table=tid, seat=1))
    jb = await b.expect(lambda m: isinstance(m, P.Joined))
    players = [Player(a, tid, 0, seed=1), Player(b, tid, 1, seed=2)]
    for p in players:
        p.take(jb)
    table = srv.tables[tid]
    undone = False
    while len(table.actions) < 12:
        for p in players:
            await p.pump(timeout=0.05)
            if p.my_turn():
                await p.act_once()
                if not undone and table.reach(p.seat).steps:
                    p.c.send(P.Undo(table=tid, seat=p.seat, ref=500))
                    await p.c.expect(lambda m: isinstance(m, P.Ack | P.Error) and m.ref == 500)
                    undone = True
    a.send(P.Say(table=tid, text="ave"))
    # a Municipium table in play: alice and a bot, a few moves
    a.send(P.CreateTable(seats=["human", "normal"], seed=3, game="municipium", options=["short"], name="forum"))
    mid = (await a.expect(lambda m: isinstance(m, P.Joined))).table.id
    muni = srv.tables[mid]
    ref = 600
    while len(muni.actions) < 6:
        await asyncio.sleep(0.01)
        if muni.to_act() == 0:
            ref += 1
            action = muni.bot_for(0).act(muni.game)
            a.send(P.GameMsg(table=mid, body=muni_encode(MuniAct(action=action, at=len(muni.actions))), ref=ref))
            await a.expect(lambda m, r=ref: isinstance(m, P.Ack | P.Error) and m.ref == r)
    # two finished games, one of each, watched by nobody (they go to the history)
    for game, seats in (("colosseum", ["random"] * 3), ("municipium", ["random"] * 2)):
        b.send(P.CreateTable(seats=seats, sit=-1, seed=5, game=game, name=f"done {game}"))
        done = (await b.expect(lambda m: isinstance(m, P.Joined))).table.id
        b.send(P.Leave(table=done))
        while done in srv.tables:
            await asyncio.sleep(0.01)
    await a.close()
    await b.close()
    await srv.close()
    (data / "tables.sock").unlink(missing_ok=True)
    # a waiting table of the original edition with the 2007 auctions, alice seated (a server
    # stopped while she waited: a table everybody left is removed, so it is written as the
    # server writes it)
    meta = TableMeta(
        id="0a1b2c",
        name="wait",
        variant="original",
        options=["auction-2007"],
        allow_takeover=True,
        creator="key:alice",
        creator_name="alice",
        seats=[
            SeatMeta(kind="human", holder="key:alice", name="alice"),
            SeatMeta(kind="human"),
            SeatMeta(kind="normal"),
        ],
        created=1.0,
    )
    write_private(data / "tables" / "0a1b2c.json", msgspec.json.encode(meta))


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
