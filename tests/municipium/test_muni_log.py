"""Municipium game logs and the game interface (core.games): a log names its game, goes through
the one writer, replays byte-exact; Colosseum's logs read (and are written) as before."""

from __future__ import annotations

import msgspec
import pytest

from colosseum.core.gamelog import Header, dump_log, make_header
from colosseum.core.games.colosseum import GameSetup
from colosseum.core.games.colosseum import new_game as colosseum_new_game
from colosseum.core.games.municipium import MuniSetup, apply, new_game, to_act
from colosseum.core.logread import parse_log, read_log
from colosseum.core.logwriter import LogWriter
from colosseum.core.options import OptionError
from colosseum.core.registry import game_names, rules, spec

COLOSSEUM, MUNICIPIUM = rules("colosseum"), rules("municipium")


def bots_game(setup: MuniSetup, limit: int | None = None) -> list:
    bots = [MUNICIPIUM.make_bot("normal", 7 + i) for i in range(len(setup.players))]
    st, actions = new_game(setup), []
    while st.phase != "over" and (limit is None or len(actions) < limit):
        a = bots[to_act(st)].act(st)
        st, _ = apply(st, a)
        actions.append(a)
    return actions


def test_the_registry_names_both_games():
    assert game_names() == ("colosseum", "municipium")
    assert spec(None) is COLOSSEUM.spec  # a log header that names no game is Colosseum's
    assert rules("municipium") is MUNICIPIUM
    with pytest.raises(ValueError):
        spec("chess")
    assert (MUNICIPIUM.spec.min_players, MUNICIPIUM.spec.max_players) == (2, 4)
    assert (COLOSSEUM.spec.min_players, COLOSSEUM.spec.max_players) == (3, 5)
    assert MUNICIPIUM.level_of("greedy") == "normal" == COLOSSEUM.level_of("greedy")


def test_m13_options_go_through_the_interface():
    setup = MUNICIPIUM.spec.make_setup(("A", "B"), seed=1, options=("short", "single-chamber"))
    assert setup == MuniSetup(players=("A", "B"), seed=1, options=("short", "single-chamber"))
    (option,) = MUNICIPIUM.spec.options
    assert option.kind == "flags" and [c.value for c in option.choices] == ["short", "single-chamber"]
    with pytest.raises(OptionError):
        MUNICIPIUM.spec.make_setup(("A", "B"), seed=1, variant="grand")
    with pytest.raises(OptionError):
        MUNICIPIUM.spec.make_setup(("A", "B"), seed=1, options=("long",))


def test_interface_plays_a_whole_game_and_names_the_winner():
    setup = MUNICIPIUM.spec.make_setup(("A", "B", "C"), seed=5)
    st = MUNICIPIUM.new_game(setup)
    actions = bots_game(setup)
    for a in actions:
        assert MUNICIPIUM.decode_action(MUNICIPIUM.encode(a)) == a
        st, _ = MUNICIPIUM.apply(st, a)
    assert MUNICIPIUM.is_over(st) and MUNICIPIUM.to_act(st) == -1
    assert MUNICIPIUM.winners(st) == (st.result.winner,)
    assert MUNICIPIUM.decode_state(MUNICIPIUM.encode(st)) == st
    view = MUNICIPIUM.player_view(st, 0)
    assert view.rng == 0 and view.setup.seed == 0


def test_colosseum_header_names_no_game_and_reads_byte_identically():
    setup = GameSetup(players=("A", "B", "C"), seed=3)
    header = make_header(setup, ("human", "random", "random"))
    assert type(header) is Header and header.game is None
    line = msgspec.json.encode(header)
    assert b'"game"' not in line
    assert colosseum_new_game(setup) is not None
    data = dump_log(header, [])
    log = parse_log(data)
    assert log.game == "colosseum" and log.rules is COLOSSEUM
    assert dump_log(log.header, log.actions) == data


def test_muni_log_round_trip_is_byte_exact(tmp_path):
    """Play, save through the one writer, read, resume (append), and replay byte-exact."""
    setup = MuniSetup(players=("Ann", "小明", "Cy"), seed=11, options=("short",))
    actions = bots_game(setup)
    header = make_header(setup, ("human", "normal", "normal"))
    assert isinstance(header, Header) and header.game == "municipium"
    half = len(actions) // 2
    w = LogWriter.create(tmp_path, "g", header, actions[:half], fsync=False)
    w.close()
    first = read_log(w.path)
    assert first.error is None and first.game == "municipium" and not first.finished
    assert first.actions == actions[:half]
    # resume: continue the same file under its lock
    w2 = LogWriter.open_append(w.path, len(first.actions), digest=first.digest, fsync=False)
    for a in actions[half:-1]:
        w2.append_action(a)
    w2.append_action(actions[-1], final=True)
    w2.close()
    log = read_log(w.path)
    assert log.error is None and log.ended and log.finished
    assert log.actions == actions
    st = new_game(setup)
    for a in actions:
        st, _ = apply(st, a)
    assert log.state == st
    # the same header and actions make the same bytes
    assert dump_log(log.header, log.actions, end=True) == w.path.read_bytes()
    assert log.timeline.next("round", 0) > 0  # the viewer's turns


def test_muni_log_edited_line_is_reported(tmp_path):
    setup = MuniSetup(players=("A", "B"), seed=2)
    actions = bots_game(setup, limit=20)
    data = dump_log(make_header(setup, ("human", "human"), version=2), actions)
    lines = data.split(b"\n")
    lines[5] = lines[5].replace(b'"player":', b'"player": ')
    log = parse_log(b"\n".join(lines))
    assert log.error is not None and log.error.kind == "edited" and log.error.line == 6
    assert len(log.actions) == 4


def test_unknown_game_is_refused():
    from colosseum.core.gamelog import GameLogError

    line = b'{"format":"colosseum-game-log","version":2,"program":"x","created":"","setup":{},"seats":[],"game":"go"}\n'
    with pytest.raises(GameLogError) as err:
        parse_log(line)
    assert "does not play" in str(err.value)
