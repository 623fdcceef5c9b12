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
    info = P.TableInfo(
        id="t1",
        name="x",
        variant="grand",
        options=[],
        status="playing",
        seats=[P.SeatInfo(kind="human", name="Becky", holder=True, present=True)],
    )
    msgs = [
        P.Hello(version=P.PROTOCOL_VERSION, token="a.b"),
        P.CreateTable(seats=["human", "random", "random"], allow_takeover=True),
        P.Act(table="t1", action=action, ref=3, at=0),
        P.Update(table="t1", n=1, actions=[action], events=[], state=st),
        P.Joined(
            table=info,
            seat=0,
            setup=st.setup,
            state=st,
            actions=[action],
            chat=[P.ChatLine(table="t1", name="Kat", text="hi")],
        ),
        P.Error(message="no", code="rule", rule="G-3", ref=3),
        P.Autopilot(table="t1", on=True),
    ]
    buf = P.FrameBuffer()
    data = b"".join(P.encode(m) for m in msgs)
    got = []
    for i in range(0, len(data), 7):  # arbitrary chunking
        got += [P.decode(b) for b in buf.feed(data[i : i + 7])]
    assert got == msgs


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
