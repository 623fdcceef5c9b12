"""Saving that cannot fail silently (colosseum.tui.storage's Recorder, the game screen's banner,
quitting with unsaved moves), resume under races and after rescues, clean errors from the
commands on saved games (unsearchable folders, FIFOs, devices), and the power-cut kill test."""

from __future__ import annotations

import asyncio
import errno
import os
import random
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest
from scripts_module import script

from colosseum.core.games.colosseum import GameSetup
from colosseum.core.logread import read_log
from colosseum.core.logwriter import LogWriter
from colosseum.tui import saved as saved_module
from colosseum.tui import storage
from colosseum.tui.cli import main as cli
from colosseum.tui.session import LocalSession, Seat
from colosseum.tui.storage import Recorder, finish_recording, record_game, start_recording

NAMES = ("Becky", "Kat", "Laura")


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("COLOSSEUM_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def session(seed=1, seats=("random", "random", "random")) -> LocalSession:
    return LocalSession(GameSetup(players=NAMES, seed=seed), tuple(Seat(k) for k in seats))


def play(s: LocalSession, n: int = 10_000) -> None:
    while n and s.step_bot():
        n -= 1


class Disk:
    """An injected disk fault: while ``full``, every ``os.write`` fails with ENOSPC (after
    writing a few bytes of a long line, as a disk filling up does)."""

    def __init__(self, monkeypatch) -> None:
        self.full = False
        self.real = real = os.write

        def write(fd: int, data) -> int:
            if self.full:
                if len(data) > 8:
                    real(fd, bytes(data[:8]))
                raise OSError(errno.ENOSPC, "No space left on device")
            return real(fd, data)

        monkeypatch.setattr(os, "write", write)


# ------------------------------------------------------------------------------ the recorder


def test_a_full_disk_mid_game_keeps_the_moves_and_writes_them_when_there_is_room(tmp_path, monkeypatch):
    disk = Disk(monkeypatch)
    s = session()
    start_recording(s, tmp_path / "g.jsonl")
    rec = s.recorder
    assert isinstance(rec, Recorder)
    told: list[int] = []
    rec.add_listener(lambda r: told.append(r.unsaved))
    play(s, 10)
    disk.full = True
    play(s, 15)
    assert isinstance(rec.error, OSError) and rec.error.errno == errno.ENOSPC
    assert rec.saved == 10 and rec.unsaved == 15 and len(s.actions) == 25
    log = read_log(tmp_path / "g.jsonl")
    assert log.error is None and log.actions == s.actions[:10]  # no half line left behind
    assert told[-1] == 15
    assert not rec.writer.closed  # the lock is kept
    with pytest.raises(OSError):
        LogWriter.open_append(tmp_path / "g.jsonl", 10)
    disk.full = False
    play(s)  # the next move writes every unsaved one
    assert rec.error is None and rec.unsaved == 0 and told[-1] == 0
    log = read_log(tmp_path / "g.jsonl")
    assert log.error is None and log.finished and log.ended and log.actions == s.actions
    assert finish_recording(s) is None


def test_the_lock_is_held_after_the_game_ends_until_the_recorder_closes(tmp_path):
    s = session(seed=2)
    path = start_recording(s, tmp_path / "g.jsonl")
    play(s)
    assert s.state.phase == "over" and read_log(path).ended
    with pytest.raises(OSError):
        LogWriter.open_locked(path)
    s.recorder.close()
    LogWriter.open_locked(path)[0].close()


def test_a_game_that_cannot_be_saved_at_start_is_played_and_saved_later(data_dir, monkeypatch):
    real_mkdir = Path.mkdir
    state = {"ro": True}

    def mkdir(self, *a, **kw):
        if state["ro"]:
            raise OSError(errno.EROFS, "Read-only file system", str(self))
        return real_mkdir(self, *a, **kw)

    monkeypatch.setattr(Path, "mkdir", mkdir)
    s = session(seed=3)
    rec = record_game(s)  # never raises
    assert rec.writer is None and rec.error is not None and rec.error.errno == errno.EROFS
    play(s, 12)
    assert rec.unsaved == 12 and rec.path is None
    assert not (data_dir / "games").exists() or not any((data_dir / "games").iterdir())  # no empty file
    state["ro"] = False
    play(s, 1)
    assert rec.error is None and rec.unsaved == 0 and rec.path is not None
    assert rec.path.parent == data_dir / "games"
    assert read_log(rec.path).actions == s.actions
    rec.close()


def test_save_to_another_folder_and_rescue(tmp_path, monkeypatch, data_dir):
    disk = Disk(monkeypatch)
    s = session(seed=4)
    first = start_recording(s, tmp_path / "a" / "g.jsonl")
    rec = s.recorder
    play(s, 5)
    disk.full = True
    play(s, 5)
    assert rec.unsaved == 5
    disk.full = False
    other = rec.save_to(tmp_path / "b")
    assert other.parent == tmp_path / "b" and rec.error is None and rec.unsaved == 0
    log = read_log(other)
    assert log.actions == s.actions and log.header.resumed_from == first.name
    play(s, 3)
    assert read_log(other).actions == s.actions
    assert len(read_log(first).actions) == 5  # the old file, a prefix, as it was
    # nowhere to write: rescue says so and keeps the error
    disk.full = True
    play(s, 2)
    monkeypatch.setattr(storage, "rescue_places", lambda: [tmp_path / "c", tmp_path / "d"])
    assert rec.rescue() is None and rec.error is not None and rec.unsaved == 2
    lost = finish_recording(s)
    assert lost is not None and "2 moves" in lost and "No space" in lost
    disk.full = False
    assert not list((tmp_path / "c").glob("*")) if (tmp_path / "c").exists() else True


# ------------------------------------------------------------------------------ the UI


def test_the_banner_shows_a_failure_and_goes_when_saving_works(tmp_path, monkeypatch, data_dir):
    from colosseum.core.games.colosseum.bots import make_bot
    from colosseum.tui.app import ColosseumApp
    from colosseum.tui.widgets.save_banner import SaveBanner, UnsavedQuitScreen

    disk = Disk(monkeypatch)
    s = session(seed=5, seats=("human",) * 3)  # nothing moves unless the test moves it
    path = start_recording(s, tmp_path / "g.jsonl")
    bot = make_bot("random", 1)
    app = ColosseumApp(s, bot_delay=0, auto_dialogs=False)
    monkeypatch.setattr(storage, "rescue_places", lambda: [tmp_path / "rescue"])

    def move(n: int = 1) -> None:
        for _ in range(n):
            s.submit(bot.act(s.state))

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            banner = app.screen.query_one(SaveBanner)
            assert not banner.has_class("-shown") and banner.region.height == 0
            move(2)
            disk.full = True
            move(3)
            await pilot.pause()
            text = str(banner.content)
            assert banner.has_class("-shown") and 1 <= banner.region.height <= 3
            assert "NOT SAVED" in text and "No space left on device" in text and "3 moves" in text
            assert "Save to another folder" in text
            disk.full = False
            move()
            await pilot.pause()
            assert not banner.has_class("-shown")
            assert read_log(path).actions == s.actions
            # quitting with a move that cannot be saved anywhere: asked, told, may stay
            disk.full = True
            move()
            await pilot.press("ctrl+q")
            await pilot.pause()
            assert isinstance(app.screen, UnsavedQuitScreen)
            shown = " ".join(str(w.content) for w in app.screen.query("Static"))
            assert "could not be saved" in shown and "No copy could be written anywhere" in shown
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, UnsavedQuitScreen) and app.is_running
            disk.full = False
            await pilot.press("ctrl+q")  # saving works again: quits at once
            await pilot.pause()

    asyncio.run(go())
    assert read_log(path).actions == s.actions


def test_a_failure_at_start_is_shown_inside_the_game(monkeypatch, data_dir, tmp_path):
    from colosseum.tui.app import build_app
    from colosseum.tui.cli import build_parser
    from colosseum.tui.widgets.save_banner import SaveBanner, UnsavedQuitScreen

    (data_dir).mkdir(parents=True)
    (data_dir / "games").write_bytes(b"")  # the games folder cannot be made: a file is there
    monkeypatch.setattr(storage, "rescue_places", lambda: [tmp_path / "rescue"])
    args = build_parser().parse_args(["play", "--humans", "1", "--seed", "3", "--bot-delay", "0"])
    app = build_app(args)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.3)
            await pilot.press("escape")
            await pilot.pause()
            banner = app.screen.query_one(SaveBanner)
            assert banner.has_class("-shown")
            assert "NOT SAVED" in str(banner.content)
            assert app.session.recorder.unsaved > 0
            await pilot.press("ctrl+q")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, UnsavedQuitScreen)
            shown = " ".join(str(w.content) for w in screen.query("Static"))
            assert "could not be saved" in shown and str(tmp_path / "rescue") in shown
            await pilot.press("q")

    asyncio.run(go())
    copies = list((tmp_path / "rescue").glob("*.jsonl"))
    assert len(copies) == 1 and read_log(copies[0]).actions == app.session.actions


# ------------------------------------------------------------------------------ resume


@pytest.fixture
def fake_app(monkeypatch):
    calls = []

    def run_session(session, *, bot_delay=0.6, theme=None, exit_at_end=False):
        calls.append(session)
        play(session)
        return 0

    mod = types.ModuleType("colosseum.tui.app")
    mod.run_session = run_session
    monkeypatch.setitem(sys.modules, "colosseum.tui.app", mod)
    return calls


HOLDER = r"""
import sys
from colosseum.tui.saved import prepare_resume
got = prepare_resume(sys.argv[1])
assert not isinstance(got, int), got
session, path = got
for _ in range(int(sys.argv[2])):
    session.step_bot()
print("holding", len(session.actions), flush=True)
sys.stdin.read()
"""


def test_resume_race_with_two_processes(tmp_path, fake_app, capsys):
    """Another process resumed the game and plays on: this one is refused (the lock is taken
    before reading); once the other is gone it resumes with everything the other appended."""
    s = session(seed=7)
    path = start_recording(s, tmp_path / "g.jsonl")
    play(s, 20)
    s.recorder.close()
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path), "9"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().split()
        assert line[0] == "holding" and int(line[1]) == 29
        assert cli(["resume", str(path), "--bot-delay", "0"]) == 1
        assert "another colosseum window" in capsys.readouterr().err
        assert len(read_log(path).actions) == 29
    finally:
        proc.communicate("", timeout=60)
    assert cli(["resume", str(path), "--bot-delay", "0"]) == 0
    resumed = fake_app[-1]
    assert resumed.actions[:29] == read_log(path).actions[:29]
    log = read_log(path)
    assert log.error is None and log.finished and log.actions == resumed.actions


def test_a_damaged_log_resumed_twice_or_its_rescue_damaged_gives_no_fork(tmp_path, fake_app, capsys):
    s = session(seed=8)
    path = start_recording(s, tmp_path / "g.jsonl")
    play(s, 30)
    s.recorder.close()
    with open(path, "ab") as f:
        f.write(b'{"i":31,"a":"ro')
    # resumed, then the process dies mid-game: the rescue is unfinished (and then damaged)
    got = saved_module.prepare_resume(str(path))
    assert not isinstance(got, int)
    first, rescued = got
    assert rescued.name == "g-resumed-1.jsonl"
    play(first, 10)
    finish_recording(first)
    with open(rescued, "ab") as f:
        f.write(b"\xff\n")
    capsys.readouterr()
    # the original again: its continuation (itself damaged) goes on in one new file
    got = saved_module.prepare_resume(str(path))
    assert not isinstance(got, int)
    second, again = got
    err = capsys.readouterr().err
    assert "already continued in" in err and "g-resumed-1.jsonl" in err
    assert again.name == "g-resumed-2.jsonl" and read_log(again).header.resumed_from == "g-resumed-1.jsonl"
    assert len(second.actions) == 40
    finish_recording(second)
    # and again, from either damaged file: the same continuation, never a third copy
    for name in (path, rescued):
        got = saved_module.prepare_resume(str(name))
        assert not isinstance(got, int)
        third, where = got
        assert where.name == "g-resumed-2.jsonl" and len(third.actions) == 40
        finish_recording(third)
    assert sorted(p.name for p in tmp_path.glob("*.jsonl")) == ["g-resumed-1.jsonl", "g-resumed-2.jsonl", "g.jsonl"]


# ------------------------------------------------------------------------------ clean errors


def _as_nobody() -> list[str] | None:
    """A prefix that runs a command as an unprivileged user (root ignores permissions)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    probe = subprocess.run([*prefix, sys.executable, "-c", "import colosseum.tui.cli"], capture_output=True, cwd="/")
    return prefix if probe.returncode == 0 else None  # that user cannot run this checkout


@pytest.mark.parametrize("command", [["games"], ["resume"], ["export", "g"], ["view", "g"], ["resume", "g"]])
def test_an_unsearchable_data_folder_is_a_message_not_a_traceback(tmp_path, command):
    prefix = _as_nobody()
    if prefix is None:
        pytest.skip("no way to drop root's privileges here")
    top = tmp_path / "locked"
    (top / "data" / "games").mkdir(parents=True)
    s = session(seed=9)
    start_recording(s, top / "data" / "games" / "g.jsonl")
    play(s, 5)
    s.recorder.close()
    os.chmod(tmp_path, 0o755)
    os.chmod(top, 0o000)  # nobody but root may even look inside
    env = dict(os.environ, COLOSSEUM_DATA_DIR=str(top / "data"), HOME=str(tmp_path))
    try:
        proc = subprocess.run(
            [*prefix, sys.executable, "-m", "colosseum", *command],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            cwd="/",
        )
    finally:
        os.chmod(top, 0o700)
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr and proc.stderr.startswith("colosseum: ")
    assert "Permission denied" in proc.stderr


def test_permission_errors_in_process(data_dir, monkeypatch, capsys):
    """The same without a second user: the folder listing and the file open raise."""

    def denied(*a, **kw):
        raise PermissionError(errno.EACCES, "Permission denied", str(data_dir))

    monkeypatch.setattr(os, "listdir", denied)
    assert cli(["games"]) == 1
    assert cli(["resume"]) == 1
    err = capsys.readouterr().err
    assert "Permission denied" in err and "Traceback" not in err
    monkeypatch.undo()
    real_stat = os.stat

    def stat(p, *a, **kw):
        if str(p).startswith(str(data_dir)):
            raise PermissionError(errno.EACCES, "Permission denied", str(p))
        return real_stat(p, *a, **kw)

    monkeypatch.setattr(os, "stat", stat)
    assert cli(["export", "nothing-here"]) == 1
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("command", ["export", "view", "resume"])
def test_a_fifo_or_a_device_is_refused_at_once(tmp_path, command, capsys, fake_app):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    for target in (str(fifo), "/dev/zero", "/dev/urandom"):
        if not os.path.exists(target):
            continue
        assert cli([command, target]) == 1
        err = capsys.readouterr().err
        assert "not a regular file" in err and "Traceback" not in err
    assert not fake_app


def test_export_of_a_fifo_in_a_subprocess_does_not_block(tmp_path):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    proc = subprocess.run(
        [sys.executable, "-m", "colosseum", "export", str(fifo)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 1 and "not a regular file" in proc.stderr


# ------------------------------------------------------------------------------ power cut


def _kill_module():
    return script("kill_test")


def test_power_cut_loses_nothing_that_was_synced(tmp_path):
    kt = _kill_module()
    rnd = random.Random(23)
    results = [kt.one_run(tmp_path, 700 + k, rnd, power=True) for k in range(6)]
    for r in results:
        assert r["ok"], r
    assert any(0 < r["saved"] < r["total"] for r in results)


def test_power_cut_without_fsync_is_caught(tmp_path):
    """The check has teeth: with fsync off, a power cut that drops everything unsynced loses
    moves the child had reported."""
    kt = _kill_module()
    rnd = random.Random(5)
    results = [kt.one_run(tmp_path, 800 + k, rnd, power=True, fsync=False) for k in range(4)]
    assert any(not r["ok"] for r in results)


def test_leaving_with_unsaved_moves_writes_a_copy_and_says_where(tmp_path, monkeypatch):
    """Without a question (``--exit-at-end``, a hang-up): the copy is written on the way out."""
    disk = Disk(monkeypatch)
    s = session(seed=10)
    first = start_recording(s, tmp_path / "g.jsonl")
    play(s, 8)
    disk.full = True
    play(s)
    monkeypatch.setattr(storage, "rescue_places", lambda: [tmp_path / "full", tmp_path / "spare"])
    real_write = disk.real

    def only_spare(fd, data):  # the games folder's disk is full, the spare one is not
        if "/spare/" in os.readlink(f"/proc/self/fd/{fd}"):
            return real_write(fd, data)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", only_spare)
    msg = finish_recording(s)
    assert msg is not None and "could not be saved in" in msg and str(first) in msg, msg
    copies = list((tmp_path / "spare").glob("*.jsonl"))
    assert len(copies) == 1 and str(copies[0]) in msg
    monkeypatch.setattr(os, "write", real_write)
    log = read_log(copies[0])
    assert log.error is None and log.finished and log.actions == s.actions
    assert disk.full


def test_a_game_saved_outside_the_games_folder_is_resumed_by_its_path(tmp_path, monkeypatch, data_dir):
    """A game saved to another folder (or a rescue copy) is named in how to continue it: a
    plain ``colosseum resume`` would continue an older game of the games folder."""
    from colosseum.tui.app import ColosseumApp

    inside = storage.games_dir(create=True) / "g.jsonl"
    assert storage.resume_command(inside) == "colosseum resume"
    away = tmp_path / "my games" / "g.jsonl"
    assert storage.resume_command(away) == f"colosseum resume '{away}'"
    s = session(seed=4)
    start_recording(s, tmp_path / "a" / "g.jsonl")
    play(s, 3)
    other = s.recorder.save_to(tmp_path / "my games")
    app = ColosseumApp(s, bot_delay=30, auto_dialogs=False)
    assert f"`colosseum resume '{other}'`" in app._quit_question()
    monkeypatch.setattr(app, "_game_going", lambda: True)
    assert f"`colosseum resume '{other}'`" in app._exit_note().plain
    s.recorder.close()


def test_a_log_naming_a_bot_this_version_lacks_is_refused_with_a_way_on(tmp_path, fake_app, capsys):
    """A seat played by a bot this version does not have (a newer version's level, a hand edit)
    was resumed, and the game stalled at that seat's turn ("unknown bot" on every Enter); now
    resume and fork say so in one line, and resume names the fork that goes on with a bot."""
    from colosseum.core.gamelog import make_header

    s = session(seed=3)
    play(s, 12)
    header = make_header(s.setup, ("random", "godlike", "random"))
    w = LogWriter.create_at(tmp_path / "g.jsonl", header, s.actions)
    w.close()
    assert cli(["resume", str(w.path), "--bot-delay", "0"]) == 1
    err = capsys.readouterr().err
    assert "seat 2 is played by 'godlike', a bot this version does not have" in err
    assert f"colosseum fork {w.path} --at 12 --bots normal" in err and not fake_app
    assert cli(["fork", str(w.path), "--at", "5", "--no-play"]) == 2
    assert "'godlike', a bot this version does not have" in capsys.readouterr().err
    assert cli(["fork", str(w.path), "--at", "12", "--bots", "normal", "--no-play"]) == 0


def test_a_failure_under_the_first_decision_s_dialog_is_said_over_it(monkeypatch, data_dir, tmp_path):
    """The player decides first: their dialog opens at once over the banner, which said NOT
    SAVED under it unseen until the dialog closed.  It is said on the dialog's screen, once."""
    from colosseum.tui.app import build_app
    from colosseum.tui.cli import build_parser

    data_dir.mkdir(parents=True)
    (data_dir / "games").write_bytes(b"")
    monkeypatch.setattr(storage, "rescue_places", lambda: [tmp_path / "rescue"])
    args = build_parser().parse_args(["play", "--humans", "1", "--seed", "1", "--bot-delay", "0"])
    app = build_app(args)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.5)
            await pilot.pause()
            assert app.session.waiting_for() in app.session.local_seats()
            assert type(app.screen).__name__ != "GameScreen"  # a dialog is open
            return [n.message for n in app._notifications if n.severity == "error"]

    told = asyncio.run(go())
    assert len([m for m in told if "NOT SAVED" in m or "could not" in m.lower()]) == 1, told
