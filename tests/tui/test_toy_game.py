"""The toy game (Nim, ``tests/toygame.py``: no client part, registered only here) played through
the shell alone: a new game from the command line's arguments and from the new-game screen,
played by keys with the plain client (a text panel of the state, the plain chooser over the
rules' legal actions), saved, resumed (``colosseum resume``), viewed (``colosseum view``),
exported (text and JSON), forked, simulated (``colosseum simulate --game nim``), and every key of
the shell answered.  Nothing of it names Nim outside this test: the proof that the shell is
game-agnostic."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import toygame
from pilot_wait import wait_for
from textual.widgets import Input

from colosseum.core.logread import read_log
from colosseum.core.registry import unregister
from colosseum.tui.app import ColosseumApp, build_app
from colosseum.tui.cli import main as cli
from colosseum.tui.cli import parse_args
from colosseum.tui.dialogs.choose import ActionChooser
from colosseum.tui.screens.game import GameScreen
from colosseum.tui.screens.plaingame import PlainBody, StatePanel
from colosseum.tui.session import LocalSession, Seat
from colosseum.tui.storage import finish_recording, start_recording
from colosseum.tui.widgets.forms import Cycle

TESTS = Path(__file__).resolve().parents[1]
SIZE = (80, 24)


@pytest.fixture(autouse=True)
def nim():
    toygame.register()
    yield toygame
    unregister("nim")


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("COLOSSEUM_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COLOSSEUM_FSYNC", "0")
    return tmp_path / "data"


def nim_session(kinds=("human", "normal"), heap: int = 4, seed: int = 3, actions=()) -> LocalSession:
    setup = toygame.SPEC.make_setup(("Becky", "Kat", "Laura", "Marcus")[: len(kinds)], seed=seed, heap=heap)
    return LocalSession(setup, tuple(Seat(k) for k in kinds), actions=list(actions))


async def play_by_keys(pilot, app: ColosseumApp) -> int:
    """Answer each chooser with Enter (the first action open) until the game is over; the
    number of answers."""
    rules = app.session.rules
    answers = 0
    for _ in range(200):
        if rules.is_over(app.session.state):
            return answers
        if isinstance(app.screen, ActionChooser):
            await pilot.press("enter")
            answers += 1
        await pilot.pause(0.02)
    raise AssertionError("the game did not end")


# ------------------------------------------------------------------------------ new games


def test_a_new_game_from_the_command_line_is_played_by_keys_to_its_end(data_dir):
    args = parse_args(
        ["play", "--game", "nim", "--players", "3", "--humans", "2", "--bots", "normal"]
        + ["--names", "[/a],小明,Aurelia Maximiliana Cornelia", "--heap", "3", "--seed", "5"]
        + ["--bot-delay", "0"]
    )
    assert args.setup_options == {"heap": 3}
    app = build_app(args)
    assert isinstance(app, ColosseumApp)

    async def go():
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, ActionChooser), "the chooser")
            await pilot.pause()
            game = app.game_screen()
            assert isinstance(game, GameScreen) and isinstance(game.body, PlainBody)
            text = str(app.screen.query_one("#choose-list").get_option_at_index(0).prompt)
            assert "takes" in text and "heap" in text  # the rules' own words for an action
            answers = await play_by_keys(pilot, app)
            await wait_for(pilot, lambda: type(app.screen).__name__ == "EndScreen", "the end screen")
            shown = str(app.screen.query_one("#end-text").render())
            assert "wins" in shown
            return answers

    answers = asyncio.run(go())
    session = app.session
    assert session.rules.is_over(session.state) and answers >= 1
    path = session.recorder.path
    finish_recording(session)
    log = read_log(path)
    assert log.game == "nim" and log.finished and log.actions == session.actions
    assert "-nim-" in path.name and log.setup.heap == 3


def test_a_new_game_from_the_new_game_screen(data_dir):
    app = ColosseumApp(None, bot_delay=0, auto_dialogs=True, record=True)

    async def go():
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            scr = app.screen
            game = scr.query_one("#ng-game", Cycle)
            assert "nim" in [v for _t, v in game.options]  # registered games are offered
            game.focus()
            while game.value != "nim":
                await pilot.press("right")
            await pilot.pause()
            assert scr.query_one("#ng-body").border_title == "Nim"
            assert [v for _t, v in scr.query_one("#ng-players", Cycle).options] == [2, 3, 4]
            heap = scr.query_one("#ng-opt-heap", Input)  # its one option, from its option spec
            heap.value = "13"  # out of range: refused with the option's words
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert any("Heap size" in str(n.message) for n in app._notifications)
            assert type(app.screen).__name__ == "NewGameScreen"
            heap.value = "2"
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: app.game_screen() is not None, "the game")
            assert app.session.setup.heap == 2
            await play_by_keys(pilot, app)
            return app.session

    session = asyncio.run(go())
    assert session.rules.is_over(session.state)
    finish_recording(session)
    from colosseum.tui.settings import load_settings

    remembered = load_settings().new_game  # the new-game screen opens with these next time
    assert remembered["game"] == "nim" and remembered["options"] == {"heap": 2}


# ------------------------------------------------------------------------------ the shell's keys


def test_every_key_of_the_shell_answers_in_the_toy_game():
    """u takes back, h hints (the rules' hint), g and . pace the bots, v reviews (and f there
    plays on), i detail, 1-2 any player's board, l the log, r the rules, F1 help."""
    session = nim_session(("human", "normal"), heap=5, seed=2)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=SIZE) as pilot:
            game = app.game_screen()
            await wait_for(pilot, lambda: session.waiting_for() == 0, "the person's turn")
            await pilot.pause()
            panel = game.query_one(StatePanel)
            await pilot.press("a")  # the chooser
            await wait_for(pilot, lambda: isinstance(app.screen, ActionChooser), "the chooser")
            await pilot.press("enter")
            await wait_for(pilot, lambda: session.waiting_for() == 0 and app.screen is game, "the bot's move")
            played = len(session.actions)
            assert played >= 2
            await pilot.press("u")  # take back: the person's decision and the bot's answer
            await pilot.pause()
            assert len(session.actions) < played and session.waiting_for() == 0
            await pilot.press("h")
            await wait_for(pilot, lambda: type(app.screen).__name__ == "HintScreen", "the hint")
            await wait_for(pilot, lambda: app.screen.result is not None, "the hint's answer")
            assert "normal bot's choice" in str(app.screen.query_one("#hint-text").render())
            await pilot.press("escape")
            for key, seat in (("2", 1), ("1", 0)):
                await pilot.press(key)
                await pilot.pause()
                assert game.viewed == seat and panel.seat == seat
            await pilot.press("f")
            assert game.viewed is None
            await pilot.press("i")
            await pilot.pause()
            assert panel.detail and any("Open to them" in line.plain for line in panel.build_lines())
            await pilot.press("l")
            assert app.focused is game.query_one("#log")
            for key, name in (("r", "RulesScreen"), ("f1", "HelpScreen"), ("v", "ViewerScreen")):
                app.set_focus(None)
                await pilot.press(key)
                await pilot.pause()
                assert type(app.screen).__name__ == name, key
                await pilot.press("escape")
                await pilot.pause()
            assert game.check_action("rush", ()) and game.check_action("step", ())
            await pilot.press("full_stop")  # the bots move one at a time from now on
            assert session.stepping
            await pilot.press("g")  # ... or play on
            assert not session.stepping
            await pilot.press("v")
            await pilot.pause()
            await pilot.press("home", "f")  # play on from the start: who plays each seat
            await pilot.pause()
            assert type(app.screen).__name__ == "PlayFromScreen"

    asyncio.run(go())


# ------------------------------------------------------------------------------ saved games


def played_log(data_dir: Path, moves: int = 3) -> Path:
    session = nim_session(("human", "normal"), heap=5, seed=4)
    start_recording(session)
    bot = session.rules.make_bot("random", 7)
    while len(session.actions) < moves and not session.rules.is_over(session.state):
        if not session.step_bot():
            session.submit(bot.act(session.state))
    path = session.recorder.path
    finish_recording(session)
    return path


def test_games_list_export_text_and_json(data_dir, capsys):
    path = played_log(data_dir)
    assert cli(["games"]) == 0
    listed = capsys.readouterr().out
    assert "Nim" in listed and path.name in listed and "stones left" in listed
    assert cli(["export", str(path)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Nim: game record") and "Options:  none" in text and "takes" in text
    assert cli(["export", str(path), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["header"]["game"] == "nim" and len(doc["positions"]) == 4


def test_resume_plays_on_in_the_same_file(data_dir, monkeypatch):
    path = played_log(data_dir)
    before = path.read_bytes()
    ran = []

    def run_session(session, *, bot_delay=0.6, theme=None, exit_at_end=False):
        """``colosseum resume``'s app, headless: played by keys to the end."""
        app = ColosseumApp(session, bot_delay=0, auto_dialogs=True)

        async def go():
            async with app.run_test(size=SIZE) as pilot:
                await play_by_keys(pilot, app)

        asyncio.run(go())
        ran.append(session)
        return 0

    monkeypatch.setattr("colosseum.tui.app.run_session", run_session)
    assert cli(["resume", str(path)]) == 0
    (session,) = ran
    log = read_log(path)
    assert path.read_bytes().startswith(before) and log.finished and log.actions == session.actions


def test_view_steps_through_with_the_shells_keys(data_dir, monkeypatch):
    from colosseum.tui.review_app import ViewerApp

    path = played_log(data_dir, moves=4)
    seen = []

    def view_log(log, *, theme=None):
        app = ViewerApp(log)

        async def go():
            async with app.run_test(size=SIZE) as pilot:
                await pilot.pause()
                screen = app.screen
                await pilot.press("home", "right")
                seen.append(screen.index)
                assert isinstance(screen.body, PlainBody)
                await pilot.press("2")
                assert screen.query_one(StatePanel).seat == 1
                await pilot.press("end", "q")

        asyncio.run(go())
        return 0, None

    monkeypatch.setattr("colosseum.tui.review_app.view_log", view_log)
    assert cli(["view", str(path)]) == 0
    assert seen == [1]


def test_fork_from_the_command_line(data_dir, capsys):
    path = played_log(data_dir, moves=3)
    assert cli(["fork", str(path), "--at", "2", "--humans", "1", "--bots", "random", "--no-play"]) == 0
    fork = read_log(Path(capsys.readouterr().out.strip()))
    parent = read_log(path)
    assert fork.game == "nim" and fork.actions == parent.actions[:2]
    assert fork.header.fork_of == path.name and fork.seats == ("human", "random")
    assert cli(["fork", str(path), "--at", "2", "--bots", "nobody", "--no-play"]) == 2


def test_play_from_here_in_the_app(data_dir):
    path = played_log(data_dir, moves=3)
    log = read_log(path)
    app = ColosseumApp(None, bot_delay=0, record=True)

    async def go():
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.play_fork(log, 1, ("human", "normal"))
            await pilot.pause()
            assert app.game_screen() is not None and app.session.actions[:1] == log.actions[:1]

    asyncio.run(go())
    path = app.session.recorder.path
    finish_recording(app.session)
    assert read_log(path).header.fork_at == 1


# ------------------------------------------------------------------------------ simulate and the flags


def test_simulate_in_process(capsys):
    assert (
        cli(
            ["simulate", "--game", "nim", "--players", "3", "--games", "4", "--heap", "6"]
            + ["--bots", "normal,random", "--check", "--json"]
        )
        == 0
    )
    lines = [json.loads(x) for x in capsys.readouterr().out.strip().splitlines()]
    assert len(lines) == 5  # one per game, then the totals


def test_bad_values_are_refused_with_one_line(capsys):
    assert cli(["play", "--game", "nim", "--heap", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Heap size" in err and "1 to 12" in err
    assert cli(["play", "--game", "nim", "--players", "5"]) == 2
    assert "2 to 4 players" in capsys.readouterr().err
    assert cli(["play", "--game", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["COLOSSEUM_GAMES"] = "nim=toygame:SPEC"
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(TESTS), env.get("PYTHONPATH", "")) if p)
    return env


def test_simulate_and_help_in_a_process_of_their_own():
    """A process finds the toy game through COLOSSEUM_GAMES, as a developer's would."""
    run = [sys.executable, "-m", "colosseum"]
    out = subprocess.run(
        [*run, "simulate", "--game", "nim", "--games", "3", "--check"],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("seed") == 3
    shown = subprocess.run(
        [*run, "play", "--game", "nim", "--help"], env=_env(), capture_output=True, text=True, timeout=120
    )
    assert shown.returncode == 0 and "--heap" in shown.stdout and "--variant" not in shown.stdout
