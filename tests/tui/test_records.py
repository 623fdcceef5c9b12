"""Saved games on disk (colosseum.tui.storage, .export, .cli): autosave, the games/export/resume
commands, and the kill test (a recording game killed with SIGKILL keeps all but at most the action
being applied)."""

from __future__ import annotations

import hashlib
import json
import os
import random
import sys
import types
from pathlib import Path

import msgspec
import pytest
from scripts_module import script

from colosseum.core.gamelog import dump_log, make_header
from colosseum.core.games.colosseum import GameSetup, encode_state
from colosseum.core.logread import read_log
from colosseum.tui import saved as saved_module
from colosseum.tui.cli import main as cli
from colosseum.tui.session import LocalSession, Seat
from colosseum.tui.storage import game_file_name, start_recording

SOAK = max(1, int(os.environ.get("COLOSSEUM_SOAK", "1") or "1"))
NAMES = ("Becky", "Kat", "Laura")


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("COLOSSEUM_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def session(seed=1, seats=("random", "random", "random"), names=NAMES) -> LocalSession:
    return LocalSession(GameSetup(players=names, seed=seed), tuple(Seat(k) for k in seats))


def play(s: LocalSession, n: int = 10_000) -> None:
    while n and s.step_bot():
        n -= 1


def digest(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


# ------------------------------------------------------------------------------ autosave


def test_games_are_saved_in_the_data_dir_with_readable_names(data_dir):
    s = session()
    path = start_recording(s)
    assert path.parent == data_dir / "games"
    assert path.name.endswith("-becky-kat-laura.jsonl")
    assert path.name[:10].count("-") == 2  # starts with the date
    play(s, 25)
    log = read_log(path)
    assert log.actions == s.actions and log.error is None
    # a second game the same minute never overwrites the first
    other = start_recording(session(seed=2))
    assert other != path and other.name.endswith("-2.jsonl")
    assert len(read_log(path).actions) == 25


def test_file_name_slugs():
    setup = GameSetup(players=("Zoë Ånström", "  ", "R2/D2 the droid of doom!!"), seed=1)
    import datetime

    name = game_file_name(setup, datetime.datetime(2026, 11, 29, 14, 12))
    # the game and its edition, then the players
    assert name == "2026-11-29-1412-colosseum-grand-zoe-anstrom-p2-r2-d2-the-droid-of-d.jsonl"
    cjk = GameSetup(players=("ベッキー", "Aurelia Maximiliana Cornelia", "小明"), seed=1, variant="original")
    name = game_file_name(cjk, datetime.datetime(2026, 11, 29, 14, 12))
    assert name == "2026-11-29-1412-colosseum-original-ベッキー-aurelia-maximiliana-小明.jsonl"  # every name kept


def test_each_action_is_on_disk_when_submit_returns(tmp_path):
    s = session()
    path = start_recording(s, tmp_path / "g.jsonl")
    for _ in range(30):
        s.step_bot()
        # read with another handle: nothing buffered in this process
        assert len(read_log(path).actions) == len(s.actions)


def test_recording_never_overwrites(tmp_path):
    p = tmp_path / "g.jsonl"
    p.write_bytes(b"precious")
    with pytest.raises(FileExistsError):
        start_recording(session(), p)
    assert p.read_bytes() == b"precious"


def test_append_to_an_intact_log(tmp_path):
    s = session()
    path = start_recording(s, tmp_path / "g.jsonl")
    play(s, 40)
    s.recorder.close()
    log = read_log(path)
    s2 = LocalSession(log.setup, tuple(Seat(k) for k in log.seats), actions=log.actions)
    assert start_recording(s2, path, append=True) == path
    play(s2)
    s2.recorder.close()
    log2 = read_log(path)
    assert log2.error is None and log2.finished
    assert log2.actions[:40] == s.actions and log2.actions == s2.actions
    assert encode_state(log2.state) == encode_state(s2.state)


def test_a_write_error_stops_recording_without_breaking_the_game(tmp_path):
    s = session()
    start_recording(s, tmp_path / "g.jsonl")
    rec = s.recorder
    os.close(rec.writer.fd)  # simulate the disk going away
    s.step_bot()
    s.step_bot()
    assert isinstance(rec.error, OSError)
    assert len(s.actions) == 2


def test_fsync_option(tmp_path):
    s = session()
    start_recording(s, tmp_path / "g.jsonl", fsync=True)
    assert s.recorder.fsync
    play(s, 5)
    assert len(read_log(tmp_path / "g.jsonl").actions) == 5


def test_fsync_is_on_unless_the_environment_turns_it_off(tmp_path, monkeypatch):
    monkeypatch.delenv("COLOSSEUM_FSYNC", raising=False)
    s = session()
    start_recording(s, tmp_path / "on.jsonl")
    assert s.recorder.fsync
    monkeypatch.setenv("COLOSSEUM_FSYNC", "0")
    s2 = session()
    start_recording(s2, tmp_path / "off.jsonl")
    assert not s2.recorder.fsync
    s.recorder.close()
    s2.recorder.close()


# ------------------------------------------------------------------------------ colosseum games


def test_games_lists_newest_first(data_dir, capsys):
    assert cli(["games"]) == 0
    assert "No saved games" in capsys.readouterr().out
    a = session(seed=1, seats=("human", "random", "greedy"))
    pa = start_recording(a)
    play(a)  # stops at the human seat's first decision
    b = session(seed=2, names=("Ann", "Bo", "Cy"))
    pb = start_recording(b)
    play(b)
    games = data_dir / "games"
    # headers say when each game began: make b the older one
    for p, stamp in ((pa, "2026-11-29T14:12:00Z"), (pb, "2026-11-28T09:00:00Z")):
        log = read_log(p)  # written again with that time (an edited header breaks the digests)
        p.write_bytes(dump_log(msgspec.structs.replace(log.header, created=stamp), log.actions, end=log.finished))
    (games / "junk.jsonl").write_bytes(b"")
    os.utime(games / "junk.jsonl", (1e9, 1e9))  # 2001: listed last
    assert cli(["games"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert str(games) in lines[0]
    body = [ln for ln in lines[2:] if ln.strip()]
    assert pa.name in body[0] and "unfinished" in body[0] and "Kat (random)" in body[0] and "Becky," in body[0]
    assert pb.name in body[1] and " won" in body[1]
    winner = read_log(pb).state.result.winner
    assert f"{('Ann', 'Bo', 'Cy')[winner]} won" in body[1]
    assert "junk.jsonl" in body[2] and "empty" in body[2]


# ------------------------------------------------------------------------------ colosseum export


@pytest.fixture
def finished_game(tmp_path):
    s = session(seed=4)
    path = start_recording(s, tmp_path / "done.jsonl")
    play(s)
    s.recorder.close()
    return path, s


def test_export_text(finished_game, capsys):
    path, s = finished_game
    assert cli(["export", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Colosseum")
    for head in ("== Setup ==", "== Round 1 ==", "== Round 4 ==", "Phase 2: Hire Performers.", "== Final ranking =="):
        assert head in out
    # every event sentence of the game is in the record, in order
    pos = 0
    for e in s.events:
        if e.kind == "phase":
            continue
        pos = out.index(e.text, pos)
    # performances with their Acclaim breakdown
    assert "performs" in out and "      Acclaim" in out
    winner = s.state.players[s.state.result.winner].name
    assert f"  1. {winner}" in out


def test_export_json(finished_game, capsysbinary):
    path, s = finished_game
    assert cli(["export", str(path), "--format", "json"]) == 0
    doc = json.loads(capsysbinary.readouterr().out)
    assert doc["error"] is None and doc["header"]["setup"]["seed"] == 4
    pos = doc["positions"]
    assert len(pos) == len(s.actions) + 1
    assert [p["index"] for p in pos] == list(range(len(pos)))
    assert pos[0]["action"] is None and pos[1]["action"]["a"] == "start_gates"
    import msgspec

    from colosseum.core.games.colosseum import decode_state

    assert encode_state(decode_state(msgspec.json.encode(pos[-1]["state"]))) == encode_state(s.state)


def test_export_damaged_and_broken_files(tmp_path, finished_game, capsys):
    path, s = finished_game
    lines = path.read_bytes().split(b"\n")
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_bytes(b"\n".join(lines[:30]) + b"\n" + lines[30][:9])
    before = digest(damaged)
    assert cli(["export", str(damaged)]) == 0  # a valid prefix: exported, with a message
    cap = capsys.readouterr()
    assert "line 31" in cap.err and "29 valid actions" in cap.err
    assert "damaged after this point" in cap.out and "Unfinished" in cap.out
    assert digest(damaged) == before
    for bad, what in (
        (b"", "empty"),
        (b"\xff\xfe garbage", "not UTF-8"),
        (lines[0].replace(b'"version":2', b'"version":9') + b"\n", "version 9"),
    ):
        broken = tmp_path / "broken.jsonl"
        broken.write_bytes(bad)
        assert cli(["export", str(broken)]) == 1
        assert cli(["export", str(broken), "--format", "json"]) == 1
        cap = capsys.readouterr()
        assert what in cap.err and "Traceback" not in cap.err and cap.out == ""
        assert broken.read_bytes() == bad
    assert cli(["export", str(tmp_path / "missing.jsonl")]) == 1
    assert "no such file" in capsys.readouterr().err


def test_export_finds_names_in_the_games_folder(data_dir, capsys):
    s = session()
    path = start_recording(s)
    play(s, 20)
    assert cli(["export", path.stem]) == 0
    assert "== Setup ==" in capsys.readouterr().out


def test_export_via_subprocess_into_a_closed_pipe(finished_game):
    import subprocess

    path, _ = finished_game
    proc = subprocess.run(
        f"{sys.executable} -m colosseum export {path} --format json | head -c 10",
        shell=True,
        capture_output=True,
    )
    assert proc.returncode == 0 and len(proc.stdout) == 10
    assert b"Traceback" not in proc.stderr


# ------------------------------------------------------------------------------ colosseum resume


@pytest.fixture
def fake_app(monkeypatch):
    """Stands in for colosseum.tui.app: run_session plays the bot seats to the end."""
    calls = []

    def run_session(session, *, bot_delay=0.6, theme=None, exit_at_end=False):
        calls.append((session, bot_delay, theme, exit_at_end))
        play(session)
        return 0

    mod = types.ModuleType("colosseum.tui.app")
    mod.run_session = run_session
    monkeypatch.setitem(sys.modules, "colosseum.tui.app", mod)
    return calls


def test_resume_continues_the_newest_unfinished_game_in_place(data_dir, fake_app):
    done = session(seed=3)
    start_recording(done)
    play(done)
    s = session(seed=5)
    path = start_recording(s)
    play(s, 33)
    s.recorder.close()
    assert cli(["resume", "--bot-delay", "0"]) == 0
    (resumed, delay, theme, exit_at_end) = fake_app[0]
    assert delay == 0 and exit_at_end is False
    assert resumed.actions[:33] == s.actions
    log = read_log(path)  # the same file, appended to
    assert log.error is None and log.finished and log.actions == resumed.actions
    # nothing left to resume
    assert cli(["resume"]) == 1


def test_resume_a_damaged_log_writes_a_new_file(tmp_path, fake_app, data_dir, capsys):
    s = session(seed=6)
    path = start_recording(s, tmp_path / "g.jsonl")
    play(s, 50)
    s.recorder.close()
    with open(path, "ab") as f:
        f.write(b'{"i":51,"a":"ro')  # cut while saving
    before = digest(path)
    assert cli(["resume", str(path), "--bot-delay", "0"]) == 0
    err = capsys.readouterr().err
    assert "line 52" in err and "g-resumed-1.jsonl" in err
    assert digest(path) == before
    new = tmp_path / "g-resumed-1.jsonl"
    log = read_log(new)
    assert log.error is None and log.finished and log.actions[:50] == s.actions
    assert log.header.resumed_from == "g.jsonl"
    # again: no second copy of the same game; its continuation is offered (that game is over)
    rescued = digest(new)
    assert cli(["resume", str(path), "--bot-delay", "0"]) == 1
    err = capsys.readouterr().err
    assert "already continued in" in err and "g-resumed-1.jsonl" in err and "over" in err
    assert not (tmp_path / "g-resumed-2.jsonl").exists()
    assert digest(path) == before and digest(new) == rescued


def test_resume_refuses_finished_and_broken_games(tmp_path, finished_game, fake_app, capsys):
    path, _ = finished_game
    assert cli(["resume", str(path)]) == 1
    assert "over" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\x00\x01")
    assert cli(["resume", str(bad)]) == 1
    assert not fake_app


def test_resume_keeps_human_seats_human(tmp_path, fake_app):
    s = session(seed=8, seats=("random", "human", "random"))
    path = start_recording(s, tmp_path / "h.jsonl")
    play(s)
    s.recorder.close()
    prepared = saved_module.prepare_resume(str(path))
    resumed, p = prepared
    assert p == path and resumed.seats == s.seats and resumed.actions == s.actions
    assert resumed.waiting_for() == 1 and not resumed.bot_to_act()
    resumed.recorder.close()


# ------------------------------------------------------------------------------ kill test


def _kill_module():
    return script("kill_test")


def test_kill_at_random_moments(tmp_path):
    kt = _kill_module()
    rnd = random.Random(11)
    results = [kt.one_run(tmp_path, 500 + k, rnd) for k in range(6 * SOAK)]
    for r in results:
        assert r["ok"], r
    assert any(0 < r["saved"] < r["total"] for r in results)
    # a killed game resumes where it stopped
    r = next(r for r in results if 0 < r["saved"] < r["total"])
    prepared = saved_module.prepare_resume(r["path"])
    resumed, _ = prepared
    assert len(resumed.actions) == r["saved"]
    play(resumed)
    resumed.recorder.close()
    log = read_log(r["path"])
    assert log.finished and log.error is None


def test_header_only_log_is_a_game_at_its_start(tmp_path, capsys):
    p = tmp_path / "h.jsonl"
    p.write_bytes(dump_log(make_header(GameSetup(players=NAMES, seed=1), ("human",) * 3), ()))
    assert cli(["export", str(p)]) == 0
    assert "Unfinished: round 1" in capsys.readouterr().out


def test_a_rescued_log_is_not_resumed_twice(data_dir, fake_app, capsys):
    s = session(seed=12)
    path = start_recording(s)
    play(s, 30)
    s.recorder.close()
    with open(path, "ab") as f:
        f.write(b"\xff\xfe\n")  # corrupted bytes after the valid prefix
    assert cli(["resume", "--bot-delay", "0"]) == 0
    assert "line 32" in capsys.readouterr().err
    rescued = path.with_name(path.stem + "-resumed-1.jsonl")
    assert read_log(rescued).finished
    assert cli(["resume"]) == 1  # the damaged original was continued already
    assert cli(["games"]) == 0
    out = capsys.readouterr().out
    assert f"continued in {rescued.name}" in out


def test_a_game_being_played_is_not_resumed_twice(tmp_path, fake_app, capsys):
    s = session(seed=13)
    path = start_recording(s, tmp_path / "busy.jsonl")
    play(s, 10)
    before = digest(path)
    assert cli(["resume", str(path)]) == 1  # the game is still being recorded here
    assert "another colosseum window" in capsys.readouterr().err
    assert digest(path) == before and not fake_app
    s.recorder.close()  # the other program ends: now it can be resumed
    assert cli(["resume", str(path), "--bot-delay", "0"]) == 0
    assert read_log(path).finished


TITLES = {
    "grand": "Colosseum - The Grand Spectacle: game record",
    "classic": "Colosseum - Classic: game record",
    "original": "Colosseum - Original 2007: game record",
}


@pytest.mark.parametrize("variant,n", [("grand", 5), ("classic", 4), ("classic", 3), ("original", 4)])
def test_export_every_variant(variant, n):
    from colosseum.core.logread import parse_log
    from colosseum.tui.export import export_json_chunks, export_text

    s = LocalSession(
        GameSetup(players=("Becky", "Kat", "Laura", "Mia", "Nora")[:n], seed=21, variant=variant),
        tuple(Seat("random") for _ in range(n)),
    )
    play(s)
    log = parse_log(dump_log(make_header(s.setup, [x.kind for x in s.seats]), s.actions))
    text = export_text(log)
    # the edition's own title (the original 2007 edition was called "classic" once)
    assert text.startswith(TITLES[variant]) and "== Final ranking ==" in text
    assert "Options:  none   seed: 21" in text
    for e in s.events:
        assert e.text in text
    doc = json.loads(b"".join(export_json_chunks(log)))
    assert len(doc["positions"]) == len(s.actions) + 1


def test_recording_again_to_the_same_log_appends(tmp_path):
    s = session()
    path = start_recording(s, tmp_path / "g.jsonl")
    play(s, 5)
    first = s.recorder
    assert start_recording(s, path, append=True) == path  # the first recorder lets go of the lock
    assert first.writer.closed
    play(s, 5)
    s.recorder.close()
    assert read_log(path).actions == s.actions


def test_a_failed_new_recording_keeps_the_old_one(tmp_path):
    s = session()
    start_recording(s, tmp_path / "g.jsonl")
    (tmp_path / "taken.jsonl").write_bytes(b"x")
    with pytest.raises(FileExistsError):
        start_recording(s, tmp_path / "taken.jsonl")
    play(s, 3)
    s.recorder.close()
    assert len(read_log(tmp_path / "g.jsonl").actions) == 3
