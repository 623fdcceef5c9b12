"""The game-log writer (colosseum.core.logwriter): files created exclusively and durably, the lock,
one line per write, appending only where the file ends as the caller read it, and errors that are
OSErrors a caller can show."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from colosseum.core.gamelog import ChatLine, make_header
from colosseum.core.games.colosseum import GameSetup, apply, new_game, to_act
from colosseum.core.games.colosseum.bots import make_bot
from colosseum.core.logread import parse_log, read_log
from colosseum.core.logwriter import (
    FSYNC_ENV,
    GameInUse,
    LogClosed,
    LogFileError,
    LogWriter,
    NotAppendable,
    fsync_default,
)

NAMES = ("Becky", "Kat", "Laura")
SETUP = GameSetup(players=NAMES, seed=3)
HEADER = make_header(SETUP, ("human", "random", "random"))


def some_actions(n: int) -> list:
    """The first ``n`` actions of a game of random bots."""
    state = new_game(SETUP)
    bots = [make_bot("random", i) for i in range(3)]
    out = []
    while len(out) < n and to_act(state) >= 0:
        a = bots[to_act(state)].act(state)
        state, _ = apply(state, a)
        out.append(a)
    return out


ACTIONS = some_actions(30)


def test_create_writes_header_and_actions_and_never_overwrites(tmp_path):
    with LogWriter.create(tmp_path / "games", "g", HEADER, ACTIONS[:5]) as w:
        assert w.path == tmp_path / "games" / "g.jsonl" and w.count == 5
        for a in ACTIONS[5:8]:
            w.append_action(a)
        assert w.count == 8
    log = read_log(w.path)
    assert log.error is None and log.actions == ACTIONS[:8] and log.seats == HEADER.seats
    first = w.path.read_bytes()
    second = LogWriter.create(tmp_path / "games", "g", HEADER)
    third = LogWriter.create(tmp_path / "games", "g", HEADER)
    assert (second.path.name, third.path.name) == ("g-2.jsonl", "g-3.jsonl")
    second.close()
    third.close()
    assert w.path.read_bytes() == first
    rescued = LogWriter.create(tmp_path / "games", "g-resumed", HEADER, first_suffix=1)
    assert rescued.path.name == "g-resumed-1.jsonl"
    rescued.close()


def test_create_at_refuses_an_existing_file(tmp_path):
    p = tmp_path / "g.jsonl"
    p.write_bytes(b"precious")
    with pytest.raises(FileExistsError):
        LogWriter.create_at(p, HEADER)
    assert p.read_bytes() == b"precious"


def test_each_line_is_in_the_file_when_append_returns(tmp_path):
    w = LogWriter.create_at(tmp_path / "g.jsonl", HEADER, fsync=False)
    for i, a in enumerate(ACTIONS, 1):
        w.append_action(a, i)
        # another reader sees it at once: nothing is buffered in this process
        assert len(read_log(w.path).actions) == i
    w.close()


def test_numbers_must_follow_on(tmp_path):
    with LogWriter.create_at(tmp_path / "g.jsonl", HEADER, ACTIONS[:3]) as w:
        with pytest.raises(ValueError):
            w.append_action(ACTIONS[3], 5)
        w.append_action(ACTIONS[3], 4)
    assert read_log(w.path).actions == ACTIONS[:4]


def test_chat_lines_are_kept_between_actions(tmp_path):
    with LogWriter.create_at(tmp_path / "g.jsonl", HEADER, ACTIONS[:2]) as w:
        w.append_chat(ChatLine(chat="ave", name="Becky", seat=0, time=1.5, after=w.count))
        w.append_action(ACTIONS[2])
        w.append_chat(ChatLine(chat="[b]not markup[/b]", name="Kat", seat=1, after=w.count))
    log = read_log(w.path)
    assert log.error is None and log.actions == ACTIONS[:3]
    assert [(c.chat, c.after) for c in log.chat] == [("ave", 2), ("[b]not markup[/b]", 3)]


def test_fsync_per_line_and_for_a_new_file_and_its_folder(tmp_path, monkeypatch):
    synced: list[int] = []
    real = os.fsync

    def spy(fd: int) -> None:
        synced.append(fd)
        real(fd)

    monkeypatch.setattr(os, "fsync", spy)
    w = LogWriter.create_at(tmp_path / "g.jsonl", HEADER, fsync=True)
    assert len(synced) == 2  # the file, then the folder holding its new name
    w.append_action(ACTIONS[0])
    w.append_chat(ChatLine(chat="hi"))
    assert len(synced) == 4
    w.fsync = False
    w.append_action(ACTIONS[1])
    assert len(synced) == 4
    w.close()


@pytest.mark.parametrize("value,expected", [(None, True), ("", True), ("1", True), ("0", False), ("off", False)])
def test_fsync_default(monkeypatch, value, expected):
    if value is None:
        monkeypatch.delenv(FSYNC_ENV, raising=False)
    else:
        monkeypatch.setenv(FSYNC_ENV, value)
    assert fsync_default() is expected


def test_a_game_is_recorded_by_one_writer_at_a_time(tmp_path):
    w = LogWriter.create_at(tmp_path / "g.jsonl", HEADER, ACTIONS[:4])
    with pytest.raises(GameInUse) as err:
        LogWriter.open_append(w.path, 4)
    assert isinstance(err.value, OSError) and "g.jsonl" in str(err.value)
    w.close()
    with LogWriter.open_append(w.path, 4) as again:
        again.append_action(ACTIONS[4])
    assert read_log(w.path).actions == ACTIONS[:5]


def test_open_append_checks_the_file_ends_as_read(tmp_path):
    p = tmp_path / "g.jsonl"
    LogWriter.create_at(p, HEADER, ACTIONS[:6]).close()
    with pytest.raises(NotAppendable, match="holds 6 actions, not 5"):
        LogWriter.open_append(p, 5)
    with LogWriter.open_append(p, 6) as w:
        w.append_chat(ChatLine(chat="chat after the last action"))
    LogWriter.open_append(p, 6).close()  # chat lines are not counted
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    with pytest.raises(NotAppendable, match="empty"):
        LogWriter.open_append(empty, 0)
    with pytest.raises(FileNotFoundError):
        LogWriter.open_append(tmp_path / "missing.jsonl", 0)
    header_only = tmp_path / "h.jsonl"
    LogWriter.create_at(header_only, HEADER).close()
    with LogWriter.open_append(header_only, 0) as w:
        w.append_action(ACTIONS[0])
    assert read_log(header_only).actions == ACTIONS[:1]


def test_a_partial_last_line_is_refused_or_cut_off(tmp_path):
    p = tmp_path / "g.jsonl"
    LogWriter.create_at(p, HEADER, ACTIONS[:6]).close()
    with open(p, "ab") as f:
        f.write(b'{"i":7,"a":"ro')  # a writer killed in the middle of a line
    before = p.read_bytes()
    assert parse_log(before).error.kind == "truncated"
    with pytest.raises(NotAppendable, match="complete line"):
        LogWriter.open_append(p, 6)
    assert p.read_bytes() == before
    with LogWriter.open_append(p, 6, drop_partial_line=True) as w:
        for a in ACTIONS[6:9]:
            w.append_action(a)
    log = read_log(p)
    assert log.error is None and log.actions == ACTIONS[:9]
    cut_header = tmp_path / "cut.jsonl"
    cut_header.write_bytes(b'{"format":"colosseum-ga')
    with pytest.raises(NotAppendable):
        LogWriter.open_append(cut_header, 0, drop_partial_line=True)


def test_long_lines_are_found_from_the_end(tmp_path):
    p = tmp_path / "g.jsonl"
    with LogWriter.create_at(p, HEADER, ACTIONS[:3]) as w:
        w.append_chat(ChatLine(chat="x" * 20_000))
        w.append_chat(ChatLine(chat="é" * 9_000))
    LogWriter.open_append(p, 3).close()
    with pytest.raises(NotAppendable):
        LogWriter.open_append(p, 2)


def test_a_failed_write_is_cut_off_and_the_writer_keeps_its_lock(tmp_path, monkeypatch):
    """A disk that fills in the middle of a line: the partial line is cut off again, the writer
    stays open (and locked), and the same action is written once there is room."""
    w = LogWriter.create_at(tmp_path / "g.jsonl", HEADER, ACTIONS[:2])
    good = w.path.read_bytes()
    real = os.write

    def half_then_full(fd: int, data: bytes) -> int:
        if len(data) > 10:
            return real(fd, bytes(data[:10]))  # a short write: the rest finds no room
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", half_then_full)
    with pytest.raises(OSError, match="No space"):
        w.append_action(ACTIONS[2])
    monkeypatch.undo()
    assert not w.closed and w.count == 2 and w.path.read_bytes() == good
    with pytest.raises(GameInUse):
        LogWriter.open_append(w.path, 2)
    w.append_action(ACTIONS[2])
    log = read_log(w.path)
    assert log.error is None and log.actions == ACTIONS[:3]
    w.close()
    with pytest.raises(LogClosed) as err:
        w.append_action(ACTIONS[3])
    assert isinstance(err.value, LogFileError) and isinstance(err.value, OSError)
    w.close()  # again: harmless


def test_a_file_that_cannot_be_written_is_not_left_behind(tmp_path, monkeypatch):
    def full(fd: int, data: bytes) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError, match="No space"):
        LogWriter.create(tmp_path, "g", HEADER, ACTIONS[:3])
    monkeypatch.undo()
    assert list(Path(tmp_path).iterdir()) == []
