"""Hidden information stays hidden at a table, for every game: whole games are played by two
people, a bot and a spectator, every frame each connection receives is kept, and each position in
it is checked against what that seat may know: exactly the game's ``player_view`` of the real
position for that seat (the real one worked out here from the server's log, which holds the
secret), no secret, seed or generator state anywhere, and per game what lies face down: the
original edition's tiles left aside (until turned up) and Municipium's deck order (issue 24).
The review's positions (``Review``) are checked the same way."""

from __future__ import annotations

import asyncio

import pytest
import toygame
from test_net_tables import client, run, server_at

from colosseum.core.games.colosseum.view import HIDDEN
from colosseum.core.logread import read_log
from colosseum.core.registry import rules, unregister
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.testing import Player, play_to_end

GAMES = {
    "colosseum": ("colosseum", ["human", "human", "random"], {}),
    "original": ("colosseum", ["human", "human", "random"], {"variant": "original"}),
    "municipium": ("municipium", ["human", "human", "random"], {}),
    "nim": ("nim", ["human", "human", "random"], {"heap": 9}),
}


@pytest.fixture(autouse=True)
def nim():
    toygame.register()
    yield
    unregister("nim")


class Seen:
    """What one connection was told, position by position, checked as it arrives: the actions
    it heard of (so the real position is known at every step, take-backs included)."""

    def __init__(self, game: str, seat: int | None, setup, secret: str) -> None:
        self.rules = rules(game)
        self.codec = P.Codec(self.rules)
        self.seat = seat
        self.setup = setup
        self.secret = secret
        self.actions: list = []
        self.reals = [self.rules.new_game(setup)]  # the real position after each of ``actions``
        self.states = 0
        self.extra: list = []  # every view sent, for the game's own checks

    def real(self, n: int):
        while len(self.reals) <= n:
            self.reals.append(self.rules.apply(self.reals[-1], self.actions[len(self.reals) - 1])[0])
        return self.reals[n]

    def heard(self, actions: list, at: int) -> None:
        """The actions in effect are now ``self.actions[:at] + actions``."""
        del self.actions[at:], self.reals[at + 1 :]
        self.actions += actions

    def check(self, data: bytes, n: int) -> None:
        view = self.codec.state(data)
        real = self.real(n)
        assert view == self.rules.player_view(real, self.seat), f"position {n} is not seat {self.seat}'s view"
        assert view.rng == 0 and view.setup.seed == 0 and view.setup.secret == ""
        self.extra.append((view, real))
        self.states += 1

    def frame(self, raw: bytes) -> None:
        assert self.secret.encode() not in raw and self.secret.upper().encode() not in raw
        m = P.decode(raw)
        if isinstance(m, P.Joined | P.TableChanged) and m.setup is not None:
            seen = self.codec.setup(m.setup)
            assert seen.seed == 0 and seen.secret == ""
        if isinstance(m, P.Joined) and m.state is not None:
            self.heard(self.codec.actions(m.actions), 0)
            self.check(m.state, len(self.actions))
        elif isinstance(m, P.TableChanged) and m.state is not None:
            self.check(m.state, m.n)
        elif isinstance(m, P.Update):
            assert m.n == len(self.actions) + len(m.actions)
            self.heard(self.codec.actions(m.actions), len(self.actions))
            self.check(m.state, m.n)
        elif isinstance(m, P.Undone):
            self.heard([], m.n)
            self.check(m.state, m.n)
        elif isinstance(m, P.Positions):
            assert self.codec.actions(m.actions) == self.actions[m.start : m.start + len(m.actions)]
            for key in m.keys:
                self.check(key.state, key.at)


async def _play(tmp_path, name: str):
    """One whole game of ``name`` with every frame kept: (the frames per connection and its
    seat, the setup with its secret, the server's table)."""
    game, seats, options = GAMES[name]
    srv = await server_at(tmp_path)  # no seed given: the game's chance comes from a secret
    try:
        a, b, eve = [await client(srv, who) for who in ("alice", "bob", "eve")]
        for c in (a, b, eve):
            c.raw = []
        a.send(P.CreateTable(seats=seats, sit=0, game=game, options=options))
        tid = (await a.expect(lambda m: isinstance(m, P.Joined))).table.id
        eve.send(P.Watch(table=tid))
        await eve.expect(lambda m: isinstance(m, P.Joined))
        b.send(P.Join(table=tid, seat=1))
        jb = await b.expect(lambda m: isinstance(m, P.Joined))
        players = [Player(a, tid, 0, seed=1), Player(b, tid, 1, seed=2)]
        for p in players:
            p.take(jb)
        undone = 0
        loop = asyncio.get_running_loop()
        end = loop.time() + 90
        while undone < 3 and not all(p.over() for p in players) and loop.time() < end:  # with take-backs
            acted = False
            for p in players:
                await p.pump()
                if p.my_turn():
                    await p.act_once()
                    acted = True
                    table = srv.tables.get(tid)
                    if table is not None and table.reach(p.seat).steps:
                        p.c.send(P.Undo(table=tid, seat=p.seat, ref=900 + undone))
                        await p.c.expect(lambda m: isinstance(m, P.Ack | P.Error) and m.ref >= 900)
                        undone += 1
            if not acted:
                await asyncio.gather(*(p.pump(timeout=0.05) for p in players))
        await play_to_end(players, timeout=60)
        for c in (a, b, eve):
            c.send(P.Review(table=tid, ref=77))
            await c.expect(lambda m: isinstance(m, P.Positions) and m.ref == 77)
        await asyncio.sleep(0.2)
        setup = read_log(srv.data / "games" / f"{tid}.jsonl").setup
        return [(a.raw, 0), (b.raw, 1), (eve.raw, None)], setup, undone
    finally:
        await srv.close()


@pytest.mark.parametrize("name", list(GAMES))
def test_every_message_holds_only_what_its_seat_may_see(tmp_path, name):
    frames, setup, undone = run(_play(tmp_path, name), 150)
    game = GAMES[name][0]
    assert len(bytes.fromhex(setup.secret)) == 32
    views = []
    for raw, seat in frames:
        seen = Seen(game, seat, setup, setup.secret)
        for f in raw:
            seen.frame(f)
        assert seen.states > 10 and seen.rules.is_over(seen.real(len(seen.actions)))
        views += seen.extra
    if name == "original":
        # the green tiles left face down by the board are sent face down until turned up
        assert any(real.aside for _, real in views), "no tile was left aside in this game"
        assert all(view.aside == (HIDDEN,) * len(real.aside) for view, real in views)
    if name == "municipium":
        # the common deck is sent in no order (sorted): only what it holds, which anyone can count
        assert any(real.deck != tuple(sorted(real.deck)) for _, real in views)
        assert all(view.deck == tuple(sorted(real.deck)) for view, real in views)
    if name in ("colosseum", "nim"):
        assert undone >= 1  # take-backs were checked too
