"""What a player reads when the network or the server is in trouble: plain words, no rule code
("G-0: the server did not answer" read as noise); a refusal by a rule of the game keeps its
code."""

from __future__ import annotations

import asyncio

import pytest

from colosseum.core.errors import RuleError
from colosseum.core.games.colosseum import legal, to_act
from colosseum.tui.net import remote
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.lobby_requests import refusal
from colosseum.tui.net.remote import RemoteClient


def test_the_servers_refusals_carry_a_rule_code_only_when_they_name_a_rule():
    assert str(refusal(P.Error(message="the server could not save that move; try again"))) == (
        "the server could not save that move; try again"
    )
    rule = refusal(P.Error(message="not your turn", rule="G-3", code="rule"))
    assert str(rule) == "G-3: not your turn" and rule.rule == "G-3"


def test_a_silent_server_a_lost_connection_and_a_spectator_are_said_without_a_code(server, monkeypatch):
    monkeypatch.setattr(remote, "REPLY_TIMEOUT", 0.3)
    client = RemoteClient(server.address, server.token_for("key:becky", "Becky"))
    joined = client.create_table(seats=["human", "random", "random"], sit=0, seed=3)
    session = client.session_for(joined)

    async def main():
        for _ in range(500):
            if to_act(session.state) == 0:
                break
            await asyncio.sleep(0.01)
        move = legal(session.state).actions[0]
        monkeypatch.setattr(client, "send", lambda msg: None)  # the server never hears it
        with pytest.raises(RuleError) as said:
            session.submit(move)
        assert str(said.value) == "the server did not answer"

    asyncio.run(asyncio.wait_for(main(), 30))
    spy = RemoteClient(server.address, server.token_for("key:eve", "Eve"))
    watching = spy.session_for(spy.watch(joined.table.id))
    with pytest.raises(RuleError) as said:
        watching.submit(None)
    assert str(said.value) == "spectators cannot act"
    client.close()
    spy.close()
