"""The ``hard`` (search) and ``easy`` bots: legal play, budgets, determinism, hints."""

from __future__ import annotations

import time

import pytest

from colosseum.core.games.colosseum import apply, encode_state, legal, new_game, to_act
from colosseum.core.games.colosseum.bots import make_bot
from colosseum.core.games.colosseum.bots import playout as playout_mod
from colosseum.core.games.colosseum.bots import search as search_mod
from colosseum.core.games.colosseum.bots.easy import EasyBot
from colosseum.core.games.colosseum.bots.greedy import GreedyBot
from colosseum.core.games.colosseum.bots.search import SearchBot, candidates
from colosseum.core.simulate import make_bots, make_setup, play_game


def positions(seed: int, players: int = 3, every: int = 1):
    """States of a greedy game where the player to act has more than one choice."""
    state = new_game(make_setup(players, seed))
    bots = make_bots(["greedy"] * players, seed)
    k = 0
    while (seat := to_act(state)) >= 0:
        if len(legal(state)) > 1:
            if k % every == 0:
                yield state
            k += 1
        state, _ = apply(state, bots[seat].act(state))


def searched(seed: int, limit: int, players: int = 3):
    """Up to ``limit`` positions where the hard bot compares several candidates, in different
    situations (phase and stage)."""
    seen: dict[tuple, int] = {}
    out = []
    g = GreedyBot(0)
    for st in positions(seed, players):
        ch = legal(st)
        if len(candidates(st, ch, g.act(st), g, 5)) < 2:
            continue
        key = (st.phase, st.perform.stage if st.perform else "", st.hire.auction is not None if st.hire else False)
        if seen.get(key, 0) >= 2:
            continue
        seen[key] = seen.get(key, 0) + 1
        out.append(st)
        if len(out) >= limit:
            break
    return out


@pytest.mark.parametrize("variant", ["grand", "classic"])
def test_hard_plays_whole_games_legally(variant):
    """A tiny node budget: every action taken by the engine, invariants hold, the game ends."""
    setup = make_setup(3, 11, variant=variant)
    bots = [SearchBot(1, think=None, playouts=4), make_bot("greedy", 2), SearchBot(3, think=None, playouts=2)]
    rec = play_game(setup, bots, check=True)
    assert rec.details["rounds"] >= 1 and rec.actions > 50


def test_easy_plays_legally_and_beats_random():
    wins = 0
    for seed in range(1, 7):
        seat = seed % 3
        bots = [make_bot("random", seed * 31 + i) for i in range(3)]
        bots[seat] = EasyBot(seed)
        rec = play_game(make_setup(3, seed), bots, check=True)
        wins += rec.winner == seat
    assert wins >= 5


def test_node_budget_is_respected(monkeypatch):
    calls = []
    real = playout_mod.playout

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(playout_mod, "playout", counting)
    for st in searched(5, 4):
        calls.clear()
        bot = SearchBot(2, think=None, playouts=9)
        bot.act(st)
        assert len(calls) <= 9
        assert bot.last_playouts == len(calls)


def test_same_seed_and_node_budget_same_choice():
    for st in searched(8, 4):
        a = SearchBot(4, think=None, playouts=6)
        b = SearchBot(4, think=None, playouts=6)
        assert a.act(st) == b.act(st)
        assert a.analyse(st) == b.analyse(st)


def test_hint_changes_neither_state_nor_bot():
    for st in searched(9, 4):
        before = encode_state(st)
        bot = SearchBot(6, think=None, playouts=6)
        twin = SearchBot(6, think=None, playouts=6)
        hint = bot.analyse(st)
        assert encode_state(st) == before
        assert hint and hint[0][0] == bot.act(st) == twin.act(st)
        assert len({a for a, _ in hint}) == len(hint)


def test_choice_is_legal_and_time_budget_holds():
    for st in searched(12, 6):
        bot = SearchBot(3, think=0.05)
        t0 = time.perf_counter()
        a = bot.act(st)
        took = time.perf_counter() - t0
        apply(st, a)  # raises if illegal
        assert took < 0.05 * 1.5 + 0.1


def test_search_failure_falls_back_to_greedy(monkeypatch):
    def broken(*args, **kwargs):
        raise ValueError("boom")

    monkeypatch.setattr(search_mod, "run_iterations", broken)
    for st in searched(5, 3):
        assert SearchBot(1, think=None, playouts=8).act(st) == GreedyBot(1).act(st)


def test_worker_processes_give_the_same_choice():
    st = searched(5, 3)[-1]
    one = SearchBot(4, think=None, playouts=12)
    two = SearchBot(4, think=None, playouts=12, workers=2)
    try:
        assert two.start_workers(wait=True) is not None
        assert one.analyse_detail(st) == two.analyse_detail(st)
    finally:
        two.close()


def test_screening_plays_the_finalists_most():
    """Every candidate is screened; then only greedy's choice and the best other are played, and
    the choice is one of them."""
    checked = 0
    for st in searched(8, 6):
        bot = SearchBot(5, think=None, playouts=40)
        detail = bot.analyse_detail(st)
        if len(detail) < 3:
            continue
        checked += 1
        counts = sorted((c.playouts for c in detail), reverse=True)
        assert counts[0] == counts[1] > counts[2] == search_mod.SCREEN_ITERATIONS
        assert detail[0].playouts == counts[0]
        assert sum(counts) <= 40
    assert checked
