"""Municipium's greedy (and easy, built on it) make exactly the choices they made before the
speed work on the playouts: seeded games of every player count and option, digested (the
encoded actions and the final state), against digests recorded from the slower code.  So are
the search's playouts from positions along a greedy game, greedy's valuations of the options
there, and the hard bot's choices on a node budget.  A faster valuation or a quieter ``apply``
must never change a choice."""

from __future__ import annotations

import hashlib

import msgspec
import pytest

from colosseum.core.registry import rules

GAME = rules("municipium")

# (players, seed, options, greedy digest, easy digest): over the encoded actions and the final state
EXPECTED = [
    (2, 1, (), "ba8efb202bf001de", "8732c92a04af6440"),
    (3, 2, (), "59f689be65b28fce", "da635ed8e11e87a9"),
    (4, 3, (), "f42f978638c41039", "3ebc671bb0084e22"),
    (3, 4, ("short",), "8fc59488ec915ecb", "3626879dedf7f6f3"),
    (4, 5, ("short",), "923b793533f72845", "2827217cc89ab781"),
    (3, 6, ("single-chamber",), "0a8f4a91a8be2877", "6b1e3ea0971a71e8"),
    (4, 7, ("single-chamber",), "f1673d9019165f96", "ffb6ab20dd7e48c4"),
    (4, 8, ("short", "single-chamber"), "612c051e7cc6f43a", "46017bb414f100aa"),
    (3, 9, (), "ab2d654f5ce4de04", "b3d05e2b85533e0f"),
]


def _new(players: int, seed: int, options: tuple[str, ...]):
    return GAME.new_game(GAME.spec.make_setup(tuple("ABCD"[:players]), seed=seed, options=options))


def _digest(players: int, seed: int, options: tuple[str, ...], bot: str) -> str:
    state = _new(players, seed, options)
    bots = [GAME.make_bot(bot, seed * 31 + i) for i in range(players)]
    h = hashlib.sha256()
    while (seat := GAME.to_act(state)) >= 0:
        action = bots[seat].act(state)
        h.update(msgspec.json.encode(action))
        state, _ = GAME.apply(state, action)
    h.update(GAME.encode(state))
    return h.hexdigest()[:16]


@pytest.mark.parametrize(("players", "seed", "options", "greedy", "easy"), EXPECTED)
def test_same_choices_as_before(players: int, seed: int, options: tuple[str, ...], greedy: str, easy: str) -> None:
    assert _digest(players, seed, options, "greedy") == greedy
    assert _digest(players, seed, options, "easy") == easy


def _positions(players: int, seed: int, options: tuple[str, ...], every: int):
    """Every ``every``-th position of a seeded greedy game (its first included)."""
    state = _new(players, seed, options)
    bots = [GAME.make_bot("normal", seed * 31 + i) for i in range(players)]
    k = 0
    while (seat := GAME.to_act(state)) >= 0:
        if k % every == 0:
            yield state
        state, _ = GAME.apply(state, bots[seat].act(state))
        k += 1


def _valuations_digest() -> str:
    from colosseum.core.games.municipium.bots.greedy import GreedyBot
    from colosseum.core.search import playout

    h = hashlib.sha256()
    for players, seed, options in [(3, 11, ()), (4, 12, ("short",)), (4, 13, ("single-chamber",)), (2, 14, ())]:
        for k, state in enumerate(_positions(players, seed, options, 23)):
            options_now = GAME.legal_actions(state)
            seat = GAME.to_act(state)
            bot = GreedyBot(k)
            h.update(repr(bot.values(state, seat, options_now)).encode())
            h.update(msgspec.json.encode(bot.ranked(state)))
            o = playout(GAME, state, bot.act(state), seat, 1000 + k, None)
            h.update(repr((o.won, o.points, o.score) if o else None).encode())
    return h.hexdigest()[:16]


def test_same_valuations_and_playouts_as_before() -> None:
    """Greedy's value of every option (``values``, ``ranked``) and the search's playouts (greedy
    at every seat, on the quiet path) from positions along greedy games end as before."""
    assert _valuations_digest() == "62a594c1173db352"


def _search_digest() -> str:
    h = hashlib.sha256()
    for players, seed, options in [(3, 21, ()), (4, 22, ("short", "single-chamber"))]:
        for k, state in enumerate(_positions(players, seed, options, 50)):
            bot = GAME.search_bot("hard", 500 + k, None, playouts=12)
            for action, score in bot.analyse(state):  # the bot's choice first
                h.update(msgspec.json.encode(action))
                h.update(repr(score).encode())
    return h.hexdigest()[:16]


def test_same_search_choices_as_before() -> None:
    """The hard bot on a node budget (deterministic for a seed) chooses and scores as before."""
    assert _search_digest() == "707f6d4d7fd132ed"


def _values_as_written(state, seat, options):
    """``GreedyBot.values`` as it was written before the speed work: every option applied."""
    from colosseum.core.games.municipium.actions import BasilicaDraw, Pass, UsePower
    from colosseum.core.games.municipium.bots.greedy import POWER_BONUS, seat_scores
    from colosseum.core.games.municipium.engine import apply

    def value(state, seat):
        scores = seat_scores(state)  # (itself checked against the rule of thumb written out: test_muni_bots)
        return scores[seat] - 0.7 * max(x for s, x in enumerate(scores) if s != seat)

    out = []
    now = value(state, seat)
    for a in options:
        if isinstance(a, BasilicaDraw):
            v = now + 12.0
        elif isinstance(a, Pass) and state.stack:
            v = now
        else:
            v = value(apply(state, a)[0], seat)
            if isinstance(a, UsePower):
                v += POWER_BONUS[a.institution]
        out.append(v)
    return out


def test_values_without_the_position_after_are_the_values_with_it() -> None:
    """Greedy values most options without applying them (what they change of the valuation is
    plain): in every position of games of random and greedy bots, every player count and
    option, each value is the one of the position after the option, exactly."""
    from colosseum.core.games.municipium.bots.greedy import GreedyBot

    decisions = 0
    for seed in range(16):
        players = 2 + seed % 3
        options = [(), ("short",), ("single-chamber",), ("short", "single-chamber")][seed // 4]
        state = _new(players, 300 + seed, options)
        bots = [GAME.make_bot("random" if (seed + i) % 2 else "normal", seed * 31 + i) for i in range(players)]
        while (seat := GAME.to_act(state)) >= 0:
            legal = GAME.legal_actions(state)
            found = GreedyBot(0).values(state, seat, legal)
            assert found == _values_as_written(state, seat, legal), (seed, state.actions)
            decisions += 1
            state, _ = GAME.apply(state, bots[seat].act(state))
    assert decisions > 2000
