"""Rematch on the end screen (``m``): the same seats, names, bot levels and options, a new seed,
and the first player rotated through the game's ``seat`` option (Colosseum's first player);
Municipium, which has none, is only reseeded.  The new game starts in the same app."""

from __future__ import annotations

import asyncio

import pytest

from colosseum.core.registry import rules
from colosseum.tui.app import ColosseumApp
from colosseum.tui.local import make_session, rematch
from colosseum.tui.session import LocalSession, Seat

NAMES = ("[/a]", "小明", "Aurelia Maximiliana Cornelia", "Kat")


def finished(game: str, kinds: tuple[str, ...], seed: int, **options) -> LocalSession:
    r = rules(game)
    setup = r.spec.make_setup(NAMES[: len(kinds)], seed=seed, **options)
    state, actions = r.new_game(setup), []
    bots = [r.make_bot("normal", seed + i) for i in range(len(kinds))]
    while not r.is_over(state):
        action = bots[r.to_act(state)].act(state)
        state, _ = r.apply(state, action)
        actions.append(action)
    return LocalSession(setup, tuple(Seat(k) for k in kinds), actions=actions)


def test_the_rematch_rotates_the_first_player_or_only_reseeds():
    drawn = make_session("colosseum", NAMES[:3], ("human", "easy", "hard"), seed=5, options={"variant": "classic"})
    first = drawn.rules.first_seat(drawn.state)
    again = rematch(drawn, seed=99)
    assert again.game == "colosseum" and again.names == NAMES[:3] and again.kinds == ("human", "easy", "hard")
    assert again.seed == 99 and again.options == {"variant": "classic", "first_player": (first + 1) % 3}
    chosen = make_session("colosseum", NAMES, ("human",) * 4, seed=5, options={"first_player": 3})
    assert rematch(chosen).options == {"first_player": 0}  # after the last seat, the first
    nxt = make_session(*rematch(chosen, seed=7)[:3], seed=7, options=rematch(chosen).options)
    assert nxt.rules.first_seat(nxt.state) == 0
    muni = make_session("municipium", NAMES[:3], ("human", "normal", "hard"), seed=5, options={"options": ("short",)})
    again = rematch(muni, seed=6)
    assert again == ("municipium", NAMES[:3], ("human", "normal", "hard"), 6, {"options": ("short",)})


async def _rematch_in_app(session: LocalSession):
    app = ColosseumApp(session, bot_delay=0, theme="colosseum-dark", auto_dialogs=False)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(50):
            if type(app.screen).__name__ == "EndScreen":
                break
            await pilot.pause(0.05)
        await pilot.pause()
        assert "m Rematch" in "  ".join(f"{k} {d}" for k, d in app.screen.query_one("KeyBar").items())
        await pilot.press("m")
        await pilot.pause()
        assert type(app.screen).__name__ == "GameScreen"
        new = app.session
        assert new is not session and app.screen.session is new
        assert len(app.screen_stack) == 2  # (the first game's screen below, dormant)
        return new


@pytest.mark.parametrize(
    ("game", "kinds", "options"),
    [
        ("colosseum", ("human", "easy", "hard", "normal"), {"variant": "grand"}),
        ("colosseum", ("human", "normal", "random"), {"variant": "original", "first_player": 1}),
        ("municipium", ("human", "normal", "easy"), {"options": ("short",)}),
    ],
    ids=["grand", "original-chosen", "municipium"],
)
def test_rematch_from_the_end_screen_starts_the_same_table_again(game, kinds, options):
    old = finished(game, kinds, 21, **options)
    new = asyncio.run(_rematch_in_app(old))
    assert new.spec.name == game
    assert tuple(new.setup.players) == tuple(old.setup.players)
    assert tuple(s.kind for s in new.seats) == kinds
    assert new.setup.seed != old.setup.seed  # drawn from a million
    assert not new.rules.is_over(new.state)
    if game == "colosseum":
        before = old.rules.first_seat(old.rules.new_game(old.setup))
        assert new.setup.first_player == (before + 1) % len(kinds)
        assert new.rules.first_seat(new.rules.new_game(new.setup)) == new.setup.first_player
        assert new.setup.variant == old.setup.variant
    else:
        assert new.setup.options == old.setup.options


def test_a_saved_game_rematch_is_saved_and_the_old_log_let_go():
    from colosseum.tui.storage import games_dir, record_game

    old = finished("colosseum", ("human", "normal", "normal"), 22)
    recorder = record_game(old)
    new = asyncio.run(_rematch_in_app(old))
    assert recorder.closed
    assert new.recorder is not None and new.recorder.path is not None
    assert sorted(p.name for p in games_dir().iterdir()) == sorted([recorder.path.name, new.recorder.path.name])
