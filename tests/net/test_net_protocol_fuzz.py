"""A hostile peer on the wire: every message a client may send, with random values of random
types in its fields (the real table's id and real moves among them, so that the messages reach
the handlers, not only the decoder), from a signed-in connection seated at a game of each kind.

Whatever it sends, the server answers it or drops it, never stops serving: the hostile
connection still gets its ``Pong``, the honest players finish their game, and its log replays
to the state they saw.  ``COLOSSEUM_SOAK=N`` sends N times as many messages."""

from __future__ import annotations

import asyncio
import os
import random
import struct
from typing import Any

import msgspec
import pytest

from colosseum.core.logread import read_log
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.hub import TableServer
from colosseum.tui.net.host.proto_client import ProtoClient
from colosseum.tui.net.host.testing import Player, play_to_end

SOAK = max(1, int(os.environ.get("COLOSSEUM_SOAK", "1") or "1"))
MESSAGES = 400 * SOAK

#: what a client may send (Hello only opens a connection: tested in test_net_tables)
CLIENT_MESSAGES = tuple(kind for kind in P.CLIENT_MESSAGES if kind is not P.Hello)


def _tag(kind: type[P._Msg]) -> str:
    return str(kind.__struct_config__.tag)


def _junk(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(12 if depth < 2 else 8)
    if pick == 0:
        return rng.choice([0, 1, -1, 7, 2**31, 2**63 - 1, -(2**63)])
    if pick == 1:
        return rng.choice([True, False, None])
    if pick == 2:
        return rng.choice([0.5, -1e300, float("inf")])
    if pick == 3:
        return rng.choice(["", "x", "[b]bold[/b]", "小明" * 30, "\x00\x1b[2J", "a" * 5000])
    if pick == 4:
        return rng.randbytes(rng.randrange(0, 40))
    if pick < 8:
        return rng.randrange(-3, 12)
    if pick < 10:
        return [_junk(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    return {str(_junk(rng, 2)): _junk(rng, depth + 1) for _ in range(rng.randrange(0, 3))}


def _value(rng: random.Random, f: Any, real: dict[str, list[Any]]) -> Any:
    """Mostly a value that means something here (the table's id, a seat, a real move, a bot's
    name) or one of the field's type, else junk of any type."""
    r = rng.random()
    if r < 0.6 and real.get(f.name):
        return rng.choice(real[f.name])
    if r < 0.85:
        t = f.type
        if t is bool:
            return rng.random() < 0.5
        if t is int:
            return rng.choice([0, 1, 2, -1, 3, 10**6, 2**63 - 1])
        if t is float:
            return rng.choice([0.0, 1.5, -1.0, 1e9])
        if t is str:
            return rng.choice(["", "x", "[/a]", "小明", "colosseum", "municipium", "human", "hard"])
    return _junk(rng)


def hostile_message(rng: random.Random, real: dict[str, list[Any]]) -> bytes:
    kind = rng.choice(CLIENT_MESSAGES)
    body: dict[str, Any] = {"t": _tag(kind)}
    for f in msgspec.structs.fields(kind):
        if rng.random() < 0.85:
            body[f.encode_name] = _value(rng, f, real)
    if rng.random() < 0.05:
        body[str(_junk(rng, 2))] = _junk(rng)  # a field it does not have
    data = msgspec.msgpack.encode(body)
    return struct.pack(">I", len(data)) + data


def run(coro: Any, timeout: float) -> Any:
    async def main() -> Any:
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(main())


@pytest.mark.long(40)
@pytest.mark.parametrize("game", ["colosseum", "municipium"])
def test_a_hostile_peer_never_stops_the_server(tmp_path, game):
    rng = random.Random(f"wire:{game}")

    async def go() -> None:
        srv = TableServer(tmp_path / "data", bot_delay=0.0, fixed_seeds=True)
        await srv.start()
        try:

            async def client(who: str) -> ProtoClient:
                return await ProtoClient.connect(srv.address, srv.token_for(f"key:{who}", who))

            honest, hostile = await client("alice"), await client("mallory")
            n = 3
            honest.send(P.CreateTable(seats=["human", "human"] + ["normal"] * (n - 2), game=game, seed=11, sit=0))
            joined = await honest.expect(lambda m: isinstance(m, P.Joined))
            tid = joined.table.id
            hostile.send(P.Join(table=tid, seat=1))
            started = await hostile.expect(lambda m: isinstance(m, P.Joined))
            assert started.state is not None
            rules = P.Codec.of(game).rules
            state = P.Codec.of(game).state(started.state)
            moves = [rules.encode(a) for a in rules.legal_actions(state)[:20]]
            real: dict[str, list[Any]] = {
                "table": [tid, tid, "zzzz", ""],
                "game": [game, "colosseum", "municipium", "nim", tid],
                "seat": [0, 1, 2, 5, -1],
                "sit": [0, 1, -1, 9],
                "seats": [["human", "normal"], ["hard"] * n, ["expert"] * 9, []],
                "action": moves + [b"{}", b"\xff"],
                "at": [0, -1, 1, 10**9],
                "count": [1, 2, 0, -1, 10**6],
                "code": ["ABCD", ""],
                "name": ["alice", "mallory", ""],
                "options": [{}, {"variant": "classic"}, {"goal": 99}, {"zz": []}],
                "what": ["show", "rename", "add_key", "zz"],
                "value": ["mallory2", "[b]x", "小明", "ssh-ed25519 AAAA junk", ""],
            }
            sent = 0
            for _ in range(MESSAGES):
                hostile.send_raw(hostile_message(rng, real))
                sent += 1
                if sent % 50 == 0:
                    hostile.send(P.Ping(ref=sent))
                    await hostile.expect(lambda m, r=sent: isinstance(m, P.Pong) and m.ref == r, timeout=20)
                    await asyncio.sleep(0.06)  # under the server's 1,000 messages a second (a flood closes)
            hostile.send(P.Ping(ref=-5))
            await hostile.expect(lambda m: isinstance(m, P.Pong) and m.ref == -5, timeout=20)
            # the table plays on: its two seats (the hostile one's now by an honest bot) to the end
            assert srv.tables.get(tid) is not None  # nothing it sent ends another player's table
            # (a Watch of its own table made it a spectator there; its seat is still its own)
            hostile.send(P.Join(table=tid, seat=1))
            await hostile.expect(lambda m: isinstance(m, (P.Joined, P.Error)), timeout=10)
            hostile.send(P.Autopilot(table=tid, on=True))
            player = Player(honest, tid, 0, bot="random", seed=3, game=game)
            player.take(joined)
            await play_to_end([player], timeout=60)
            log = read_log(srv.tables[tid].log_path)
            assert log.error is None and log.finished
            assert rules.encode(rules.player_view(log.state, 0)) == rules.encode(player.state)
        finally:
            await srv.close()

    run(go(), 120)
