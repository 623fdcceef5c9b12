"""Saved Municipium games: autosave through the one writer, ``colosseum games`` naming the game
beside Colosseum's, ``export``, ``resume`` (the same file goes on) and ``view``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from colosseum.core.games.colosseum import GameSetup
from colosseum.core.games.municipium import MuniSetup, apply, new_game
from colosseum.core.logread import read_log
from colosseum.tui import saved as saved_module
from colosseum.tui.app import start_recording as record
from colosseum.tui.cli import main as cli
from colosseum.tui.local import make_session
from colosseum.tui.session import LocalSession, Seat
from colosseum.tui.storage import finish_recording, start_recording


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("COLOSSEUM_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COLOSSEUM_FSYNC", "0")
    return tmp_path / "data"


def muni_game(names=("Ann", "小明", "Cy"), seed=3, steps=40, kinds=("human", "normal", "normal")) -> LocalSession:
    """A recorded game: the human seat plays random moves, the bots their own."""
    from colosseum.core.games.municipium.bots import make_bot

    s = make_session("municipium", names, kinds, seed=seed)
    record(s)
    me = make_bot("random", 99)
    for _ in range(steps):
        if s.state.phase == "over":
            break
        if not s.step_bot():
            s.submit(me.act(s.state))
    return s


def test_play_saves_a_municipium_log_that_names_its_game(data_dir):
    s = muni_game()
    path = s.recorder.path
    assert path.parent == data_dir / "games" and "-municipium-ann-" in path.name
    assert finish_recording(s) is None
    log = read_log(path)
    assert log.error is None and log.game == "municipium" and log.actions == s.actions
    assert json.loads(path.read_text().splitlines()[0])["game"] == "municipium"


def test_games_lists_both_games_aligned_by_cells(data_dir, capsys):
    m = muni_game()
    finish_recording(m)
    c = LocalSession(GameSetup(players=("Becky", "Kat", "Laura"), seed=1), tuple(Seat("random") for _ in range(3)))
    start_recording(c)
    for _ in range(20):
        c.step_bot()
    finish_recording(c)
    capsys.readouterr()
    assert cli(["games"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:3] == ["DATE", "GAME", "PLAYERS"]
    muni = next(ln for ln in lines if "Municipium" in ln)
    colo = next(ln for ln in lines[2:] if "Colosseum" in ln)
    assert "小明 (normal)" in muni and "unfinished" in muni
    # the RESULT column starts at the same terminal cell on every line (a CJK name is 2 cells)
    from rich.cells import cell_len

    at = cell_len(lines[1][: lines[1].index("RESULT")])
    assert cell_len(muni[: muni.index("unfinished")]) == at == cell_len(colo[: colo.index("unfinished")])


def test_export_text_and_json(data_dir, capsys):
    s = muni_game(kinds=("normal", "normal", "normal"), steps=10_000)
    assert s.state.phase == "over"
    path = s.recorder.path
    finish_recording(s)
    capsys.readouterr()
    assert cli(["export", str(path)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Municipium: game record")
    assert "== Initial placement ==" in text and "== Final ranking ==" in text
    assert cli(["export", str(path), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["header"]["game"] == "municipium"
    assert len(doc["positions"]) == len(s.actions) + 1


def test_resume_continues_the_same_file_and_replays_byte_exact(data_dir):
    s = muni_game(steps=30)
    path = s.recorder.path
    played = list(s.actions)
    finish_recording(s)
    before = path.read_bytes()
    prepared = saved_module.prepare_resume(None)  # the newest unfinished game: this one
    assert not isinstance(prepared, int)
    r, rpath = prepared
    assert isinstance(r, LocalSession) and rpath == path and r.actions == played
    while r.state.phase != "over":
        if not r.step_bot():
            from colosseum.core.games.municipium import legal

            r.submit(legal(r.state)[0])
    assert finish_recording(r) is None
    after = path.read_bytes()
    assert after.startswith(before)  # appended, never rewritten
    log = read_log(path)
    assert log.error is None and log.finished and log.ended and log.actions == r.actions
    st = new_game(MuniSetup(players=("Ann", "小明", "Cy"), seed=3))
    for a in r.actions:
        st, _ = apply(st, a)
    assert st == log.state == r.state
    assert cli(["resume", str(path)]) == 1  # the game is over


def test_a_municipium_game_forks_like_any_game(data_dir, capsys):
    s = muni_game(steps=10)
    path = s.recorder.path
    finish_recording(s)
    assert cli(["fork", str(path), "--at", "3", "--no-play"]) == 0
    fork = read_log(Path(capsys.readouterr().out.strip()))
    assert fork.game == "municipium" and fork.error is None
    assert fork.actions == s.actions[:3] and fork.header.fork_of == path.name and fork.header.fork_at == 3


def test_viewer_steps_through_the_game(data_dir):
    """The shell's viewer with Municipium's panels, driven by the keys every game's viewer has."""
    from colosseum.tui.games.municipium.panels import BoardPanel
    from colosseum.tui.review_app import ViewerApp

    s = muni_game(steps=40)
    path = s.recorder.path
    finish_recording(s)
    log = read_log(path)

    async def go():
        app = ViewerApp(log)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert screen.index == len(log.actions)
            await pilot.press("home")
            assert screen.index == 0, (app.focused, screen.active_bindings.get("home"))
            await pilot.press("right", "right")
            assert screen.index == 2
            assert screen.query_one(BoardPanel).state == log.timeline.state(2)
            await pilot.press("down")  # the next player's turn
            assert screen.index > 2
            await pilot.press("end")
            assert screen.index == len(log.actions)
            await pilot.press("q")

    asyncio.run(go())


def test_snapshot_viewer(snap_compare, tmp_path):
    """The viewer at 80x24, mid-game (the board, families and the log up to the position)."""
    from colosseum.core.gamelog import make_header
    from colosseum.core.games.municipium import MuniSetup, to_act
    from colosseum.core.games.municipium.bots import make_bot
    from colosseum.core.logwriter import LogWriter
    from colosseum.tui.review_app import ViewerApp

    setup = MuniSetup(players=("Ann", "Bo", "Cy"), seed=8)
    st, actions = new_game(setup), []
    bots = [make_bot("greedy", i) for i in range(3)]
    while len(actions) < 60:
        a = bots[to_act(st)].act(st)
        st, _ = apply(st, a)
        actions.append(a)
    w = LogWriter.create_at(tmp_path / "game.jsonl", make_header(setup, ("human", "normal", "normal")), actions)
    w.close()
    app = ViewerApp(read_log(w.path), start_index=45, theme="colosseum-dark")
    assert snap_compare(app, terminal_size=(80, 24))


def test_games_in_a_narrow_terminal_lists_a_block_a_game(data_dir, capsys, monkeypatch):
    """Issue 23: at 80 columns the table wrapped unreadably.  A terminal narrower than the table
    gets a block a game: the date and the game with its edition, the players, where it stands,
    the file name whole; every line but the file's within the width (cells, not characters)."""
    from rich.cells import cell_len

    from colosseum.tui import saved

    m = muni_game()
    finish_recording(m)
    capsys.readouterr()
    monkeypatch.setattr(saved, "_listing_width", lambda: 80)
    assert cli(["games"]) == 0
    lines = capsys.readouterr().out.splitlines()
    block = lines[lines.index("") + 1 :]
    assert "Municipium" in block[0] and "小明 (normal)" in block[1] and "unfinished" in block[2]
    assert block[3].strip().endswith(".jsonl")
    assert all(cell_len(line) <= 80 for line in block[:3])
