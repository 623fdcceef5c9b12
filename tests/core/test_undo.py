"""Taking back (core/undo.py) and undo lines in the game log (core/gamelog.py)."""

from __future__ import annotations

import pytest

from colosseum.core.gamelog import (
    PLAIN_VERSION,
    READ_VERSIONS,
    UNDO_VERSION,
    Chain,
    GameLogError,
    UndoLine,
    dump_log,
    make_header,
)
from colosseum.core.games.colosseum import Action, GameSetup, State, apply, encode_state, new_game
from colosseum.core.games.colosseum.bots import make_bot
from colosseum.core.games.colosseum.engine import to_act
from colosseum.core.games.colosseum.rules import RULES
from colosseum.core.logread import parse_log
from colosseum.core.undo import chance_in, undo_reach

SETUP = GameSetup(players=("Becky", "Kat", "Laura"), seed=11)


def played(n: int, setup: GameSetup = SETUP) -> tuple[list[State], list[Action]]:
    """The first ``n`` actions of an all-bot game and its states."""
    bots = {i: make_bot("greedy", seed=i) for i in range(len(setup.players))}
    state = new_game(setup)
    states, actions = [state], []
    for _ in range(n):
        if state.phase == "over":
            break
        action = bots[to_act(state)].act(state)
        state, _ = apply(state, action)
        states.append(state)
        actions.append(action)
    return states, actions


def test_reach_stops_at_chance_and_at_other_humans():
    states, actions = played(400)
    for end in range(1, len(actions) + 1):
        for seat in range(3):
            for humans in ({seat}, {0, 1, 2}):
                reach = undo_reach(RULES, states[: end + 1], actions[:end], seat, humans)
                assert reach.seat == seat
                assert list(reach.targets) == sorted(reach.targets, reverse=True)
                floor = min(reach.targets, default=end)
                for i in range(floor, end):  # every withdrawn action: no chance, no other human
                    assert not chance_in(RULES, states[i], states[i + 1])
                    assert actions[i].player == seat or actions[i].player not in humans
                for t in reach.targets:
                    assert actions[t].player == seat and to_act(states[t]) == seat
                if reach.steps == 0:
                    assert reach.reason and reach.short


def test_reasons_name_the_boundary():
    states, actions = played(400)
    kinds = set()
    for end in range(1, len(actions) + 1):
        r = undo_reach(RULES, states[: end + 1], actions[:end], 0, {0, 1})
        kinds.add(r.short)
        if r.short == "Kat acted":
            assert "Kat acted since" in r.reason
        if r.short == "dice":
            assert "a die was rolled" in r.reason
    assert {"dice", "draw", "Kat acted"} <= kinds


def test_chance_is_what_the_generator_or_the_hidden_tiles_say():
    states, actions = played(400)
    for i, a in enumerate(actions):
        before, after = states[i], states[i + 1]
        assert bool(chance_in(RULES, before, after)) == (before.rng != after.rng or before.aside != after.aside)
        if type(a).__name__ == "Roll":
            assert chance_in(RULES, before, after)


def test_reach_needs_one_state_per_position():
    states, actions = played(5)
    with pytest.raises(ValueError):
        undo_reach(RULES, states, actions[:-1], 0, {0})


# ------------------------------------------------------------------------------ the log


def log_with_undo(
    states: list[State], actions: list[Action], at: int, end: int, then: list[Action], version: int = UNDO_VERSION
) -> bytes:
    header = make_header(SETUP, ("human", "greedy", "greedy"), version=version)
    chain, data = Chain.for_header(header)
    for a in actions[:end]:
        data += chain.action_line(a)
    data += chain.undo_line(UndoLine(undo=at + 1, through=end, seat=0, name="Becky", text="Becky took back: x"))
    for a in then:
        data += chain.action_line(a)
    return data


def test_a_log_with_undos_replays_to_the_position_that_stands():
    states, actions = played(120)
    at, end = 40, 47
    data = log_with_undo(states, actions, at, end, actions[at:60])
    log = parse_log(data)
    assert log.error is None
    assert log.actions == actions[:60]
    assert encode_state(log.state) == encode_state(states[60])
    (w,) = log.undos
    assert w.at == at and w.actions == tuple(actions[at:end]) and w.line.name == "Becky" and w.lineno == end + 2
    # an undo as the last line: the game stands at the position before the withdrawn actions
    log = parse_log(log_with_undo(states, actions, at, end, []))
    assert log.error is None and encode_state(log.state) == encode_state(states[at]) and log.timeline.end == at


def test_undo_lines_are_checked():
    states, actions = played(60)
    bad = log_with_undo(states, actions, 20, 30, []).replace(b'"through":30', b'"through":29')
    log = parse_log(bad)
    assert log.error is not None and log.error.kind == "order" and log.actions == actions[:30]
    v1 = log_with_undo(states, actions, 20, 30, [], version=PLAIN_VERSION)
    log = parse_log(v1)
    assert log.error is not None and log.error.kind == "malformed" and "version 1" in str(log.error)
    cut = log_with_undo(states, actions, 20, 30, [])[:-5]
    log = parse_log(cut)
    assert log.error is not None and log.error.kind == "truncated" and len(log.actions) == 30


def test_newer_versions_are_refused_with_a_clear_message():
    states, actions = played(5)
    data = dump_log(make_header(SETUP, ("human",) * 3, version=max(READ_VERSIONS) + 1), actions)
    with pytest.raises(GameLogError) as e:
        parse_log(data)
    assert e.value.kind == "version" and "newer colosseum" in str(e.value)


def test_fork_reference_in_the_header():
    header = make_header(SETUP, ("human",) * 3, fork_of="parent.jsonl", fork_at=12)
    log = parse_log(dump_log(header, []))
    assert log.header.fork_of == "parent.jsonl" and log.header.fork_at == 12
    assert b"fork_of" not in dump_log(make_header(SETUP, ("human",) * 3), [])


def test_undo_lines_are_in_the_digest_chain():
    states, actions = played(60)
    data = log_with_undo(states, actions, 20, 30, actions[20:25])
    lines = data.split(b"\n")
    undo = next(i for i, line in enumerate(lines) if line.startswith(b'{"undo"'))
    assert b'"h":"' in lines[undo]
    edited = data.replace(b"Becky took back: x", b"Becky took back: y")
    log = parse_log(edited)
    assert log.error is not None and log.error.kind == "edited" and log.error.line == undo + 1
    removed = b"\n".join(lines[:undo] + lines[undo + 1 :])
    log = parse_log(removed)
    assert log.error is not None and log.error.kind in ("edited", "order")
    assert len(log.actions) <= 30


def test_writer_appends_undo_lines_and_continues_after_them(tmp_path):
    from colosseum.core.logwriter import LogWriter, NotAppendable

    states, actions = played(40)
    header = make_header(SETUP, ("human", "greedy", "greedy"))
    with LogWriter.create(tmp_path, "g", header, actions[:10], fsync=False) as w:
        w.append_undo(UndoLine(undo=8, through=10, seat=0, name="Becky"))
        assert w.count == 7
        w.append_action(actions[7])
        path = w.path
    log = parse_log(path.read_bytes())
    assert log.error is None and log.actions == actions[:8] and len(log.undos) == 1
    # the count check reads an undo line as the last line: an undo back to the start too
    with LogWriter.open_append(path, 8, digest=log.digest, fsync=False) as w:
        with pytest.raises(ValueError):
            w.append_undo(UndoLine(undo=3, through=7))
        w.append_undo(UndoLine(undo=1, through=8))
    log = parse_log(path.read_bytes())
    assert log.error is None and log.actions == [] and len(log.undos) == 2
    with pytest.raises(NotAppendable):
        LogWriter.open_append(path, 7, fsync=False)
    with LogWriter.open_append(path, 0, digest=log.digest, fsync=False) as w:
        w.append_action(actions[0])
    log = parse_log(path.read_bytes())
    assert log.error is None and log.actions == actions[:1]
