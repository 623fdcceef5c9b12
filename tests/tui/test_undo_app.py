"""Taking back and "play from here" through the app: the `u` key, the key bar, the palette,
the viewer's `f` and the per-seat dialog."""

from __future__ import annotations

import asyncio

from colosseum.core.games.colosseum import GameSetup, encode_state, legal
from colosseum.core.games.colosseum.actions import OpenAuction
from colosseum.core.logread import read_log
from colosseum.tui.app import ColosseumApp
from colosseum.tui.commands import ColosseumCommands
from colosseum.tui.session import LocalSession, Seat
from colosseum.tui.storage import start_recording
from colosseum.tui.viewer import ViewerScreen

SETUP = GameSetup(players=("Becky", "Kat", "Laura"), seed=4)
SEATS = (Seat("human"), Seat("greedy"), Seat("greedy"))


def bots(s: LocalSession) -> None:
    while s.bot_to_act():
        s.step_bot()


def market_choice() -> tuple[list, OpenAuction]:
    """Actions up to a point where Becky opens an auction that she can still take back
    (the others answered, the market was not refilled yet)."""
    s = LocalSession(SETUP, SEATS)
    while True:
        bots(s)
        assert s.state.phase != "over"
        ch = legal(s.state)
        opens = [b.action(0, b.low) for b in ch.bids if b.market >= 0]
        for a in opens:
            trial = LocalSession(SETUP, SEATS, actions=list(s.actions))
            trial.submit(a)
            bots(trial)
            if trial.undo_reach().steps:
                return list(s.actions), a  # type: ignore[return-value]
        s.submit(opens[0] if opens else ch.actions[-1])


async def idle(pilot, app) -> None:
    for _ in range(200):
        await pilot.pause(0.02)
        if not app.session.bot_to_act():
            break
    await pilot.pause()


def test_u_takes_back_a_market_choice(tmp_path):
    prefix, choice = market_choice()
    session = LocalSession(SETUP, SEATS, actions=prefix)
    path = start_recording(session, tmp_path / "g.jsonl")
    before = encode_state(session.state)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await idle(pilot, app)
            game = app.game_screen()
            assert game is not None
            steps = session.undo_reach().steps
            assert game._undo_label().startswith(f"Undo {steps}")
            assert game.submit(choice)
            await idle(pilot, app)
            assert game._undo_label() == f"Undo {steps + 1}"
            bar = [desc for _keys, desc in game.query_one("KeyBar").items()]
            assert game._undo_label() in bar
            titles = [name for name, _cb, _help in ColosseumCommands(game, None)._commands()]
            assert "Take back (undo)" in titles
            await pilot.press("u")
            await pilot.pause()
            assert encode_state(session.state) == before
            assert session.events[-1].kind == "undo" and "took back" in session.events[-1].text
            assert game._undo_label().startswith(f"Undo {steps}")

    asyncio.run(go())
    log = read_log(path)
    assert log.error is None and len(log.undos) == 1 and encode_state(log.state) == before


def test_u_with_nothing_to_take_back_says_why():
    session = LocalSession(SETUP, SEATS)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await idle(pilot, app)
            game = app.game_screen()
            before = encode_state(session.state)
            label = game._undo_label()
            assert label in ("Undo 0", f"Undo 0 ({session.undo_reach().short})") and session.undo_reach().steps == 0
            await pilot.press("u")
            await pilot.pause()
            assert encode_state(session.state) == before
            assert any(session.undo_reach().reason in str(n.message) for n in app._notifications)

    asyncio.run(go())


def test_u_reaches_the_game_from_an_open_dialog():
    prefix, choice = market_choice()
    session = LocalSession(SETUP, SEATS, actions=prefix)
    before = encode_state(session.state)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=True)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await idle(pilot, app)
            game = app.game_screen()
            assert game.submit(choice)
            await idle(pilot, app)
            for _ in range(20):  # the dialog of Becky's next decision opens by itself
                await pilot.pause(0.02)
                if app.screen is not game:
                    break
            assert app.screen is not game and game.serves(app.screen)
            # the dialog's own key bar offers the take-back, with its count
            steps = session.undo_reach().steps
            shown = [
                b.description
                for _key, (_node, b, enabled, _tip) in app.screen.active_bindings.items()
                if b.action == "undo" and b.show and enabled
            ]
            assert shown == [f"undo {steps}"] and steps > 0
            await pilot.press("u")
            await pilot.pause()
            assert encode_state(session.state) == before

    asyncio.run(go())


def test_undo_rewinds_the_last_move_marks_and_the_summary():
    prefix, choice = market_choice()

    def played(actions) -> LocalSession:  # every move watched (none replayed at start-up)
        s = LocalSession(SETUP, SEATS)
        for a in actions:
            s.submit(a)
        return s

    session, ref = played(prefix), played(prefix)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await idle(pilot, app)
            game = app.game_screen()
            assert game.submit(choice)
            await idle(pilot, app)
            assert len(session.follow.steps) > len(ref.follow.steps)
            await pilot.press("u")
            await idle(pilot, app)
            assert encode_state(session.state) == encode_state(ref.state)
            assert session.follow.marks() == ref.follow.marks()
            assert session.follow.since(0) == ref.follow.since(0)
            assert session.follow.state is session.state
            assert len(session.follow.steps) == len(ref.follow.steps)
            for name in ("BoardPanel", "PlayersPanel", "HandPanel"):
                assert game.query_one(name).marks == ref.follow.marks(), name
            # the dialog opened again shows what happened before the withdrawn move
            await pilot.press("a")
            await pilot.pause()
            since = str(app.screen.query_one("#since").render())
            assert since.startswith("Since your last turn")
            assert ref.follow.since(0)[-1][:20] in since.replace("\n", " ")

    asyncio.run(go())


def test_play_from_here_starts_a_fork(tmp_path, monkeypatch):
    monkeypatch.setenv("COLOSSEUM_FSYNC", "0")
    s = LocalSession(SETUP, (Seat("greedy"),) * 3)
    parent = start_recording(s, tmp_path / "parent.jsonl")
    bots(s)
    log = read_log(parent)
    at = next(i for i in range(len(log.timeline)) if log.timeline.state(i).round == 3)
    app = ColosseumApp(None, bot_delay=30, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            app.push_screen(ViewerScreen.from_log(log, at))
            await pilot.pause()
            await pilot.press("f")
            await pilot.pause()
            assert type(app.screen).__name__ == "PlayFromScreen"
            app.screen.query_one("#pf-kind-0").value = "human"
            await pilot.press("ctrl+s")
            for _ in range(50):
                await pilot.pause(0.02)
                if app.game_screen() is not None:
                    break
            game = app.game_screen()
            assert game is not None
            fork = game.session
            assert fork.seats[0].kind == "human" and fork.actions[:at] == log.actions[:at]
            path = fork.recorder.path
            fork.recorder.close()
            return path

    path = asyncio.run(go())
    child = read_log(path)
    assert child.header.fork_of == "parent.jsonl" and child.header.fork_at == at
    assert child.seats == ("human", "normal", "normal")  # greedy is offered by its level name


def test_since_your_last_turn_leaves_a_dialog_once_its_seat_acts():
    """The summary of the others' moves heads a dialog until its seat acts; a dialog that stays
    open for the seat's next decision (an auction going on) does not keep showing old news."""
    from colosseum.tui.games.colosseum.dialogs.base import DecisionDialog
    from colosseum.tui.plain import Static

    prefix, choice = market_choice()
    session = LocalSession(SETUP, SEATS)
    for a in prefix:  # watched, so the summary has the others' turns
        session.submit(a)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=True)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await idle(pilot, app)
            for _ in range(20):
                await pilot.pause(0.02)
                if isinstance(app.screen, DecisionDialog):
                    break
            dialog = app.screen
            assert isinstance(dialog, DecisionDialog)
            since = dialog.query_one("#since", Static)
            assert "Since your last turn" in str(since.render())
            assert dialog.submit(choice)
            await idle(pilot, app)
            assert app.screen is dialog  # (in this position the auction dialog stays open)
            assert str(dialog.query_one("#since", Static).render()).strip() == ""

    asyncio.run(go())
