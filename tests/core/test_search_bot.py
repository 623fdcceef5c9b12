"""The shared search (``core.search``: the ``hard`` and ``expert`` bots, the hint) over every game:
legal play, budgets, determinism, the hint, and Colosseum's candidates."""

from __future__ import annotations

import gc
import threading
import time

import pytest
import toygame

from colosseum.core import search as search_mod
from colosseum.core.games.colosseum import apply, encode_state, legal, new_game, to_act
from colosseum.core.games.colosseum.bots.easy import EasyBot
from colosseum.core.games.colosseum.bots.greedy import GreedyBot
from colosseum.core.games.colosseum.bots.search import PlayoutGreedy, candidates
from colosseum.core.games.colosseum.rules import RULES
from colosseum.core.hint import HINT_OPTIONS
from colosseum.core.registry import register, rules, unregister
from colosseum.core.search import LEVELS, SearchBot
from colosseum.core.simulate import make_bots, make_setup, play_game


@pytest.fixture(scope="module")
def nim():
    register(toygame.SPEC)
    yield toygame.RULES
    unregister("nim")


def hard(seed: int, **kw) -> SearchBot:
    return SearchBot(RULES, seed, **kw)


def positions(seed: int, players: int = 3):
    """States of a greedy game where the player to act has more than one choice."""
    state = new_game(make_setup(players, seed))
    bots = make_bots(["greedy"] * players, seed)
    while (seat := to_act(state)) >= 0:
        if len(legal(state)) > 1:
            yield state
        state, _ = apply(state, bots[seat].act(state))


def searched(seed: int, limit: int, players: int = 3, cap: int = 5):
    """Up to ``limit`` positions where the search compares several candidates, in different
    situations (phase and stage)."""
    seen: dict[tuple, int] = {}
    out = []
    g = GreedyBot(0)
    for st in positions(seed, players):
        if len(candidates(st, g.act(st), cap, g)) < 2:
            continue
        key = (st.phase, st.perform.stage if st.perform else "", st.hire.auction is not None if st.hire else False)
        if seen.get(key, 0) >= 2:
            continue
        seen[key] = seen.get(key, 0) + 1
        out.append(st)
        if len(out) >= limit:
            break
    return out


# ---------------------------------------------------------------------- every game


@pytest.mark.parametrize("variant", ["grand", "classic"])
def test_search_plays_whole_colosseum_games_legally(variant):
    """A tiny node budget: every action taken by the engine, invariants hold, the game ends."""
    setup = make_setup(3, 11, variant=variant)
    bots = [hard(1, playouts=4), GreedyBot(2), SearchBot(RULES, 3, playouts=6, level="expert")]
    rec = play_game(setup, bots, check=True)
    assert rec.details["rounds"] >= 1 and rec.actions > 50


@pytest.mark.long(21)
def test_search_plays_whole_municipium_games_legally():
    muni = rules("municipium")
    setup = make_setup(2, 12, game="municipium")
    bots = [muni.search_bot("hard", 1, playouts=4), muni.search_bot("expert", 3, playouts=4)]
    rec = play_game(setup, bots, check=True)
    assert rec.actions > 50 and max(rec.scores) > 0


def test_search_plays_the_toy_game_and_finds_its_winning_move(nim):
    """Nim through the interface alone (the default candidates: the first legal actions)."""
    setup = nim.spec.make_setup(("A", "B"), seed=3, heap=4)
    bots = [nim.search_bot("hard", 1, playouts=40), nim.search_bot("expert", 2, playouts=40)]
    rec = play_game(setup, bots, check=True)
    assert rec.actions >= 4
    # 3, 0, 0 stones: taking all three wins at once
    state = toygame.NimState(setup=setup, rng=1, heaps=(3, 0, 0), turn=0)
    best = SearchBot(nim, 5, playouts=12).analyse_detail(state)
    assert best[0].action.count == 3 and best[0].win_share == 1.0
    assert all(c.win_share < 1.0 for c in best[1:])


class GcTime:
    """This thread's processor time spent in the cyclic collector (``gc.callbacks``): a full
    collection of a test worker's heap, hundreds of tests' objects, takes tenths of a second
    wherever it falls, and that is not the bot's time (CI: 0.299 s for a 0.05 s decision, once)."""

    def __init__(self) -> None:
        self.total = 0.0
        self._start = 0.0
        self._thread = threading.get_ident()

    def __call__(self, phase: str, info: dict) -> None:
        if threading.get_ident() != self._thread:
            return
        if phase == "start":
            self._start = time.thread_time()
        else:
            self.total += time.thread_time() - self._start

    def __enter__(self) -> GcTime:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_answers_within_its_time_budget(level):
    # The processor time the bot's thread takes: it stays put when other work loads the machine
    # (a wall-clock bound failed CI with the machine busy: 0.196 s).  The bot stops on the clock,
    # so under load it uses less processor time, never more; the wall-clock bound only catches
    # a bot that never stops.  (Speeds are the benchmarks' to measure, not the tests'.)  One
    # decision first, untimed: a process's first search imports modules and fills the bots'
    # shared tables, which is no decision's time (CI: 0.217 s once, with the test run first).
    # This thread's time, not the process's: a test run before in the same worker may leave
    # threads working (CI: 0.195 s of process time for a 0.05 s decision, more than its wall).
    positions = searched(12, 5)
    SearchBot(RULES, 3, think=0.05, level=level).act(positions[0])
    for st in positions:
        bot = SearchBot(RULES, 3, think=0.05, level=level)
        with GcTime() as collector:
            t0, c0 = time.perf_counter(), time.thread_time()
            a = bot.act(st)
            took, wall = time.thread_time() - c0, time.perf_counter() - t0
        apply(st, a)  # raises if illegal
        assert took - collector.total < 0.05 * 1.5 + 0.1 and wall < 2.0, (took, collector.total, wall)


def test_a_hint_for_municipium_gives_options_with_playout_shares():
    muni = rules("municipium")
    state = muni.new_game(make_setup(3, 5, game="municipium"))
    bots = make_bots(["normal"] * 3, 5, game="municipium")
    while len(muni.legal_actions(state)) < 4:  # a decision with a few choices
        state, _ = muni.apply(state, bots[muni.to_act(state)].act(state))
    before = muni.encode(state)
    line = muni.hint(state, playouts=24)
    assert muni.encode(state) == before
    again = muni.hint(state, playouts=24)
    assert (line.hint, line.chat) == (again.hint, again.chat)  # reproducible on a node budget
    assert 2 <= len(line.hint) <= HINT_OPTIONS
    assert all(o.playouts > 0 and 0.0 <= o.win <= 1.0 and o.text for o in line.hint)
    muni.apply(state, line.hint[0].action)
    assert line.chat.startswith(f"Hint for {muni.names(state)[line.seat]}: ") and "decurions" in line.chat


def test_hard_makes_the_choices_colosseums_own_search_made():
    """The shared search on Colosseum's hooks is the hard bot it replaced: on a node budget, the
    same choice in every searched position of a seeded game (digest recorded from the old code)."""
    import hashlib

    import msgspec

    state = new_game(make_setup(4, 3))
    bots = make_bots(["greedy"] * 4, 3)
    out, k = [], 0
    while (seat := to_act(state)) >= 0:
        if len(legal(state)) > 1 and k % 11 == 0:
            out.append(msgspec.json.encode(RULES.search_bot("hard", k, None, playouts=12).act(state)))
        k += 1
        state, _ = apply(state, bots[seat].act(state))
    # re-recorded for D-69 (greedy's bids, which the game's other seats play): 29, 853ebc96f232c68d
    assert len(out) == 23
    assert hashlib.sha256(b"".join(out)).hexdigest()[:16] == "badafc6a9bf6ce38"


# ---------------------------------------------------------------------- budgets and determinism


def test_node_budget_is_respected(monkeypatch):
    calls = []
    real = search_mod.playout

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(search_mod, "playout", counting)
    for level in LEVELS:
        for st in searched(5, 4):
            calls.clear()
            bot = SearchBot(RULES, 2, playouts=9, level=level)
            bot.act(st)
            assert len(calls) <= 9
            assert bot.last_playouts == len(calls)


def test_same_seed_and_node_budget_same_choice():
    for st in searched(8, 4):
        for level in LEVELS:
            a = SearchBot(RULES, 4, playouts=12, level=level)
            b = SearchBot(RULES, 4, playouts=12, level=level)
            assert a.act(st) == b.act(st)
            assert a.analyse(st) == b.analyse(st)


def test_analysis_changes_neither_state_nor_bot():
    for st in searched(9, 4):
        before = encode_state(st)
        bot = hard(6, playouts=6)
        twin = hard(6, playouts=6)
        found = bot.analyse(st)
        assert encode_state(st) == before
        assert found and found[0][0] == bot.act(st) == twin.act(st)
        assert len({a for a, _ in found}) == len(found)


def test_search_failure_falls_back_to_the_policy(monkeypatch):
    def broken(*args, **kwargs):
        raise ValueError("boom")

    monkeypatch.setattr(search_mod, "run_iterations", broken)
    for st in searched(5, 3):
        assert hard(1, playouts=8).act(st) == GreedyBot(1).act(st)


def test_a_failing_policy_falls_back_to_the_rules_last_resort(monkeypatch):
    st = searched(5, 1)[0]
    bot = hard(1, playouts=8)

    class Broken:
        def act(self, state):
            raise ValueError("boom")

    monkeypatch.setattr(bot, "policy", Broken())
    assert bot.act(st) == RULES.fallback_action(st)


def test_an_illegal_policy_choice_falls_back_to_the_rules_last_resort(monkeypatch):
    st = searched(5, 1)[0]
    bot = hard(1, playouts=8)

    class Wrong:
        def act(self, state):
            return PlayoutGreedy(0).act(new_game(make_setup(3, 99)))  # another game's action

    monkeypatch.setattr(bot, "policy", Wrong())
    assert bot.act(st) == RULES.fallback_action(st)


def test_worker_processes_give_the_same_choice():
    st = searched(5, 3)[-1]
    one = hard(4, playouts=12)
    two = hard(4, playouts=12, workers=2)
    try:
        assert two.start_workers(wait=True) is not None
        assert one.analyse_detail(st) == two.analyse_detail(st)
    finally:
        two.close()


def test_hard_screening_plays_the_finalists_most():
    """Every candidate is screened; then only the policy's choice and the best other are played,
    and the choice is one of them."""
    checked = 0
    for st in searched(8, 6):
        detail = hard(5, playouts=40).analyse_detail(st)
        if len(detail) < 3:
            continue
        checked += 1
        counts = sorted((c.playouts for c in detail), reverse=True)
        assert counts[0] == counts[1] > counts[2] == LEVELS["hard"].screen
        assert detail[0].playouts == counts[0]
        assert sum(counts) <= 40
    assert checked


def test_expert_halves_towards_two_finalists_keeping_the_policys_choice():
    checked = 0
    for st in searched(8, 6, cap=8):
        detail = SearchBot(RULES, 5, playouts=80, level="expert").analyse_detail(st)
        if len(detail) < 4:
            continue
        checked += 1
        counts = sorted((c.playouts for c in detail), reverse=True)
        assert counts[0] == counts[1] > counts[2] and counts[-1] >= 1
        first = next(c for c in detail if c.first)
        assert first.playouts == counts[0]  # never dropped
        assert sum(counts) <= 80
    assert checked


# ---------------------------------------------------------------------- Colosseum's hooks


def test_colosseum_candidates_start_with_greedys_choice_and_widen_for_expert():
    for st in searched(3, 8):
        g = GreedyBot(0)
        first = g.act(st)
        narrow = candidates(st, first, 4, g)
        wide = candidates(st, first, 8, g)
        assert narrow[0] == first == wide[0]
        assert len(set(narrow)) == len(narrow) and len(set(wide)) == len(wide)
        assert len(wide) >= len(narrow)


def test_playout_bot_proposes_no_deal_and_is_greedy_otherwise():
    state = new_game(make_setup(4, 7))
    bots = make_bots(["greedy"] * 4, 7)
    seen_trade = 0
    while (seat := to_act(state)) >= 0:
        mine = PlayoutGreedy(1).act(state)
        t = state.trade
        if state.phase == "trade" and t is not None and t.deal is None:
            seen_trade += 1
            assert type(mine).__name__ == "EndTurn"
        else:
            assert mine == GreedyBot(1).act(state)
        state, _ = apply(state, bots[seat].act(state))
    assert seen_trade


def test_easy_plays_legally_and_beats_random():
    wins = 0
    for seed in range(1, 7):
        seat = seed % 3
        bots = [RULES.make_bot("random", seed * 31 + i) for i in range(3)]
        bots[seat] = EasyBot(seed)
        rec = play_game(make_setup(3, seed), bots, check=True)
        wins += rec.winner == seat
    assert wins >= 5
