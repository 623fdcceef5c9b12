"""Log integrity and faults in core: the running digest and the end line (format version 2), old
logs without them, the writer under write errors and races, reading only regular files, and
actions built in code with fields of the wrong type."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time

import msgspec
import pytest

from colosseum.core.gamelog import FORMAT_VERSION, GameLogError, dump_log, encode_action_line, make_header
from colosseum.core.games.colosseum import GameSetup, RuleError, apply, decode_state, encode_state, new_game, to_act
from colosseum.core.games.colosseum.actions import (
    ChooseDice,
    EndTurn,
    OpenAuction,
    PlaceStartGates,
    ProposeDeal,
    field_error,
)
from colosseum.core.games.colosseum.bots import make_bot
from colosseum.core.games.colosseum.model import Transfer
from colosseum.core.logread import parse_log, read_log
from colosseum.core.logwriter import GameInUse, LogClosed, LogWriter, NotAppendable

SETUP = GameSetup(players=("Becky", "Kat", "Laura"), seed=11)
HEADER = make_header(SETUP, ("random",) * 3, version=FORMAT_VERSION)


def whole_game(setup: GameSetup = SETUP) -> list:
    state = new_game(setup)
    bots = [make_bot("random", i) for i in range(len(setup.players))]
    out = []
    while to_act(state) >= 0:
        a = bots[to_act(state)].act(state)
        state, _ = apply(state, a)
        out.append(a)
    return out


GAME = whole_game()


def lines_of(data: bytes) -> list[bytes]:
    return data.split(b"\n")[:-1]


def join(lines: list[bytes]) -> bytes:
    return b"".join(x + b"\n" for x in lines)


def legal_other(k: int) -> object:
    """An action that is legal where action ``k`` (1-based) of GAME was played, but another one
    (None if there is no other)."""
    state = new_game(SETUP)
    for a in GAME[: k - 1]:
        state, _ = apply(state, a)
    for seed in range(200):
        other = make_bot("random", seed).act(state)
        if other != GAME[k - 1]:
            return other
    return None


# ------------------------------------------------------------------------------ digests


def test_a_whole_game_reads_back_with_its_end_line():
    data = dump_log(HEADER, GAME, end=True)
    assert lines_of(data)[-1].startswith(b'{"end":%d,"h":"' % len(GAME))
    log = parse_log(data)
    assert log.error is None and log.finished and log.ended and log.actions == GAME
    assert all(b'"h":"' in ln for ln in lines_of(data)[1:])


def test_a_line_replaced_by_another_legal_action_is_detected():
    lines = lines_of(dump_log(HEADER, GAME, end=True))
    k = 20
    other = legal_other(k)
    assert other is not None
    # the forger keeps the number and even the old digest: the chain still breaks
    old = msgspec.json.decode(lines[k])
    new = msgspec.json.decode(encode_action_line(other, k))
    new["h"] = old["h"]
    lines[k] = msgspec.json.encode(new)
    log = parse_log(join(lines))
    assert log.error is not None and log.error.kind == "edited" and log.error.line == k + 1
    assert f"line {k + 1}" in str(log.error) and "edited" in str(log.error)
    assert log.actions == GAME[: k - 1]  # the valid prefix, offered


def test_a_digest_removed_or_a_header_edited_is_detected():
    lines = lines_of(dump_log(HEADER, GAME, end=True))
    plain = lines.copy()
    plain[5] = encode_action_line(GAME[4], 5)[:-1]
    log = parse_log(join(plain))
    assert log.error.kind == "edited" and log.error.line == 6 and "no digest" in str(log.error)
    edited = lines.copy()
    edited[0] = edited[0].replace(b'"program":"', b'"program":"x', 1)
    log = parse_log(join(edited))
    assert log.error.kind == "edited" and log.error.line == 2 and log.actions == []


def test_lines_removed_in_the_middle_break_the_chain():
    lines = lines_of(dump_log(HEADER, GAME, end=True))
    del lines[10:12]
    # renumber, as a careful editor would: the digests still tell
    for idx in range(10, len(lines) - 1):
        obj = msgspec.json.decode(lines[idx])
        obj["i"] = idx
        lines[idx] = msgspec.json.encode(obj)
    log = parse_log(join(lines))
    assert log.error.kind in ("edited", "illegal") and log.error.line == 11


@pytest.mark.parametrize("cut", [1, 2, 5])
def test_a_finished_game_cut_at_a_line_boundary_is_detected(cut):
    lines = lines_of(dump_log(HEADER, GAME, end=True))
    data = join(lines[:-cut])
    log = parse_log(data)
    if cut == 1:  # the end line only: the game is over, its end line is missing
        assert log.error.kind == "cut" and log.error.line == len(lines) and log.actions == GAME
        assert "cut" in str(log.error)
    else:  # cut before the last action: a game stopped there (nothing in the file can tell)
        assert log.error is None and not log.finished and log.appendable
        assert log.actions == GAME[: len(GAME) - cut + 1]


def test_the_end_line_must_close_the_game():
    lines = lines_of(dump_log(HEADER, GAME, end=True))
    end = lines[-1]
    log = parse_log(join(lines + [encode_action_line(EndTurn(player=0), len(GAME) + 1)[:-1]]))
    assert log.error.kind == "edited" and "after the end line" in str(log.error)
    log = parse_log(join(lines[:30] + [end]))  # an end line where the game is not over
    assert log.error.kind == "edited" and log.error.line == 31
    log = parse_log(join(lines + [end]))
    assert log.error.kind == "edited" and "second end line" in str(log.error)


def test_old_logs_without_digests_still_read():
    data = dump_log(make_header(SETUP, ("random",) * 3), GAME)
    assert b'"version":1' in data and b'"h":' not in data
    log = parse_log(data)
    assert log.error is None and log.finished and log.digest is None and log.actions == GAME


def test_a_v1_log_is_continued_with_plain_lines(tmp_path):
    p = tmp_path / "old.jsonl"
    p.write_bytes(dump_log(make_header(SETUP, ("random",) * 3), GAME[:10]))
    with LogWriter.open_append(p, 10) as w:
        for a in GAME[10:20]:
            w.append_action(a)
    assert b'"h":' not in p.read_bytes()
    log = read_log(p)
    assert log.error is None and log.actions == GAME[:20]


def test_the_writer_chains_across_reopening_and_checks_what_was_read(tmp_path):
    p = tmp_path / "g.jsonl"
    LogWriter.create_at(p, HEADER, GAME[:10]).close()
    first = read_log(p)
    with LogWriter.open_append(p, 10, digest=first.digest) as w:
        for a in GAME[10:-1]:
            w.append_action(a)
        w.append_action(GAME[-1], final=True)
        assert w.ended
        with pytest.raises(LogClosed, match="over"):
            w.append_action(EndTurn(player=0))
    log = read_log(p)
    assert log.error is None and log.ended and log.actions == GAME
    assert p.read_bytes() == dump_log(log.header, GAME, end=True)
    with pytest.raises(NotAppendable, match="over"):
        LogWriter.open_append(p, len(GAME))


def test_a_file_changed_since_it_was_read_is_not_appended_to(tmp_path):
    p = tmp_path / "g.jsonl"
    LogWriter.create_at(p, HEADER, GAME[:10]).close()
    seen = read_log(p)
    # another process appends in between: the count tells
    with LogWriter.open_append(p, 10) as other:
        other.append_action(GAME[10])
    with pytest.raises(NotAppendable, match="holds 11 actions, not 10"):
        LogWriter.open_append(p, 10, digest=seen.digest)
    # the same count with another last action: the digest tells
    q = tmp_path / "h.jsonl"
    LogWriter.create_at(q, HEADER, GAME[:9]).close()
    with LogWriter.open_append(q, 9) as w:
        w.append_action(GAME[9])
    seen = read_log(q)
    q.write_bytes(b"")
    with LogWriter.create_at(tmp_path / "tmp.jsonl", HEADER, GAME[:9]) as w2:
        w2.append_action(legal_other(10))  # type: ignore[arg-type]
    os.replace(tmp_path / "tmp.jsonl", q)
    with pytest.raises(NotAppendable, match="changed since it was read"):
        LogWriter.open_append(q, 10, digest=seen.digest)


def test_open_locked_reads_under_the_lock(tmp_path):
    p = tmp_path / "g.jsonl"
    LogWriter.create_at(p, HEADER, GAME[:5]).close()
    w, data = LogWriter.open_locked(p)
    with pytest.raises(GameInUse):
        LogWriter.open_locked(p)
    log = parse_log(data)
    with pytest.raises(NotAppendable):
        w.append_action(GAME[5])  # not before start_appending
    w.start_appending(len(log.actions), digest=log.digest)
    w.append_action(GAME[5])
    w.close()
    assert read_log(p).actions == GAME[:6]


RACER = r"""
import sys, time
from pathlib import Path
from colosseum.core.logwriter import LogWriter
import msgspec
from colosseum.core.games.colosseum.actions import Action
p = Path(sys.argv[1])
actions = msgspec.json.decode(sys.argv[2].encode(), type=list[Action])
w = LogWriter.open_append(p, int(sys.argv[3]))
for a in actions:
    w.append_action(a)
print("holding", flush=True)
sys.stdin.read()
w.close()
"""


def test_two_processes_never_append_to_one_log(tmp_path):
    """The lock is the process's: while another process records a game, this one can neither
    read it to resume nor append, and afterwards it sees what the other appended."""
    p = tmp_path / "g.jsonl"
    LogWriter.create_at(p, HEADER, GAME[:10]).close()
    proc = subprocess.Popen(
        [sys.executable, "-c", RACER, str(p), msgspec.json.encode(GAME[10:15]).decode(), "10"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "holding"
        with pytest.raises(GameInUse):
            LogWriter.open_locked(p)
        with pytest.raises(GameInUse):
            LogWriter.open_append(p, 15)
    finally:
        proc.communicate("", timeout=30)
    w, data = LogWriter.open_locked(p)
    log = parse_log(data)
    assert log.actions == GAME[:15]
    w.start_appending(15, digest=log.digest)
    w.append_action(GAME[15])
    w.close()
    assert read_log(p).error is None


# ------------------------------------------------------------------------------ write errors


def test_a_write_error_then_room_again_loses_nothing(tmp_path, monkeypatch):
    w = LogWriter.create_at(tmp_path / "g.jsonl", HEADER, GAME[:3])
    real_fsync = os.fsync
    fail = {"on": True}

    def flaky_fsync(fd: int) -> None:
        if fail["on"]:
            raise OSError(5, "Input/output error")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", flaky_fsync)
    with pytest.raises(OSError, match="Input/output"):
        w.append_action(GAME[3])
    assert w.count == 3 and read_log(w.path).actions == GAME[:3]  # the unsynced line is cut off
    fail["on"] = False
    w.append_action(GAME[3])
    assert read_log(w.path).actions == GAME[:4]
    w.close()


def test_a_failed_cut_is_retried_before_the_next_line(tmp_path, monkeypatch):
    w = LogWriter.create_at(tmp_path / "g.jsonl", HEADER, GAME[:3], fsync=False)
    real_write, real_trunc = os.write, os.ftruncate
    state = {"fail": True}

    def short(fd: int, data: bytes) -> int:
        if state["fail"]:
            real_write(fd, bytes(data[:7]))
            raise OSError(28, "No space left on device")
        return real_write(fd, data)

    def no_trunc(fd: int, size: int) -> None:
        if state["fail"]:
            raise OSError(5, "Input/output error")
        real_trunc(fd, size)

    monkeypatch.setattr(os, "write", short)
    monkeypatch.setattr(os, "ftruncate", no_trunc)
    with pytest.raises(OSError):
        w.append_action(GAME[3])
    assert parse_log((tmp_path / "g.jsonl").read_bytes()).error.kind == "truncated"
    state["fail"] = False
    w.append_action(GAME[3])
    log = read_log(w.path)
    assert log.error is None and log.actions == GAME[:4]
    w.close()


def test_create_on_a_full_disk_leaves_no_file(tmp_path, monkeypatch):
    def full(fd: int, data: bytes) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError, match="No space"):
        LogWriter.create(tmp_path / "games", "g", HEADER, GAME[:3])
    monkeypatch.undo()
    assert list((tmp_path / "games").iterdir()) == []


# ------------------------------------------------------------------------------ reading


def test_read_log_refuses_what_is_not_a_regular_file(tmp_path):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    done: list[object] = []

    def read() -> None:
        try:
            read_log(fifo)
        except GameLogError as e:
            done.append(e)

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(10)
    assert done and "not a regular file" in str(done[0])  # and it did not block
    for dev in ("/dev/zero", "/dev/urandom", "/dev/null"):
        if os.path.exists(dev):
            start = time.perf_counter()
            with pytest.raises(GameLogError, match="not a regular file"):
                read_log(dev)
            assert time.perf_counter() - start < 5
    with pytest.raises(NotAppendable, match="not a regular file"):
        LogWriter.open_locked(fifo)


def test_deeply_nested_json_and_bad_utf8_are_clean_errors():
    deep = b"[" * 100_000 + b"]" * 100_000
    for bad in (deep, b'{"round": "\xff\xfe"}', b'"\xed\xa0\x80"'):
        with pytest.raises(msgspec.DecodeError):
            decode_state(bad)
    assert decode_state(encode_state(new_game(SETUP))) == new_game(SETUP)
    lines = lines_of(dump_log(HEADER, GAME[:5]))
    log = parse_log(join(lines[:3] + [deep] + lines[3:]))
    assert log.error.kind == "malformed" and log.error.line == 4 and log.actions == GAME[:2]
    with pytest.raises(GameLogError):
        parse_log(deep + b"\n")


# ------------------------------------------------------------------------------ apply's entry


@pytest.mark.parametrize(
    "action,rule",
    [
        (OpenAuction(player=0, market=False, bid=8), "G-3.1"),  # type: ignore[arg-type]
        (OpenAuction(player=0, market=0, bid=True), "G-3.2"),  # type: ignore[arg-type]
        (PlaceStartGates(player=True, space=3), "G-0"),  # type: ignore[arg-type]
        (ChooseDice(player=0, mode="both"), "G-5.1"),  # type: ignore[arg-type]
        (ProposeDeal(player=0, transfers=(Transfer(0, 1, "coins", True),)), "G-4"),  # type: ignore[arg-type]
        (ProposeDeal(player=0, transfers=[Transfer(0, 1, "coins", 1)]), "G-4"),  # type: ignore[arg-type]
    ],
)
def test_fields_of_the_wrong_exact_type_are_refused(action, rule):
    """``bool`` is not an ``int`` and a literal must be one of its values: refused as decoding
    would refuse them (D-17), so no such action ever reaches a log it could not be read from."""
    state = new_game(SETUP)
    before = encode_state(state)
    with pytest.raises(RuleError) as err:
        apply(state, action)
    assert str(err.value).startswith(rule) and "malformed" in str(err.value)
    assert encode_state(state) == before
    assert field_error(action) is not None
    if not isinstance(getattr(action, "transfers", ()), list):  # JSON has no tuples: a list decodes
        with pytest.raises(msgspec.ValidationError):
            msgspec.json.decode(msgspec.json.encode(action), type=type(action))


def test_every_action_of_a_game_passes_the_field_check():
    assert all(field_error(a) is None for a in GAME)


def test_no_edit_of_the_actions_goes_unnoticed():
    """Random edits of a finished game's lines (another legal action, a digit of a digest,
    lines swapped, a line removed and the rest renumbered, a cut): the file read is either the
    game itself or reported, and its valid prefix is always the game's."""
    rnd = random.Random(3)
    data = dump_log(HEADER, GAME, end=True)
    base = lines_of(data)
    for _ in range(150):
        lines = base.copy()
        op = rnd.choice(["legal", "hex", "swap", "renumber", "cut"])
        k = rnd.randrange(1, len(GAME) + 1)
        if op == "legal":
            other = legal_other(k)
            if other is None:
                continue
            obj = msgspec.json.decode(encode_action_line(other, k))
            obj["h"] = msgspec.json.decode(lines[k])["h"]
            lines[k] = msgspec.json.encode(obj)
        elif op == "hex":
            digits = bytearray(lines[k])
            digits[-3] = ord("0") if digits[-3] != ord("0") else ord("1")
            lines[k] = bytes(digits)
        elif op == "swap":
            j = rnd.randrange(1, len(lines))
            lines[k], lines[j] = lines[j], lines[k]
        elif op == "renumber":
            del lines[k]
            for idx in range(k, len(lines) - 1):
                obj = msgspec.json.decode(lines[idx])
                obj["i"] = idx
                lines[idx] = msgspec.json.encode(obj)
        else:
            lines = lines[: rnd.randrange(2, len(lines))]
        log = parse_log(join(lines))
        assert log.actions == GAME[: len(log.actions)]
        if lines == base:
            assert log.error is None
        elif op != "cut":
            assert log.error is not None and log.error.kind in ("edited", "order", "illegal"), op
        elif log.error is None:  # a cut before the last action: the game looks stopped there
            assert not log.finished


def test_the_end_line_can_follow_on_its_own(tmp_path):
    with LogWriter.create_at(tmp_path / "g.jsonl", HEADER, GAME) as w:
        assert read_log(w.path).error.kind == "cut"  # over, and no end line yet
        w.append_end()
        w.append_end()  # once only
    log = read_log(tmp_path / "g.jsonl")
    assert log.error is None and log.ended
