"""Chance no player can predict: the keyed generator of server games (``core.rng``).

The seed-search attack (``scripts/seed_search.py``) finds a seeded game's seed from a player's
view and finds nothing for a game with a secret; the keyed draws pass statistical checks; a game
with a secret replays byte for byte from its log; no view a player gets holds the secret."""

from __future__ import annotations

import math
from collections import Counter

import msgspec
import pytest
from scripts_module import script

from colosseum.core import rng
from colosseum.core.gamelog import dump_log, make_header
from colosseum.core.games.colosseum import GameSetup, apply, new_game, replay, to_act
from colosseum.core.games.colosseum.bots import make_bot
from colosseum.core.games.colosseum.view import determinised, player_view
from colosseum.core.logread import parse_log

NAMES = ("Becky", "Kat", "Laura", "Marcus")
SECRET = "5f" * 32  # a fixed secret: the statistics below are deterministic


def _attack_module():
    return script("seed_search")


def test_the_seed_search_finds_a_small_seed_and_nothing_for_a_secret():
    attack = _attack_module().attack
    seeds = range(3000)
    found, _ = attack(GameSetup(players=NAMES, seed=2113), 4, seeds)
    assert found == [2113]  # the attack works: a seed from a searchable space is recovered
    for _ in range(3):
        found, _ = attack(GameSetup(players=NAMES, seed=0, secret=rng.new_secret()), 4, seeds)
        assert found == []


def _chi2(counts: Counter, cells: int, total: int) -> float:
    expected = total / cells
    return sum((counts.get(c, 0) - expected) ** 2 / expected for c in range(cells))


def test_keyed_dice_are_uniform_and_consecutive_rolls_independent():
    key = rng.key_of(SECRET)
    s, zs = rng.u64s(0, 60_000, key)
    assert s == 60_000
    dice = [z % 6 for z in zs]
    # 5 degrees of freedom: 20.5 is p = 0.001
    assert _chi2(Counter(dice), 6, len(dice)) < 20.5
    pairs = Counter(6 * a + b for a, b in zip(dice[::2], dice[1::2], strict=True))
    # 35 degrees of freedom: 66.6 is p = 0.001
    assert _chi2(pairs, 36, len(dice) // 2) < 66.6
    # every bit of the 64 is set about half the time
    for bit in range(64):
        ones = sum((z >> bit) & 1 for z in zs[:20_000])
        assert abs(ones - 10_000) < 4 * math.sqrt(5_000), bit


def test_keyed_shuffles_are_uniform():
    key = rng.key_of(SECRET)
    s = 0
    firsts = Counter()
    for _ in range(12_000):
        s, deck = rng.shuffled(s, tuple(range(6)), key)
        firsts[deck[0]] += 1
    assert _chi2(firsts, 6, 12_000) < 20.5


def test_the_stream_depends_on_the_secret_and_only_on_it():
    a = rng.u64s(0, 8, rng.key_of(SECRET))[1]
    assert a == rng.u64s(0, 8, rng.key_of(SECRET))[1]  # the same secret: the same draws (replay)
    assert a != rng.u64s(0, 8, rng.key_of("5e" + "5f" * 31))[1]
    assert rng.u64s(3, 5, rng.key_of(SECRET))[1] == a[3:]  # the state is the counter
    # a state and a secret's draws say nothing of SplitMix64's from the same state
    assert a != rng.u64s(0, 8)[1]


@pytest.mark.parametrize("bad", ["zz", "ab" * 8, "ab" * 65])
def test_a_secret_that_is_not_16_to_64_bytes_of_hex_is_refused(bad):
    from colosseum.core.games.colosseum import RuleError

    with pytest.raises(RuleError):
        new_game(GameSetup(players=NAMES, seed=0, secret=bad))


def _play(setup: GameSetup, count: int = 400):
    state = new_game(setup)
    bots = [make_bot("normal", seed=i) for i in range(len(setup.players))]
    actions = []
    while to_act(state) >= 0 and len(actions) < count:
        a = bots[to_act(state)].act(state)
        state, _ = apply(state, a)
        actions.append(a)
    return state, actions


@pytest.mark.parametrize("variant", ["grand", "classic", "original"])
def test_a_game_with_a_secret_replays_byte_for_byte_from_its_log(variant):
    setup = GameSetup(players=NAMES[:3], seed=0, secret=rng.new_secret(), variant=variant)
    state, actions = _play(setup)
    final, _ = replay(setup, actions)
    assert msgspec.json.encode(final) == msgspec.json.encode(state)
    log = parse_log(dump_log(make_header(setup, ("normal",) * 3), actions))
    assert log.error is None and log.setup.secret == setup.secret
    assert msgspec.json.encode(log.state) == msgspec.json.encode(state)
    # another secret: another game (the secret is what the chance comes from)
    other = msgspec.structs.replace(setup, secret=rng.new_secret())
    assert new_game(other).players != new_game(setup).players or _play(other, 40)[0] != _play(setup, 40)[0]


def test_no_view_holds_the_secret_and_playouts_never_use_it():
    setup = GameSetup(players=NAMES, seed=0, secret=rng.new_secret())
    state, _ = _play(setup, 60)
    view = player_view(state)
    assert view.rng == 0 and view.setup.secret == "" and view.setup.seed == 0
    assert setup.secret.encode() not in msgspec.json.encode(view)
    luck = determinised(state, 12345)
    assert luck.setup.secret == "" and luck.rng == 12345


def test_municipium_draws_from_the_secret_too():

    from colosseum.core.registry import rules

    kind = rules("municipium")
    a = kind.new_game(kind.spec.make_setup(["A", "B", "C"], seed=0, secret=SECRET))
    b = kind.new_game(kind.spec.make_setup(["A", "B", "C"], seed=0, secret="6a" * 32))
    c = kind.new_game(kind.spec.make_setup(["A", "B", "C"], seed=0))
    assert a.deck != b.deck or a.deck != c.deck
    view = kind.player_view(a, 0)
    assert view.setup.secret == "" and view.rng == 0
