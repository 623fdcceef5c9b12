"""One conformance test over every game (OpenSpiel's way): Colosseum, Municipium and the tests'
toy game (Nim, ``tests/toygame.py``), each through the game interface alone.

Random and normal bots play seeded games; at every step the interface's promises are checked:
whose turn, legal actions until the end, a refused action leaves the state as it was, states
and actions survive their codecs, a player's view holds nothing of the chance to come, the
result is ranks per seat; the game replays byte for byte from its log; bots never stall."""

from __future__ import annotations

import msgspec
import pytest
import toygame
from scripts_module import script

from colosseum.core.errors import RuleError
from colosseum.core.gamelog import dump_log, make_header
from colosseum.core.logread import parse_log
from colosseum.core.logwriter import LogWriter
from colosseum.core.options import OptionError, option_specs
from colosseum.core.registry import game_names, register, rules, spec, unregister
from colosseum.core.rng import new_secret
from colosseum.core.undo import undo_reach


@pytest.fixture(autouse=True, scope="module")
def _nim():
    register(toygame.SPEC)
    yield
    unregister("nim")


GAMES = ["colosseum", "municipium", "nim"]


def test_the_registry_finds_the_shipped_games_and_the_toy():
    assert game_names(discover=False)[:2] == ("colosseum", "municipium")
    assert "nim" in game_names()
    assert spec(None).name == "colosseum"
    with pytest.raises(ValueError, match="unknown game"):
        spec("chess")


def test_the_entry_points_name_the_built_in_games():
    from importlib.metadata import entry_points

    from colosseum.core.registry import BUILTIN, GROUP

    assert {ep.name: ep.value for ep in entry_points(group=GROUP)} == BUILTIN


def _setup(name: str, n: int, seed: int, secret: str = ""):
    found = spec(name)
    return found.make_setup(found.default_names[:n], seed=seed, secret=secret)


def _play(name: str, n: int, seed: int, level: str, *, secret: str = "", limit: int = 4000, to_end: bool = True):
    game = rules(name)
    setup = _setup(name, n, seed, secret)
    state = game.new_game(setup)
    bots = [game.make_bot(level, seed * 10 + i) for i in range(n)]
    states, actions = [state], []
    while not game.is_over(state) and len(actions) < limit:
        seat = game.to_act(state)
        assert 0 <= seat < n
        legal = game.legal_actions(state)
        assert legal, f"no legal action at step {len(actions)}"
        action = bots[seat].act(state)
        try:
            state, events = game.apply(state, action)
        except RuleError:
            action = game.fallback_action(state)
            state, events = game.apply(state, action)
        assert all(isinstance(e.text, str) for e in events)
        states.append(state)
        actions.append(action)
    assert game.is_over(state) or not to_end, f"{name} did not end in {limit} actions"
    return setup, states, actions


@pytest.mark.parametrize("name", GAMES)
def test_options_are_declared_and_checked(name):
    found = spec(name)
    for option in option_specs(found.setup_type):
        assert option.label and option.kind in ("choice", "flags", "count", "seat", "switch")
    setup = _setup(name, found.default_players, 1)
    assert msgspec.json.decode(msgspec.json.encode(setup), type=found.setup_type) == setup
    with pytest.raises(OptionError):
        found.make_setup(found.default_names[:2], seed=True)  # a bool is not a seed
    with pytest.raises(OptionError):
        found.make_setup(found.default_names[:2], seed=1, no_such_option=1)
    with pytest.raises(RuleError):
        found.rules().new_game(found.make_setup(("A",) * (found.max_players + 1), seed=1))


@pytest.mark.parametrize("name", GAMES)
def test_the_first_seat_is_a_seat_and_the_one_a_seat_option_chooses(name):
    """``Rules.first_seat`` (a rematch rotates it): None, or a seat; a ``seat`` option set to a
    seat makes that seat the first."""
    found = spec(name)
    game = rules(name)
    seat_options = [o for o in option_specs(found.setup_type) if o.kind == "seat"]
    for n in found.player_counts:
        for seed in range(3):
            first = game.first_seat(game.new_game(_setup(name, n, seed)))
            assert first is None or 0 <= first < n
            for option in seat_options:
                for k in range(n):
                    setup = found.make_setup(found.default_names[:n], seed=seed, **{option.name: k})
                    assert game.first_seat(game.new_game(setup)) in (None, k)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("level", ["random", "normal"])
def test_whole_games_keep_every_promise(name, level):
    game = rules(name)
    found = game.spec
    for n in (found.min_players, found.max_players):
        setup, states, actions = _play(name, n, 3 + n, level)
        final = states[-1]
        ranks = game.ranks(final)
        assert ranks is not None and len(ranks) == n and min(ranks) == 1 and all(1 <= r <= n for r in ranks)
        assert game.winners(final) and game.to_act(final) == -1 and not game.legal_actions(final)
        assert len(game.scores(final)) == n and len(game.names(final)) == n
        for i in range(0, len(states), max(1, len(states) // 25)):
            st = states[i]
            assert game.ranks(st) is None or i == len(states) - 1
            assert game.decode_state(game.encode(st)) == st
            view = game.player_view(st, 0)
            assert view.rng == 0 and view.setup.seed == 0 and view.setup.secret == ""
            if i < len(actions):
                a = actions[i]
                assert game.decode_action(game.encode(a)) == a
                assert isinstance(game.describe(a), str) and game.describe(a)
                # an action of a seat not to act is refused, the state untouched
                other = (game.to_act(st) + 1) % n
                forged = msgspec.structs.replace(a, player=other)
                if not game.may_act(st, other, forged):
                    before = game.encode(st)
                    with pytest.raises(RuleError):
                        game.apply(st, forged)
                    assert game.encode(st) == before


@pytest.mark.parametrize("name", GAMES)
def test_a_game_replays_byte_for_byte_from_its_log(name, tmp_path):
    game = rules(name)
    setup, states, actions = _play(name, game.spec.default_players, 11, "normal", secret=new_secret())
    header = make_header(setup, ("human",) + ("normal",) * (len(setup.players) - 1))
    assert (header.game is None) == (name == "colosseum")
    writer = LogWriter.create(tmp_path, "g", header, actions, fsync=False, end=True)
    writer.close()
    log = parse_log(writer.path.read_bytes())
    assert log.error is None and log.finished and log.game == name
    assert log.header.version == type(setup).secret_since  # 3; Municipium's 4 (D-96)
    assert game.encode(log.state) == game.encode(states[-1])
    again = parse_log(dump_log(log.header, log.actions))
    assert game.encode(again.state) == game.encode(states[-1])
    # the timeline steps by the game's own segments
    tl = log.timeline
    assert tl.next("round", 0) > 0 and tl.prev("turn", tl.end) < tl.end


@pytest.mark.parametrize("name", GAMES)
def test_take_backs_stop_at_chance_and_at_other_people(name):
    game = rules(name)
    n = game.spec.default_players
    setup, states, actions = _play(name, n, 5, "normal", limit=60, to_end=False)
    for end in range(1, len(actions) + 1):
        reach = undo_reach(game, states[: end + 1], actions[:end], 0, {0, 1})
        for target in reach.targets:
            for i in range(target, end):
                assert not game.chance_between(states[i], states[i + 1])[0]
                assert actions[i].player not in (1,)


@pytest.mark.parametrize("name", GAMES)
def test_the_secret_goes_on_keying_the_draws_after_the_setup(name):
    """The first position keeps the secret: every draw to come is keyed, not only the setup's
    (Municipium's dropped it, D-96)."""
    game = rules(name)
    secret = new_secret()
    state = game.new_game(_setup(name, game.spec.default_players, 0, secret))
    assert state.setup.secret == secret


@pytest.mark.parametrize("name", GAMES)
def test_playouts_never_see_the_secret(name):
    game = rules(name)
    setup = _setup(name, game.spec.default_players, 0, new_secret())
    state = game.new_game(setup)
    luck = game.determinised(state, 99)
    assert luck.setup.secret == "" and luck.rng == 99


@pytest.mark.parametrize("name", GAMES)
def test_apply_accepts_only_what_the_game_lists(name):
    """Listed actions with one field changed (scripts/fuzz_offers.py, small): ``apply`` refuses
    with RuleError or accepts one the game lists (or one with a listed one's effect), never
    crashes, for every game alike."""
    report = script("fuzz_offers").fuzz_game(name, games=3, seed=1, tries=12)
    assert report.accepted > 0 and report.decoded > report.accepted
    assert report.ok, report.line() + "\n" + "\n".join(report.first.values())
