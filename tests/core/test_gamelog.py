"""The game log format (colosseum.core.gamelog): round trips of simulated games, every kind of
damage reported as a GameLogError naming the line, and fuzzed files (hypothesis) that never
raise anything else nor change the file."""

from __future__ import annotations

import hashlib
import os
import random
from functools import cache

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from colosseum.core.gamelog import FORMAT, FORMAT_VERSION, GameLogError, dump_log, encode_action_line, make_header
from colosseum.core.games.colosseum import GameSetup, encode_state, new_game, replay
from colosseum.core.games.colosseum.actions import ACTION_TYPES, EndTurn, Roll
from colosseum.core.games.colosseum.bots import BOTS
from colosseum.core.games.colosseum.components import OPTIONS, VARIANTS
from colosseum.core.games.colosseum.rules import RULES
from colosseum.core.logread import parse_log, read_log
from colosseum.core.timeline import GameLog, Timeline
from colosseum.tui.session import LocalSession, Seat
from colosseum.tui.storage import start_recording

NAMES = ("Becky", "Kat", "Laura", "Mia", "Nora")
SOAK = max(1, int(os.environ.get("COLOSSEUM_SOAK", "1") or "1"))


def seats_for(i: int, n: int) -> tuple[Seat, ...]:
    kinds = ["random"] * n
    if "greedy" in BOTS and i % 3 == 0:
        kinds[i % n] = "greedy"
    return tuple(Seat(k) for k in kinds)


def setup_for(i: int) -> GameSetup:
    n = 3 + i % 3
    variant = VARIANTS[i % len(VARIANTS)] if i % 4 == 3 else "grand"
    options = (OPTIONS[0],) if OPTIONS and i % 5 == 4 else ()
    return GameSetup(players=NAMES[:n], seed=1000 + i, variant=variant, options=options)


def play_out(session: LocalSession, limit: int = 5000) -> None:
    while session.bot_to_act() and limit:
        session.step_bot()
        limit -= 1


@cache
def sample_game(i: int) -> tuple[GameSetup, tuple[str, ...], tuple, bytes]:
    """(setup, seat kinds, actions, final state encoded) of simulated game ``i``."""
    setup = setup_for(i)
    seats = seats_for(i, len(setup.players))
    s = LocalSession(setup, seats)
    play_out(s)
    return setup, tuple(x.kind for x in seats), tuple(s.actions), encode_state(s.state)


def sample_bytes(i: int, version: int = FORMAT_VERSION) -> bytes:
    """Game ``i`` as its log file (with digests and the end line unless ``version`` is 1)."""
    setup, kinds, actions, _ = sample_game(i)
    return dump_log(make_header(setup, kinds, version=version), actions, end=True)


# ------------------------------------------------------------------------------ round trip


@pytest.mark.parametrize("i", range(30 * SOAK))
def test_round_trip_recorded_game(tmp_path, i):
    """A game recorded while played is read back, replayed, and ends in the same state."""
    setup = setup_for(i)
    seats = seats_for(i, len(setup.players))
    s = LocalSession(setup, seats)
    # record from the start, or from the middle (a session that already holds actions)
    if i % 2:
        for _ in range(7):
            s.step_bot()
    path = start_recording(s, tmp_path / "game.jsonl")
    play_out(s)
    s.recorder.close()
    log = read_log(path)
    assert log.error is None, log.error
    assert log.intact and log.appendable
    assert log.setup == setup
    assert log.seats == tuple(x.kind for x in seats)
    assert log.actions == s.actions
    assert encode_state(log.state) == encode_state(s.state)
    assert encode_state(replay(log.setup, log.actions)[0]) == encode_state(s.state)
    assert log.finished == (s.state.phase == "over")
    # byte-identical when written again (one canonical encoding)
    body = path.read_bytes().split(b"\n", 1)[1]
    assert dump_log(log.header, log.actions, end=log.finished).split(b"\n", 1)[1] == body


def test_every_action_type_round_trips():
    from colosseum.core.games.colosseum.actions import ProposeDeal
    from colosseum.core.games.colosseum.model import Transfer

    samples = []
    for t in ACTION_TYPES:
        fields = {}
        for f in msgspec.structs.fields(t):
            if f.name == "transfers":
                fields[f.name] = (Transfer(0, 1, "G", 2), Transfer(1, 0, "coins", 3))
            elif f.default is not msgspec.NODEFAULT:
                continue
            elif f.type is int:
                fields[f.name] = 1
            elif f.type is str:
                fields[f.name] = "G"
            else:  # a Literal
                fields[f.name] = f.type.__args__[0]
        samples.append(t(**fields))
    assert any(isinstance(a, ProposeDeal) for a in samples)
    from colosseum.core.games.colosseum.actions import decode_action

    for n, a in enumerate(samples, 1):
        line = encode_action_line(a, n)
        assert line.endswith(b"\n") and line.count(b"\n") == 1
        assert line.startswith(b'{"i":%d,"a":' % n)
        assert decode_action(line) == a


def test_header_is_readable_and_complete():
    setup = GameSetup(players=("Becky", "Kat", "Laura"), seed=7, first_player=1)
    line = dump_log(make_header(setup, ("human", "greedy", "random"), version=FORMAT_VERSION), ()).decode()
    obj = msgspec.json.decode(line)
    assert obj["format"] == FORMAT and obj["version"] == FORMAT_VERSION
    assert obj["program"] and obj["created"].endswith("Z")
    # the fields left at their defaults are not written (variant "grand", no options, no secret)
    assert obj["setup"] == {"players": ["Becky", "Kat", "Laura"], "seed": 7, "first_player": 1}
    assert obj["seats"] == ["human", "greedy", "random"]
    log = parse_log(line.encode())
    assert log.actions == [] and log.error is None and log.state == new_game(setup)


# ------------------------------------------------------------------------------ damaged files


def lines_of(data: bytes) -> list[bytes]:
    return data.split(b"\n")[:-1]


def join(lines: list[bytes]) -> bytes:
    return b"".join(x + b"\n" for x in lines)


def test_empty_file():
    with pytest.raises(GameLogError) as e:
        parse_log(b"")
    assert e.value.kind == "empty" and "empty" in str(e.value)


def test_not_a_log():
    with pytest.raises(GameLogError) as e:
        parse_log(b"hello\n")
    assert e.value.kind == "header" and e.value.line == 1 and "line 1" in str(e.value)
    with pytest.raises(GameLogError) as e:
        parse_log(b'{"a":"roll","player":0}\n')
    assert e.value.kind == "header"


def test_unknown_version():
    data = sample_bytes(0).replace(b'"version":2', b'"version":5', 1)
    with pytest.raises(GameLogError) as e:
        parse_log(data)
    assert e.value.kind == "version" and e.value.line == 1
    assert "unknown format version 5" in str(e.value) and "update to read it" in str(e.value)


def test_a_setup_field_this_program_does_not_know_is_refused_not_dropped():
    """A newer program's option (here a made-up one) must not replay as a different game."""
    data = sample_bytes(0).replace(b'"setup":{', b'"setup":{"dice_sides":8,', 1)
    with pytest.raises(GameLogError) as e:
        parse_log(data)
    assert e.value.kind == "version" and e.value.line == 1
    assert "dice_sides" in str(e.value) and "does not know" in str(e.value)


def test_a_setup_that_needs_a_newer_reader_is_written_as_version_3(tmp_path):
    """A house rule away from its default (or a server game's secret) makes the log version 3,
    which a version 2 reader refuses; without one the log stays version 2."""
    from colosseum.core.logwriter import LogWriter

    plain = GameSetup(players=("A", "B", "C"), seed=1)
    house = GameSetup(players=("A", "B", "C"), seed=1, starting_coins=12)
    for setup, version in ((plain, 2), (house, 3)):
        w = LogWriter.create(tmp_path, f"v{version}", make_header(setup, ("human",) * 3), fsync=False)
        w.close()
        log = parse_log(w.path.read_bytes())
        assert log.header.version == version and log.error is None and log.setup == setup
        assert log.state.players[0].coins == (12 if version == 3 else 30)


def test_truncated_header():
    data = sample_bytes(0)
    with pytest.raises(GameLogError) as e:
        parse_log(data[:40])
    assert e.value.kind == "truncated" and e.value.line == 1


def test_bad_setup_in_header():
    data = sample_bytes(0).replace(b'"setup":{', b'"setup":{"variant":"mega",', 1)
    assert b'"variant":"mega"' in data
    with pytest.raises(GameLogError) as e:
        parse_log(data)
    assert e.value.kind == "header" and "mega" in str(e.value)


def test_truncated_last_line_gives_the_prefix():
    data = sample_bytes(1)
    lines = lines_of(data)
    cut = join(lines[:20]) + lines[20][:15]
    log = parse_log(cut)
    assert log.error.kind == "truncated" and log.error.line == 21
    assert "line 21" in str(log.error)
    assert log.actions == list(sample_game(1)[2][:19])
    assert not log.appendable


def test_missing_final_newline_is_intact_but_not_appendable():
    data = sample_bytes(1)
    log = parse_log(data[:-1])
    assert log.error is None and not log.terminated and not log.appendable
    assert len(log.actions) == len(sample_game(1)[2])


def test_corrupted_bytes():
    data = bytearray(sample_bytes(1))
    lines = lines_of(bytes(data))
    pos = len(join(lines[:10])) + 5  # inside line 11
    data[pos] = 0xFF
    log = parse_log(bytes(data))
    assert log.error.kind == "encoding" and log.error.line == 11
    assert "not UTF-8" in str(log.error) and "line 11" in str(log.error)
    assert len(log.actions) == 9


def test_malformed_action():
    lines = lines_of(sample_bytes(1))
    lines[5] = b'{"i":5,"a":"teleport","player":0}'
    log = parse_log(join(lines))
    assert log.error.kind == "malformed" and log.error.line == 6 and len(log.actions) == 4
    lines[5] = b'{"i":5,"a":"roll",'
    log = parse_log(join(lines))
    assert log.error.kind == "malformed" and "not valid JSON" in str(log.error)


def test_illegal_action_names_the_line_and_the_rule():
    setup, kinds, actions, _ = sample_game(1)
    acts = list(actions)
    acts.insert(3, Roll(player=0))  # rolling dice during setup
    log = parse_log(dump_log(make_header(setup, kinds), acts))
    assert log.error.kind == "illegal" and log.error.line == 5
    assert "action 4" in str(log.error) and "roll by seat 0" in str(log.error)
    assert log.actions == list(actions[:3])


def test_action_after_the_end():
    setup, kinds, actions, final = sample_game(2)
    acts = list(actions) + [EndTurn(player=0)]
    log = parse_log(dump_log(make_header(setup, kinds), acts))
    assert log.error.kind == "illegal" and "G-9" in str(log.error)
    assert encode_state(log.state) == final


@pytest.mark.parametrize("how", ["swap", "duplicate", "delete"])
def test_swapped_duplicated_missing_lines(how):
    lines = lines_of(sample_bytes(1))
    k = 12
    if how == "swap":
        lines[k], lines[k + 1] = lines[k + 1], lines[k]
    elif how == "duplicate":
        lines.insert(k, lines[k])
    else:
        del lines[k]
    log = parse_log(join(lines))
    assert log.error is not None and log.error.line == k + 1 + (1 if how == "duplicate" else 0)
    assert log.error.kind in ("order", "illegal")
    assert log.actions == list(sample_game(1)[2][: len(log.actions)])


def test_lines_without_numbers_are_accepted():
    setup, kinds, actions, final = sample_game(1)
    body = [msgspec.json.encode(a) for a in actions]
    data = dump_log(make_header(setup, kinds), ()) + join(body)
    log = parse_log(data)
    assert log.error is None and encode_state(log.state) == final


def test_blank_lines_are_ignored():
    lines = lines_of(sample_bytes(1))
    lines.insert(4, b"   ")
    log = parse_log(join(lines) + b"\n")
    assert log.error is None and len(log.actions) == len(sample_game(1)[2])


def test_read_log_errors(tmp_path):
    with pytest.raises(GameLogError) as e:
        read_log(tmp_path / "nope.jsonl")
    assert e.value.kind == "unreadable"
    with pytest.raises(GameLogError) as e:
        read_log(tmp_path)
    assert e.value.kind == "unreadable"


# ------------------------------------------------------------------------------ the timeline


def test_timeline_navigation():
    setup, kinds, actions, final = sample_game(4)
    tl = Timeline(RULES, setup, actions)
    assert len(tl) == len(actions) + 1
    assert encode_state(tl.state(tl.end)) == final
    for kind in ("action", "turn", "phase", "round"):
        # forward then backward visits the same starts
        fwd = [0]
        while fwd[-1] < tl.end:
            nxt = tl.next(kind, fwd[-1])
            assert nxt > fwd[-1]
            fwd.append(nxt)
        back = [tl.end]
        while back[-1] > 0:
            prv = tl.prev(kind, back[-1])
            assert prv < back[-1]
            back.append(prv)
        assert fwd == back[::-1], kind
    rounds = [tl.state(i).round for i in [0, *_starts(tl, "round")]]
    assert rounds == sorted(rounds)
    # every phase start really starts a new phase
    for i in _starts(tl, "phase")[:-1]:
        a, b = tl.state(i - 1), tl.state(i)
        assert (a.round, a.phase) != (b.round, b.phase)
    assert len(_starts(tl, "action")) == len(actions)
    assert len(_starts(tl, "turn")) > len(_starts(tl, "phase")) > len(_starts(tl, "round"))


def _starts(tl, kind):
    out, i = [], 0
    while i < tl.end:
        i = tl.next(kind, i)
        out.append(i)
    return out


def test_timeline_events_match_replay():
    setup, kinds, actions, final = sample_game(5)
    tl = Timeline(RULES, setup, actions)
    _, events = replay(setup, actions)
    assert [e for _, e in tl.all_events()] == events
    assert tl.events(0) == []


# ------------------------------------------------------------------------------ fuzzing


def check_parse(data: bytes, original: tuple) -> GameLog | None:
    """Parsing never raises anything but GameLogError; a result is self-consistent."""
    try:
        log = parse_log(data)
    except GameLogError as e:
        assert e.kind in ("empty", "header", "version", "encoding", "truncated", "engine")
        assert str(e)
        return None
    if log.error is not None:
        last = log.lines + (1 if log.error.kind == "cut" else 0)  # a cut names the missing line
        assert log.error.line is not None and 2 <= log.error.line <= last
        assert f"line {log.error.line}" in str(log.error)
        kinds = ("encoding", "truncated", "malformed", "order", "illegal", "engine", "edited", "cut")
        assert log.error.kind in kinds
    assert encode_state(replay(log.setup, log.actions)[0]) == encode_state(log.state)
    return log


def mutate(data: bytes, ops: list[tuple[str, int, int]]) -> bytes:
    for op, a, b in ops:
        if not data:
            break
        if op == "truncate":
            data = data[: a % (len(data) + 1)]
        elif op == "flip":
            buf = bytearray(data)
            buf[a % len(buf)] = b % 256
            data = bytes(buf)
        else:
            lines = data.split(b"\n")
            i, j = a % len(lines), b % len(lines)
            if op == "swap":
                lines[i], lines[j] = lines[j], lines[i]
            elif op == "duplicate":
                lines.insert(j, lines[i])
            elif op == "delete":
                del lines[i]
            elif op == "version":
                data = data.replace(b'"version":1', b'"version":%d' % (b % 5), 1)
                continue
            data = b"\n".join(lines)
    return data


OPS = st.lists(
    st.tuples(
        st.sampled_from(["truncate", "flip", "swap", "duplicate", "delete", "version"]),
        st.integers(0, 1 << 20),
        st.integers(0, 1 << 20),
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=150 * SOAK, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.integers(0, 5), ops=OPS)
def test_fuzzed_logs(tmp_path, game, ops):
    original = sample_bytes(game)
    data = mutate(original, ops)
    path = tmp_path / "fuzz.jsonl"
    path.write_bytes(data)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    try:
        log = read_log(path)
    except GameLogError:
        log = None
    check_parse(data, sample_game(game)[2])
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    if log is not None and all(op == "truncate" for op, _, _ in ops):
        # a cut file gives a prefix of the game, missing at most the cut line
        full = list(sample_game(game)[2])
        assert log.actions == full[: len(log.actions)]
        complete = data.count(b"\n") - 1
        assert len(log.actions) >= min(complete, len(full))


@settings(max_examples=100 * SOAK, deadline=None)
@given(data=st.binary(max_size=400))
def test_arbitrary_bytes(data):
    check_parse(data, ())


@settings(max_examples=100 * SOAK, deadline=None)
@given(game=st.integers(0, 5), line=st.integers(1, 400), junk=st.text(max_size=60))
def test_arbitrary_action_lines(game, line, junk):
    lines = lines_of(sample_bytes(game))
    k = line % len(lines) or 1
    lines[k] = junk.replace("\n", " ").encode()
    log = check_parse(join(lines), sample_game(game)[2])
    assert log is not None
    assert len(log.actions) >= k - 1 or log.error is not None


@settings(max_examples=60 * SOAK, deadline=None)
@given(
    game=st.integers(0, 5),
    line=st.integers(1, 400),
    field=st.sampled_from(["player", "space", "bid", "noble", "steps", "die", "count", "first", "market"]),
    value=st.one_of(st.integers(-(1 << 70), 1 << 70), st.none(), st.text(max_size=5), st.booleans()),
)
def test_wrong_field_values(game, line, field, value):
    """Type-correct but out-of-range values must come back as RuleError text, not a crash."""
    lines = lines_of(sample_bytes(game))
    k = line % len(lines) or 1
    obj = msgspec.json.decode(lines[k])
    obj[field] = value
    lines[k] = msgspec.json.encode(obj)
    log = check_parse(join(lines), sample_game(game)[2])
    assert log is not None
    if log.error is not None:
        assert log.error.kind != "engine", str(log.error)


def test_random_seeds_shuffle_soak():
    """Many random single-byte flips over a whole game (cheap, deterministic)."""
    rnd = random.Random(5)
    data = sample_bytes(3)
    for _ in range(200 * SOAK):
        buf = bytearray(data)
        buf[rnd.randrange(len(buf))] = rnd.randrange(256)
        check_parse(bytes(buf), sample_game(3)[2])


def test_chat_lines_are_kept_and_change_nothing():
    """Table talk is kept in the game log; it is not an action and the replay ignores it."""
    from colosseum.core import gamelog as GL
    from colosseum.core.games.colosseum import GameSetup
    from colosseum.core.games.colosseum.actions import PlaceStartGates

    setup = GameSetup(players=("Becky", "Kat", "Laura"), seed=3, first_player=0)
    header = GL.make_header(setup, ["human", "human", "human"])
    data = (
        GL.encode_header(header)
        + GL.encode_chat_line(GL.ChatLine(chat="good luck", name="Becky", seat=0, after=0))
        + GL.encode_action_line(PlaceStartGates(player=2, space=8), 1)
        + GL.encode_chat_line(GL.ChatLine(chat="thanks", name="Laura", seat=2, after=1))
    )
    log = parse_log(data)
    assert log.intact
    assert len(log.actions) == 1
    assert [c.chat for c in log.chat] == ["good luck", "thanks"]
    assert log.chat[1].after == 1
    broken = parse_log(data + b'{"chat": 5}\n')
    assert broken.error is not None and broken.error.kind == "malformed" and broken.error.line == 5
