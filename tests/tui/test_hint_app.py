"""The hint key in a game: the hard bot's answer off the event loop, shown with why, recorded
in the log and for the viewer, never changing the game; Escape cancels; a table without hints
says so."""

from __future__ import annotations

import asyncio
import threading

from colosseum.core.games.colosseum import GameSetup, encode_state, to_act
from colosseum.core.logread import read_log
from colosseum.tui.app import ColosseumApp
from colosseum.tui.commands import ColosseumCommands
from colosseum.tui.screens import hint as hint_screen
from colosseum.tui.screens.hint import HINTS_OFF, HintScreen
from colosseum.tui.session import LocalSession, Seat
from colosseum.tui.storage import start_recording
from colosseum.tui.viewer import HINTED, ViewerScreen, session_hints
from colosseum.tui.widgets.keybar import KeyBar

SETUP = GameSetup(players=("Becky", "Kat", "Laura"), seed=4)
SEATS = (Seat("human"), Seat("greedy"), Seat("greedy"))


async def idle(pilot, app) -> None:
    for _ in range(200):
        await pilot.pause(0.02)
        if not app.session.bot_to_act():
            break
    await pilot.pause()


def bot_rngs(session: LocalSession) -> list:
    return [bot.rng.getstate() for _seat, bot in sorted(session._bots.items())]


def test_h_shows_the_hard_bots_choice_and_changes_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(hint_screen, "DEFAULT_THINK", 0.2)
    session = LocalSession(SETUP, SEATS)
    path = start_recording(session, tmp_path / "g.jsonl")
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(100, 32)) as pilot:
            await idle(pilot, app)
            game = app.game_screen()
            assert to_act(session.state) == 0
            titles = [name for name, _cb, _help in ColosseumCommands(game, None)._commands()]
            assert "Hint" in titles
            before, rngs = encode_state(session.state), bot_rngs(session)
            await pilot.press("h")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, HintScreen)
            for _ in range(200):  # the search runs in a thread: the app keeps drawing meanwhile
                await pilot.pause(0.02)
                if screen.result is not None:
                    break
            line = screen.result
            assert line is not None and line.seat == 0 and line.after == session.state.actions
            text = str(screen.query_one("#hint-text").render())
            assert "The hard bot's choice: " in text
            assert encode_state(session.state) == before and bot_rngs(session) == rngs
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is game
            assert session_hints(session) == [line]
            viewer = ViewerScreen.from_session(session)
            assert viewer.hints == [line]
            await app.push_screen(viewer)
            await pilot.pause()
            entries = viewer.query_one("HistoryPanel").entries
            assert any(seat == HINTED and "hint for Becky" in text for seat, text in entries)
            return line

    line = asyncio.run(go())
    log = read_log(path)
    assert log.error is None and log.hints == [line] and not log.chat
    assert ViewerScreen.from_log(log).hints == [line]  # the viewer of the saved game shows it too


def test_escape_cancels_the_search(monkeypatch):
    real = hint_screen.ask_hint
    gate = threading.Event()

    def held(rules, state, **kw):  # a search that is sure to be still running when Escape comes
        gate.wait(10)
        return real(rules, state, think=None, playouts=4)

    monkeypatch.setattr(hint_screen, "ask_hint", held)
    session = LocalSession(SETUP, SEATS)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(100, 32)) as pilot:
            await idle(pilot, app)
            game = app.game_screen()
            before = encode_state(session.state)
            await pilot.press("h")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, HintScreen)
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is game
            gate.set()  # the search goes on to its end; its answer is dropped
            for _ in range(300):
                await pilot.pause(0.02)
                if screen._future is not None and screen._future.done():
                    break
            await pilot.pause()
            assert screen._future is not None and screen._future.done()
            assert session_hints(session) == [] and screen.result is None
            assert encode_state(session.state) == before

    asyncio.run(go())


class TableSession(LocalSession):
    """A session standing for a table that does not allow hints."""

    def offers_hint(self) -> bool:
        return False


def test_hints_off_at_this_table():
    session = TableSession(SETUP, SEATS)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(100, 32)) as pilot:
            await idle(pilot, app)
            game = app.game_screen()
            await pilot.press("h")
            await pilot.pause()
            assert app.screen is game
            assert any(HINTS_OFF in str(n.message) for n in app._notifications)

    asyncio.run(go())


def test_h_from_an_open_decision_dialog_asks_for_that_decision(monkeypatch):
    """The hint is wanted while the decision's dialog is open: `h` there opens it too."""
    from colosseum.tui.games.colosseum.dialogs.base import DecisionDialog

    monkeypatch.setattr(hint_screen, "DEFAULT_THINK", 0.1)
    session = LocalSession(SETUP, SEATS)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=True)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await idle(pilot, app)
            for _ in range(50):
                await pilot.pause(0.02)
                if isinstance(app.screen, DecisionDialog):
                    break
            dialog = app.screen
            assert isinstance(dialog, DecisionDialog)
            before = encode_state(session.state)
            dialog_keys = dialog.query_one(KeyBar).items() if dialog.query(KeyBar) else []
            await pilot.press("h")
            await pilot.pause()
            assert isinstance(app.screen, HintScreen)
            # the bottom line is the hint's keys, drawn over the dialog's (which do nothing here)
            shown = app.screen.query_one(KeyBar).items()
            assert ("esc", "close") in shown
            assert not any(desc == "select" for _k, desc in shown), shown
            assert shown != dialog_keys
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is dialog and encode_state(session.state) == before

    asyncio.run(go())


def test_the_hints_explanation_names_each_games_own_chance():
    """Municipium has no dice: the hint says what its luck is (the bag and the cards)."""
    from colosseum.core.gamelog import HintLine, HintOption
    from colosseum.core.registry import rules

    said = {}
    for game in ("colosseum", "municipium"):
        r = rules(game)
        names = ("小明", "[/a]", "Becky")
        state = r.new_game(r.spec.make_setup(names, seed=3, options=()))
        opts = tuple(HintOption(action=None, text=t, win=0.5, playouts=12) for t in ("this", "that"))
        said[game] = hint_screen.hint_text(r, state, HintLine(chat="", seat=1, hint=opts)).plain
    assert "dice" in said["colosseum"] and "bag" in said["colosseum"]
    assert "dice" not in said["municipium"]
    assert "citizens drawn from the bag and the cards turned over" in said["municipium"]
    assert "For [/a]." in said["municipium"]  # a name is text, never markup


def test_a_hint_from_too_few_playouts_says_they_cannot_tell_the_choices_apart():
    """Municipium's first moves: a playout is a whole game (about 50 ms), so a second of thought
    plays each choice about twice; a choice shown at 50% above one at 100% must say why that is
    no ranking."""
    from colosseum.core.gamelog import HintLine, HintOption
    from colosseum.core.registry import rules

    r = rules("municipium")
    state = r.new_game(r.spec.make_setup(("小明", "[/a]", "Becky"), seed=3, options=()))
    few = (
        HintOption(action=None, text="Forum", win=0.5, playouts=2),
        HintOption(action=None, text="Baths", win=1.0, playouts=2),
    )
    said = hint_screen.hint_text(r, state, HintLine(chat="", seat=1, hint=few)).plain
    assert "Only 2 playouts each fitted in the time: too few to tell these apart" in said
    many = tuple(HintOption(action=None, text=t, win=0.5, playouts=12) for t in ("Forum", "Baths"))
    assert "too few" not in hint_screen.hint_text(r, state, HintLine(chat="", seat=1, hint=many)).plain


def test_m_thinks_longer_and_the_new_answer_replaces_the_first(monkeypatch):
    """``h`` again searches again with three times the budget (more playouts a choice: shares that can
    be told apart); the first answer stays on the screen until the new one comes, and the key
    says what it will do."""
    from app_positions import human_session, play_until

    auction = lambda st: st.phase == "hire" and st.hire is not None and st.hire.auction is None  # noqa: E731
    session = human_session(play_until(auction, n=3, seed=4), n=3, seed=4, humans=3)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def until_answer(pilot, screen, n):
        for _ in range(500):
            await pilot.pause(0.02)
            if screen._asked == n and screen._future is not None and screen._future.done():
                break
        await pilot.pause()

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            screen = HintScreen(session, session.state, playouts=8)
            await app.push_screen(screen)
            await until_answer(pilot, screen, 1)
            first = screen.result
            assert first is not None and first.hint
            keys = str(screen.query_one("#hint-keys").render())
            assert "h think longer (24 playouts a choice)" in keys, keys
            await pilot.press("h")
            await pilot.pause()
            assert screen.playouts == 24
            await until_answer(pilot, screen, 2)
            second = screen.result
            assert second is not None and second is not first
            assert max(o.playouts for o in second.hint) > max(o.playouts for o in first.hint)
            assert session_hints(session)[-1] == second
            await pilot.press("escape")
            await pilot.pause()
            assert screen.result is second

    asyncio.run(go())


def test_the_longest_search_offers_no_longer_one():
    screen = HintScreen(LocalSession(SETUP, SEATS), LocalSession(SETUP, SEATS).state, think=hint_screen.MAX_THINK)
    assert screen._longer_budget() is None and screen._keys_text() == "esc or enter close"
    screen = HintScreen(LocalSession(SETUP, SEATS), LocalSession(SETUP, SEATS).state, think=1.0)
    assert screen._longer_budget() == (3.0, None) and "h think longer (3 s)" in screen._keys_text()


def test_a_servers_session_thinks_at_most_3_s():
    """A table's hint thinks in the asker's client process on the server: at most 3 s there."""
    from colosseum.tui.net.remote import RemoteSession

    assert RemoteSession.hint_max_think == 3.0
    session = LocalSession(SETUP, SEATS)
    session.hint_max_think = RemoteSession.hint_max_think
    screen = HintScreen(session, session.state, think=1.0)
    assert screen._longer_budget() == (3.0, None)
    screen.think = 3.0
    assert screen._longer_budget() is None and screen._keys_text() == "esc or enter close"
