"""The table protocol's messages and framing."""

from __future__ import annotations

import struct

import msgspec
import pytest

from colosseum.core.games.colosseum import GameSetup, legal, new_game
from colosseum.tui.net.host import protocol as P


def test_every_message_round_trips_with_a_state_and_an_action():
    st = new_game(GameSetup(players=("Becky", "Kat", "Laura"), seed=7))
    action = legal(st).actions[0]
    codec = P.Codec.of("colosseum")
    info = P.TableInfo(
        id="t1",
        name="x",
        game="colosseum",
        options={"variant": "original", "options": ["auction-2007"], "starting_coins": None},
        status="playing",
        seats=[P.SeatInfo(kind="human", name="Becky", holder=True, present=True)],
    )
    msgs = [
        P.Hello(version=P.PROTOCOL_VERSION, token="a.b"),
        P.CreateTable(seats=["human", "random", "random"], allow_takeover=True, options={"variant": "classic"}),
        P.Act(table="t1", action=codec.pack(action), ref=3, at=0),
        P.Update(table="t1", n=1, actions=[codec.pack(action)], events=[], state=codec.pack(st)),
        P.Joined(
            table=info,
            seat=0,
            setup=codec.pack(st.setup),
            state=codec.pack(st),
            actions=[codec.pack(action)],
            chat=[P.ChatLine(table="t1", name="Kat", text="hi")],
        ),
        P.Error(message="no", code="rule", rule="G-3", ref=3),
        P.Autopilot(table="t1", on=True),
        P.Review(table="t1", ref=4),
        P.Positions(
            table="t1",
            ref=4,
            n=1,
            start=0,
            setup=codec.pack(st.setup),
            actions=[codec.pack(action)],
            events=[[]],
            keys=[P.Position(at=0, state=codec.pack(st))],
        ),
    ]
    buf = P.FrameBuffer()
    data = b"".join(P.encode(m) for m in msgs)
    got = []
    for i in range(0, len(data), 7):  # arbitrary chunking
        got += [P.decode(b) for b in buf.feed(data[i : i + 7])]
    assert got == msgs
    # the game's values read back with the game's own types
    update = got[3]
    assert codec.state(update.state) == st and codec.actions(update.actions) == [action]
    assert codec.setup(got[4].setup) == st.setup


def test_game_values_travel_as_the_games_json():
    """A table's setup, state and actions are the game's JSON (its Rules.encode): the protocol
    names no game's types, and a receiver reads them with the types of the game the table names."""
    import msgspec as ms

    for name in ("colosseum", "municipium"):
        codec = P.Codec.of(name)
        rules = codec.rules
        setup = rules.spec.make_setup(["A", "B", "C"], seed=3)
        st = rules.new_game(setup)
        packed = codec.pack(st)
        assert packed == rules.encode(st) and ms.json.decode(packed)["setup"]["players"] == ["A", "B", "C"]
        assert codec.state(packed) == st
    with pytest.raises(ValueError, match="unknown game"):
        P.Codec.of("chess")
    with pytest.raises(ms.DecodeError):
        P.Codec.of("colosseum").action(b'{"a": "launch"}')


def test_bad_frames_are_refused():
    with pytest.raises(P.ProtocolError):
        P.decode(b"\xc1")
    with pytest.raises(P.ProtocolError):
        P.decode(msgspec.msgpack.encode({"t": "hello", "version": "one", "token": ""}))
    with pytest.raises(P.ProtocolError):  # unknown fields are not silently ignored
        P.decode(msgspec.msgpack.encode({"t": "ping", "ref": 1, "extra": 2}))
    with pytest.raises(P.ProtocolError) as info:
        P.FrameBuffer().feed(struct.pack(">I", P.MAX_MESSAGE + 1))
    assert info.value.fatal
