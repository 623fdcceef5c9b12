"""Where the points came from (issue 28): each game's score sheet, whose parts add up to every
player's final score, over many seeded games of every ruleset and of Municipium."""

from __future__ import annotations

import pytest

from colosseum.core.registry import rules

CASES = [
    ("colosseum", {"variant": "grand"}),
    ("colosseum", {"variant": "classic"}),
    ("colosseum", {"variant": "classic", "options": ("auction-2007",)}),
    ("colosseum", {"variant": "original"}),
    ("municipium", {}),
    ("municipium", {"options": ("short",)}),
]


def _game(name, options, n, seed, level):
    game = rules(name)
    setup = game.spec.make_setup(game.spec.default_names[:n], seed=seed, **options)
    state = game.new_game(setup)
    bots = [game.make_bot(level, seed * 10 + i) for i in range(n)]
    states, actions, events = [state], [], [[]]
    while not game.is_over(state):
        action = bots[game.to_act(state)].act(state)
        state, ev = game.apply(state, action)
        states.append(state)
        actions.append(action)
        events.append(ev)
    return game, states, actions, events


@pytest.mark.parametrize(("name", "options"), CASES)
def test_the_parts_add_up_to_each_final_score(name, options):
    game = rules(name)
    for k in range(6):
        n = game.spec.min_players + k % (game.spec.max_players - game.spec.min_players + 1)
        game, states, actions, events = _game(name, options, n, 40 + k, "normal" if k % 2 else "random")
        sheet = game.score_sheet(states, actions, events)
        assert sheet is not None and sheet.totals == game.scores(states[-1])
        for seat in range(n):
            parts = sum(line.values[seat] for line in sheet.lines if line.adds)
            assert parts == sheet.totals[seat], (seat, [(ln.label, ln.values[seat]) for ln in sheet.lines])
        assert all(len(line.values) == n for line in sheet.lines)


@pytest.mark.parametrize(("name", "options"), [CASES[0], CASES[3], CASES[4]])
def test_the_series_ends_at_the_final_score_and_never_falls(name, options):
    game, states, actions, events = _game(name, options, 4, 9, "normal")
    sheet = game.score_sheet(states, actions, events)
    for seat, points in enumerate(sheet.series):
        assert points and points[-1] == sheet.totals[seat]
        assert all(a <= b for a, b in zip(points, points[1:], strict=False))
    if name == "colosseum":
        performed = [i for i in sheet.items]
        assert performed and all(0 <= seat < 4 and label and value > 0 for seat, label, value in performed)
