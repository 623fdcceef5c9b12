"""Stress and fuzz harness for the rules engine, the action and state codecs and the game log.

    python scripts/fuzz.py games   [--n 3]    # N games per ruleset x player count, fully checked
    python scripts/fuzz.py actions [--n 2000] # illegal and malformed actions, built and decoded
    python scripts/fuzz.py logs    [--n 200]  # mutated game logs through parse_log / read_log
    python scripts/fuzz.py states  [--n 500]  # mutated encoded states through decode_state
    python scripts/fuzz.py --all              # each of them at its default size

Common options: ``--seed S`` (default 1), ``--jobs J`` (worker processes, default 1), ``--json``
(one JSON report per command), ``--time-limit SEC`` (stop starting new cases after SEC seconds;
default 600), ``--case I`` (re-run one case and print its failures in full), ``--families a,b``
(only those mutation families; see FAMILIES).  The exit status is 1 when anything failed.

Every run is split into *cases*; case ``I`` of a command depends only on ``(command, seed, I)``,
so a failure is reproduced with ``fuzz.py COMMAND --seed S --case I`` whatever ``--jobs`` was.
Positions come from games played by the engine's own bots: ``game(ruleset, players, seed,
greedy)`` rebuilds one (``game(...).states[k]`` is the position after ``k`` actions).

tests/core/test_fuzz_small.py runs each command in-process at the default size.
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import datetime
import hashlib
import itertools
import json
import math
import os
import random
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import msgspec.inspect as mi

from colosseum.core.gamelog import (
    ChatLine,
    GameLogError,
    dump_log,
    encode_action_line,
    encode_chat_line,
    encode_header,
    make_header,
)
from colosseum.core.games.colosseum import (
    ACTION_TYPES,
    Action,
    Event,
    GameSetup,
    RuleError,
    State,
    Transfer,
    apply,
    decode_action,
    decode_state,
    encode_action,
    encode_state,
    legal,
    may_propose,
    new_game,
    replay,
    to_act,
)
from colosseum.core.games.colosseum.actions import CancelDeal, ConstructionForAquila, OpenAuction, ProposeDeal, Raise
from colosseum.core.games.colosseum.bots import Bot, make_bot
from colosseum.core.games.colosseum.bots.random_bot import RandomBot
from colosseum.core.games.colosseum.components import OPTIONS, VARIANTS, Catalog, load_catalog
from colosseum.core.games.colosseum.invariants import check
from colosseum.core.logread import parse_log, read_log
from colosseum.core.timeline import GameLog

# ------------------------------------------------------------------------------ the games

#: (variant, options) of every ruleset fuzzed; "classic+auction-2007" is classic with the option.
RULESETS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("grand", ()),
    ("classic", ()),
    ("classic", ("auction-2007",)),
    ("original", ()),
)
PLAYER_COUNTS = (3, 4, 5)
NAMES = ("Becky", "Kat", "Laura", "Mia", "Nora")
MAX_GAME_ACTIONS = 5_000  # a random game takes 100-600 actions

assert all(v in VARIANTS and all(o in OPTIONS for o in opts) for v, opts in RULESETS)


def ruleset_name(variant: str, options: Sequence[str]) -> str:
    return "+".join((variant, *options))


def parse_ruleset(name: str) -> tuple[str, tuple[str, ...]]:
    variant, *options = name.split("+")
    return variant, tuple(options)


@dataclass
class Game:
    """A game played by bots: ``states[i]`` is the position after ``actions[:i]``."""

    setup: GameSetup
    seats: tuple[str, ...]  # bot name per seat
    actions: list[Action]
    states: list[State]
    events: list[Event]
    error: str = ""  # a bot's action was refused or crashed the engine (the game stops there)


def game(ruleset: str, players: int, seed: int, greedy: str = "", stop: int | None = None) -> Game:
    """Play a game of bots: seat ``i`` is greedy when ``greedy[i] == "G"``, random otherwise.
    Deterministic in its arguments; ``stop`` ends it after that many actions."""
    variant, options = parse_ruleset(ruleset)
    setup = GameSetup(players=NAMES[:players], seed=seed, variant=variant, options=options)
    seats = tuple("greedy" if greedy[i : i + 1] == "G" else "random" for i in range(players))
    bots: list[Bot] = [make_bot(name, seed * 31 + i) for i, name in enumerate(seats)]
    state = new_game(setup)
    g = Game(setup, seats, [], [state], [])
    limit = MAX_GAME_ACTIONS if stop is None else min(stop, MAX_GAME_ACTIONS)
    while len(g.actions) < limit:
        seat = to_act(state)
        if seat < 0:
            break
        try:
            action = bots[seat].act(state)
            state, events = apply(state, action)
        except RuleError as e:
            g.error = f"{seats[seat]} bot at seat {seat}, action {len(g.actions) + 1}: illegal: {e}"
            break
        except Exception as e:  # noqa: BLE001 - an engine or bot crash is a finding, reported with its case
            g.error = f"{seats[seat]} bot at seat {seat}, action {len(g.actions) + 1}: {_exc(e)}"
            break
        g.actions.append(action)
        g.states.append(state)
        g.events.extend(events)
    return g


def _game_call(ruleset: str, players: int, seed: int, greedy: str = "") -> str:
    arg = f", greedy={greedy!r}" if "G" in greedy else ""
    return f"fuzz.game({ruleset!r}, {players}, {seed}{arg})"


#: Reproducers are Python lines to run from the repository root after this line.
PREAMBLE = (
    "import sys; sys.path.insert(0, 'scripts'); import fuzz; "
    "from colosseum.core import *; from colosseum.core.games.colosseum.actions import *"
)


def _repro(call: str, action: str = "") -> str:
    """A Python line that rebuilds the input (run after PREAMBLE)."""
    return call + (f"; {action}" if action else "")


def _short(value: object, limit: int = 160) -> str:
    """``repr(value)``, cut in the middle when long (``--case`` shows the input in full)."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 40]}...{text[-30:]} ({len(text):,} chars)"


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 30] + f"... ({len(text):,} chars)"


def _exc(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0][:300]}" if text else type(e).__name__


def _where(e: BaseException) -> str:
    """The innermost frames of a traceback, one line each (where a fix belongs)."""
    frames = traceback.extract_tb(e.__traceback__)[-4:]
    return " <- ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in reversed(frames))


# ------------------------------------------------------------------------------ results


@dataclass
class Failure:
    command: str
    case: int  # ``fuzz.py COMMAND --seed S --case CASE`` re-runs it
    kind: str  # what went wrong, e.g. "crash", "accepted-malformed", "decode-crash"
    family: str  # the mutation family that found it
    detail: str  # the error and the frames it came from
    repro: str  # how to rebuild the input
    cause: str = ""  # what in the input triggers it, where known (e.g. "bool-for-int", "RecursionError")

    @property
    def key(self) -> str:
        return f"{self.kind}" + (f" [{self.cause}]" if self.cause else "") + f" ({self.family})"


@dataclass
class CaseResult:
    counts: Counter[str] = field(default_factory=Counter)
    failures: list[Failure] = field(default_factory=list)


@dataclass
class Report:
    command: str
    seed: int
    n: int
    cases: int  # cases run
    cases_planned: int
    jobs: int
    seconds: float
    counts: dict[str, int]
    failures: list[Failure]
    stopped: str = ""  # why the run stopped early ("" = it did not)

    @property
    def failure_kinds(self) -> dict[str, int]:
        return dict(Counter(f.key for f in self.failures).most_common())

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["failure_kinds"] = self.failure_kinds
        out["ok"] = not self.failures
        return out

    def text(self, examples: int = 3) -> str:
        c = self.counts
        head = f"{self.command}: {self.cases}/{self.cases_planned} cases in {self.seconds:.1f} s ({self.jobs} job"
        head += "s)" if self.jobs != 1 else ")"
        if self.stopped:
            head += f", STOPPED: {self.stopped}"
        lines = [head, "  " + ", ".join(f"{k} {v:,}" for k, v in sorted(c.items()))]
        lines.append(
            f"  failures: {len(self.failures)}" + (f"  (reproducers run after: {PREAMBLE})" if self.failures else "")
        )
        shown: Counter[str] = Counter()
        for kind, count in self.failure_kinds.items():
            lines.append(f"    {count:>6} {kind}")
        for f in self.failures:
            if shown[f.key] >= examples:
                continue
            shown[f.key] += 1
            lines.append(f"  - {f.key} case {f.case}: {f.detail}")
            lines.append(f"      reproduce: fuzz.py {self.command} --seed {self.seed} --case {f.case}")
            if f.repro:
                lines.append(f"      {_cut(f.repro, 400)}")
        return "\n".join(lines)


class _Case:
    """What a case function is given: its random source and a place to put results."""

    def __init__(self, command: str, seed: int, case: int, families: Sequence[str]) -> None:
        self.command = command
        self.case = case
        self.rng = random.Random(f"{command}/{seed}/{case}")
        self.families = tuple(families)
        self.result = CaseResult()

    def count(self, what: str, k: int = 1) -> None:
        self.result.counts[what] += k

    def fail(self, kind: str, family: str, detail: str, repro: str = "", cause: str = "") -> None:
        failure = Failure(self.command, self.case, kind, family, detail[:2000], repro[:20_000], cause)
        self.result.failures.append(failure)


# ------------------------------------------------------------------------------ shared checks


def roundtrip(st: State) -> str:
    """'' when the state encodes, decodes to an equal state and re-encodes to the same bytes."""
    try:
        data = encode_state(st)
        back = decode_state(data)
    except Exception as e:  # noqa: BLE001 - any error here is the finding
        return _exc(e)
    if back != st:
        return "decode_state(encode_state(s)) != s"
    if encode_state(back) != data:
        return "re-encoding a decoded state gives other bytes"
    return ""


@cache
def _tradable(variant: str) -> frozenset[str]:
    cat = load_catalog(variant)
    return frozenset({cat.codes[k] for k in cat.holdable} | {"coins", "aquilas"})


def _deal_shape_ok(st: State, a: ProposeDeal) -> bool:
    """The parts of G-4 a deal can be checked against without the engine's own check_deal."""
    cat = load_catalog(st.setup.variant)
    t = st.trade
    if t is None or not a.transfers:
        return False
    need: Counter[tuple[int, str]] = Counter()
    parties: set[int] = set()
    for tr in a.transfers:
        if not (0 <= tr.giver < st.n and 0 <= tr.receiver < st.n) or tr.giver == tr.receiver:
            return False
        if tr.item not in _tradable(st.setup.variant) or tr.count < 1:
            return False
        need[(tr.giver, tr.item)] += tr.count
        parties |= {tr.giver, tr.receiver}
    if t.active not in parties or a.player not in parties:
        return False
    for (giver, item), count in need.items():
        p = st.players[giver]
        have = p.coins if item == "coins" else p.aquilas if item == "aquilas" else p.tiles[cat.index[item]]
        if have < count:
            return False
    return True


def listed(st: State, a: Action) -> bool:
    """Whether ``legal(st)`` offers ``a`` (a well-typed action): listed, within a bid range, a
    proposal when proposing is open, or one of the actions any seat may take (G-4, C-5)."""
    ch = legal(st)
    if a.player == ch.player:
        if a in ch.actions:
            return True
        if isinstance(a, (OpenAuction, Raise)):
            # the option's own action (an opening on "market -1" is not the raise option's)
            return any(o.low <= a.bid <= o.high and o.action(a.player, a.bid) == a for o in ch.bids)
        if isinstance(a, ProposeDeal):
            return ch.can_propose and _deal_shape_ok(st, a)
    if st.phase == "over" or not 0 <= a.player < st.n:
        return False
    cat = load_catalog(st.setup.variant)
    if isinstance(a, ConstructionForAquila):
        return cat.rules.construction_for_aquila and st.players[a.player].tiles[cat.construction] > 0
    if isinstance(a, CancelDeal):
        t = st.trade
        return t is not None and t.deal is not None and a.player in (t.active, t.deal.proposer)
    if isinstance(a, ProposeDeal):
        return may_propose(st, a.player) and _deal_shape_ok(st, a)
    return False


def malformed_cause(a: Action) -> str:
    """What makes an action that no decoder would produce malformed: a bool where an int is
    declared ("bool-for-int", Transfers included), a string outside a Literal ("invalid-literal"),
    anything else in a Literal field ("non-string-literal"), or another wrong type."""
    for name, t in _fields(type(a)):
        v = getattr(a, name)
        if isinstance(t, mi.IntType) and isinstance(v, bool):
            return "bool-for-int"
        if isinstance(t, mi.VarTupleType) and isinstance(v, (tuple, list)):
            for tr in v:
                if isinstance(tr, Transfer) and any(isinstance(x, bool) for x in (tr.giver, tr.receiver, tr.count)):
                    return "bool-for-int"
    for name, t in _fields(type(a)):
        v = getattr(a, name)
        if isinstance(t, mi.LiteralType) and v not in t.values:
            return "invalid-literal" if isinstance(v, str) else "non-string-literal"
    return "wrong-type"


def well_typed(a: Action) -> bool:
    """Whether the action is one the JSON decoder could have produced (types and literals)."""
    for name, t in _fields(type(a)):
        v = getattr(a, name)
        # a dict encodes like a Transfer, but from Python only a Transfer is one; and a list
        # like a tuple, but the decoder gives a tuple (the engine refuses a list: G-4)
        if isinstance(t, mi.VarTupleType) and not (isinstance(v, tuple) and all(isinstance(x, Transfer) for x in v)):
            return False
    try:
        decode_action(encode_action(a))
    except (msgspec.DecodeError, msgspec.EncodeError, TypeError, ValueError, OverflowError):
        return False
    return True


# ------------------------------------------------------------------------------ games


def case_games(c: _Case, seed: int) -> None:
    """One game: the ruleset and player count cycle with the case number."""
    combo = c.case % (len(RULESETS) * len(PLAYER_COUNTS))
    variant, options = RULESETS[combo // len(PLAYER_COUNTS)]
    ruleset = ruleset_name(variant, options)
    n = PLAYER_COUNTS[combo % len(PLAYER_COUNTS)]
    rng = c.rng
    gseed = rng.randrange(1 << 32)
    greedy = "".join("G" if rng.random() < 0.2 else "." for _ in range(n))
    call = _game_call(ruleset, n, gseed, greedy)
    g = game(ruleset, n, gseed, greedy)
    c.count("games")
    c.count(f"games {ruleset}")
    c.count("actions played", len(g.actions))
    if g.error:
        c.fail("bot-refused", "game", g.error, _repro(f"g = {call}"))
    elif g.states[-1].phase != "over":
        c.fail("no-end", "game", f"the game did not end within {MAX_GAME_ACTIONS} actions", _repro(f"g = {call}"))
    for i, st in enumerate(g.states):
        at = _repro(f"st = {call}.states[{i}]")
        problems = check(st, g.states[i - 1] if i else None)
        if problems:
            c.fail("invariant", "game", f"after action {i}: " + "; ".join(problems[:5]), at)
        bad = roundtrip(st)
        if bad:
            c.fail("state-roundtrip", "game", f"position {i}: {bad}", at)
        if i < len(g.actions):
            _agreement(c, st, at)
    c.count("states checked", len(g.states))
    _replay_checks(c, g, call)


def _try_listed(c: _Case, st: State, a: Action, what: str, at: str) -> None:
    c.count("offered actions applied")
    try:
        nxt, _ = apply(st, a)
    except RuleError as e:
        c.fail("listed-rejected", "agreement", f"{what} {_short(a)} refused: {e}", _repro(at, f"apply(st, {a!r})"))
        return
    except Exception as e:  # noqa: BLE001 - an engine crash is the finding
        c.fail("crash", "agreement", f"{_short(a)}: {_exc(e)} at {_where(e)}", _repro(at, f"apply(st, {a!r})"))
        return
    problems = check(nxt, st)
    if problems:
        c.fail(
            "invariant", "agreement", f"after {_short(a)}: " + "; ".join(problems[:5]), _repro(at, f"apply(st, {a!r})")
        )


def _expect_refused(c: _Case, st: State, a: Action, at: str) -> None:
    c.count("out-of-range bids tried")
    try:
        apply(st, a)
    except RuleError:
        return
    except Exception as e:  # noqa: BLE001 - an engine crash is the finding
        c.fail("crash", "agreement", f"{_short(a)}: {_exc(e)} at {_where(e)}", _repro(at, f"apply(st, {a!r})"))
        return
    c.fail(
        "unlisted-accepted",
        "agreement",
        f"{_short(a)} is outside the offered bid range",
        _repro(at, f"apply(st, {a!r})"),
    )


def _agreement(c: _Case, st: State, at: str) -> None:
    """Every action legal() offers applies; bids at both ends of a range apply and one past
    either end does not; a proposal when proposing is open; C-5 for any seat holding a tile."""
    ch = legal(st)
    if ch.player != to_act(st) or len(ch) == 0:
        c.fail("no-choice", "agreement", f"legal() offers nothing to seat {to_act(st)}", _repro(at, "legal(st)"))
        return
    for a in ch.actions:
        _try_listed(c, st, a, "offered", at)
    for opt in ch.bids:
        if opt.low > opt.high:
            c.fail("empty-bid-range", "agreement", f"{_short(opt)} offered", _repro(at, "legal(st)"))
            continue
        for bid in sorted({opt.low, opt.high, c.rng.randint(opt.low, opt.high)}):
            _try_listed(c, st, opt.action(ch.player, bid), "bid", at)
        _expect_refused(c, st, opt.action(ch.player, opt.low - 1), at)
        _expect_refused(c, st, opt.action(ch.player, opt.high + 1), at)
    if ch.can_propose:
        deal = RandomBot(c.rng.randrange(1 << 30)).random_deal(st, ch.player)
        if deal is not None:
            _try_listed(c, st, deal, "proposal", at)
    cat = load_catalog(st.setup.variant)
    if cat.rules.construction_for_aquila:
        for seat, p in enumerate(st.players):
            if seat != ch.player and p.tiles[cat.construction] > 0:
                _try_listed(c, st, ConstructionForAquila(player=seat), "C-5 at any time", at)


def _replay_checks(c: _Case, g: Game, call: str) -> None:
    at = _repro(f"g = {call}")
    try:
        final, events = replay(g.setup, g.actions)
    except Exception as e:  # noqa: BLE001 - any error here is the finding
        c.fail("replay", "game", f"replay raised {_exc(e)} at {_where(e)}", at)
        return
    if encode_state(final) != encode_state(g.states[-1]):
        c.fail("replay", "game", "replay(setup, actions) ends in other bytes than the game", at)
    if events != g.events:
        c.fail("replay", "game", "replay(setup, actions) gives other events", at)
    header = make_header(g.setup, g.seats)
    try:
        log = parse_log(dump_log(header, g.actions))
    except Exception as e:  # noqa: BLE001 - any error here is the finding
        c.fail("log-roundtrip", "game", f"parse_log(dump_log(...)) raised {_exc(e)}", at)
        return
    if log.error is not None or log.actions != g.actions:
        c.fail("log-roundtrip", "game", f"the saved game reads back as {len(log.actions)} actions, {log.error}", at)
    elif encode_state(log.state) != encode_state(g.states[-1]):
        c.fail("log-roundtrip", "game", "the saved game replays to other bytes", at)
    c.count("replays")


# ------------------------------------------------------------------------------ actions

ACTIONS_PER_CASE = 50
#: Built in Python: valid-looking values, seats, out-of-range values, bools where an int is
#: declared, strings outside a Literal, values of the wrong type.  Decoded from mutated JSON:
#: wrong values, mangled bytes, deep nesting, bad UTF-8 inside a string.
ACTION_FAMILIES = (
    "valid",
    "seat",
    "range",
    "bool",
    "literal",
    "type",
    "json-value",
    "json-bytes",
    "json-deep",
    "json-utf8",
)

_NO = object()  # "this family has no value for that field"
_HUGE = (2**31, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**30, 10**400)
_BAD_STRINGS = ("", " ", "G ", "g", "Aq", "Con", "zz", "coins ", "Aquilas", "\x00", "é", "🦁", "[bold]x[/]", "x" * 5000)
_BAD_LITERALS = ("bogus", "Aquilas", "AQUILAS", " split", "SUM", "sum ", "none", "null", "\x00", "🦁")
_WRONG_FOR_INT: tuple[Any, ...] = (None, 1.0, 2.5, float("nan"), float("inf"), "1", b"1", [1], (1,), {"x": 1}, 1j)
_WRONG_FOR_STR: tuple[Any, ...] = (None, 0, 1, 2.5, b"G", ["G"], ("sum",), {"G": 1}, True)


@cache
def _fields(kind: type) -> tuple[tuple[str, Any], ...]:
    info = mi.type_info(kind)
    assert isinstance(info, mi.StructType)
    return tuple((f.name, f.type) for f in info.fields)


def _seat_values(n: int) -> tuple[int, ...]:
    return (*range(n), -1, -2, n, n + 1, 99)


def _valid_value(rng: random.Random, st: State, name: str, t: Any) -> Any:
    """A value of the declared type, mostly in the ranges the rules use."""
    cat = load_catalog(st.setup.variant)
    if isinstance(t, mi.LiteralType):
        return rng.choice(t.values)
    if isinstance(t, mi.IntType):
        if name in ("player", "first"):
            return rng.randrange(st.n)
        if name == "space":
            return rng.randrange(-2, cat.track_spaces + 2)
        if name == "market":
            return rng.randrange(-1, 6)
        if name in ("bid", "count", "aquilas"):
            return rng.randrange(-2, 60)
        if name == "noble":
            return rng.randrange(-1, 7)
        if name == "die":
            return rng.randrange(-2, 3)
        return rng.randrange(-4, 8)
    if isinstance(t, mi.StrType):
        return _valid_string(rng, cat, name)
    if isinstance(t, mi.VarTupleType):
        return tuple(_random_transfer(rng, st) for _ in range(rng.randrange(0, 4)))
    if isinstance(t, mi.BoolType):  # RejectDeal.whole_round (D-69)
        return rng.random() < 0.5
    raise AssertionError(f"no generator for {name}: {t}")


def _valid_string(rng: random.Random, cat: Catalog, name: str) -> str:
    if name == "spectacle":
        return rng.choice(list(cat.spectacle_index))
    items = [*cat.codes, "coins", "aquilas"]
    return rng.choice(items)


def _random_transfer(rng: random.Random, st: State) -> Transfer:
    cat = load_catalog(st.setup.variant)
    giver = rng.randrange(st.n)
    receiver = rng.choice([s for s in range(st.n) if s != giver] if rng.random() < 0.9 else [giver])
    item = rng.choice([*cat.codes, "coins", "aquilas"])
    return Transfer(giver, receiver, item, rng.choice((1, 1, 1, 2, 3, 5, 0, -1)))


def _bad_value(rng: random.Random, family: str, st: State, name: str, t: Any) -> Any:
    """A value of ``family`` for a field, or _NO when the family has none for its type."""
    if family == "valid":
        return _valid_value(rng, st, name, t)
    if isinstance(t, mi.IntType):
        if family == "seat":
            return rng.choice(_seat_values(st.n))
        if family == "range":
            return rng.choice((*_HUGE, -1, -2, -100, 36, 37, 100, rng.randrange(-1000, 1000)))
        if family == "bool":
            return rng.random() < 0.5
        if family == "type":
            return rng.choice(_WRONG_FOR_INT)
        return _NO
    if isinstance(t, mi.LiteralType):
        if family == "literal":
            return rng.choice(_BAD_LITERALS)
        if family == "type":
            return rng.choice(_WRONG_FOR_STR)
        return _NO
    if isinstance(t, mi.StrType):
        if family in ("range", "literal"):
            return rng.choice(_BAD_STRINGS)
        if family == "type":
            return rng.choice(_WRONG_FOR_STR)
        return _NO
    if isinstance(t, mi.VarTupleType):
        return _bad_transfers(rng, family, st)
    return _NO


def _bad_transfers(rng: random.Random, family: str, st: State) -> Any:
    good = [_random_transfer(rng, st) for _ in range(rng.randrange(1, 3))]
    if family == "type":
        return rng.choice(
            (
                None,
                good[0],
                [msgspec.structs.asdict(good[0])],
                ((0, 1, "G", 1),),
                ("x",),
                {"giver": 0},
                (Transfer(0, 1, "G", 1.0), *good),  # type: ignore[arg-type]
                (Transfer("0", 1, "G", 1),),  # type: ignore[arg-type]
                (Transfer(0, 1, None, 1),),  # type: ignore[arg-type]
            )
        )
    i = rng.randrange(len(good))
    tr = good[i]
    if family == "bool":
        good[i] = msgspec.structs.replace(tr, **{rng.choice(("giver", "receiver", "count")): rng.random() < 0.5})
    elif family == "seat":
        good[i] = msgspec.structs.replace(tr, **{rng.choice(("giver", "receiver")): rng.choice(_seat_values(st.n))})
    elif family == "range":
        which = rng.choice(("giver", "receiver", "count", "item"))
        value = rng.choice(_BAD_STRINGS) if which == "item" else rng.choice((*_HUGE, -1, 0, -(10**30)))
        good[i] = msgspec.structs.replace(tr, **{which: value})
    elif family == "literal":
        good[i] = msgspec.structs.replace(tr, item=rng.choice(_BAD_STRINGS))
    elif family == "valid" and rng.random() < 0.1:
        good = good * rng.randrange(5, 15)  # more transfers than a deal may hold
    return tuple(good) if rng.random() < 0.9 else list(good)


def _base_action(rng: random.Random, st: State) -> Action:
    """An offered action (half the time, when there is one) or one with random valid fields."""
    ch = legal(st)
    offered: list[Action] = list(ch.actions)
    offered += [o.action(ch.player, rng.randint(min(o.low, o.high), max(o.low, o.high))) for o in ch.bids]
    if offered and rng.random() < 0.5:
        return rng.choice(offered)
    kind = rng.choice(ACTION_TYPES)
    return kind(**{name: _valid_value(rng, st, name, t) for name, t in _fields(kind)})  # type: ignore[no-any-return]


def _applies(family: str, t: Any) -> bool:
    """Whether ``family`` has values for a field of type ``t``."""
    if family in ("valid", "type") or isinstance(t, mi.VarTupleType):
        return True
    if family in ("seat", "bool"):
        return isinstance(t, mi.IntType)
    if family == "range":
        return isinstance(t, (mi.IntType, mi.StrType))
    return family == "literal" and isinstance(t, (mi.LiteralType, mi.StrType))


def build_action(rng: random.Random, st: State, family: str) -> Action:
    """An action of ``family``: an offered or random action with one or two fields replaced."""
    for _ in range(4):  # an action with a field the family can spoil
        base = _base_action(rng, st)
        options = [(name, t) for name, t in _fields(type(base)) if _applies(family, t)]
        if options:
            break
    else:
        kind = rng.choice([k for k in ACTION_TYPES if any(_applies(family, t) for _, t in _fields(k))])
        base = kind(**{name: _valid_value(rng, st, name, t) for name, t in _fields(kind)})
        options = [(name, t) for name, t in _fields(kind) if _applies(family, t)]
    values = {name: getattr(base, name) for name, _ in _fields(type(base))}
    for _ in range(1 if rng.random() < 0.8 else 2):
        name, t = rng.choice(options)
        value = _bad_value(rng, family, st, name, t)
        if value is not _NO:
            values[name] = value
    return type(base)(**values)


_TAGS: tuple[str, ...] = tuple(str(mi.type_info(t).tag) for t in ACTION_TYPES)  # type: ignore[attr-defined]


def _json_value(rng: random.Random) -> str:
    return rng.choice(
        (
            "true",
            "false",
            "null",
            "-1",
            "0",
            "1.5",
            "1e400",
            "-0",
            "18446744073709551616",
            "-9223372036854775809",
            "1" + "0" * 400,
            '"1"',
            '"sum"',
            '"split"',
            '""',
            '"bogus"',
            '"\\u0000"',
            '"\\ud800"',
            "[]",
            "{}",
            "[1]",
            '{"giver":0}',
            '[{"giver":0,"receiver":1,"item":"G","count":true}]',
            '[{"giver":0,"receiver":1,"item":"G"}]',
            '[{"giver":0,"receiver":1,"item":"G","count":1,"zz":[1]}]',
        )
    )


def _json_object(obj: dict[str, Any]) -> str:
    return "{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in obj.items()) + "}"


def mutate_action_json(rng: random.Random, st: State, family: str) -> bytes:
    """Encoded action bytes, mangled by ``family``."""
    base = _base_action(rng, st)
    fields = {k: json.dumps(v) for k, v in msgspec.to_builtins(base).items()}
    if family == "json-value":
        op = rng.randrange(6)
        keys = list(fields)
        if op == 0:  # a field's value replaced
            fields[rng.choice(keys)] = _json_value(rng)
        elif op == 1:  # a field dropped
            del fields[rng.choice(keys)]
        elif op == 2:  # an unknown field
            fields[rng.choice(("zz", "i", "A", "a ", ""))] = _json_value(rng)
        elif op == 3:  # another tag or an unknown one
            fields["a"] = json.dumps(rng.choice((*_TAGS, "", "x", "GATE")))
        elif op == 4:  # a key given twice
            return (_json_object(fields)[:-1] + f',"{rng.choice(keys)}":{_json_value(rng)}}}').encode()
        else:
            return rng.choice(
                (b"", b"null", b"[]", b"{}", b'"gate"', b"1", b'{"a":null}', b"[" + json.dumps(fields).encode() + b"]")
            )
        return _json_object(fields).encode()
    data = _json_object(fields).encode()
    if family == "json-bytes":
        return _mangle_bytes(rng, data)
    if family == "json-deep":
        depth = rng.choice((64, 200, 1_000, 10_000, 100_000))
        deep = _deep(rng, depth)
        key = rng.choice([*fields, "zz"])
        fields[key] = deep
        return _json_object(fields).encode()
    if family == "json-utf8":
        return _bad_utf8_in_string(rng, data)
    raise ValueError(f"unknown family {family!r}")


def _deep(rng: random.Random, depth: int) -> str:
    if rng.random() < 0.5:
        return "[" * depth + "1" + "]" * depth
    return '{"x":' * depth + "1" + "}" * depth


_BAD_UTF8 = (b"\xff", b"\xfe", b"\xc3", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80", b"\xe2\x82")


def _bad_utf8_in_string(rng: random.Random, data: bytes) -> bytes:
    """Invalid UTF-8 placed inside one of the JSON strings of ``data``."""
    quotes = [i for i, b in enumerate(data) if b == 0x22]  # '"'
    if not quotes:
        return data + rng.choice(_BAD_UTF8)
    i = rng.choice(quotes)
    return data[: i + 1] + rng.choice(_BAD_UTF8) + data[i + 1 :]


def _mangle_bytes(rng: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    op = rng.randrange(5)
    if op == 0 and b:  # bit flips
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
    elif op == 1 and b:  # bytes replaced
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] = rng.randrange(256)
    elif op == 2:  # truncated
        del b[rng.randrange(len(b) + 1) :]
    elif op == 3:  # garbage inserted
        i = rng.randrange(len(b) + 1)
        b[i:i] = rng.choice((rng.randbytes(rng.randint(1, 8)), b"{", b"}", b"]", b",", b'"', b"\\", b"\x00", b"\n"))
    else:  # a slice deleted
        if b:
            i = rng.randrange(len(b))
            del b[i : i + rng.randint(1, 8)]
    return bytes(b)


def case_actions(c: _Case, seed: int) -> None:
    """ACTIONS_PER_CASE malformed or illegal actions at random positions of one random game."""
    rng = c.rng
    variant, options = rng.choice(RULESETS)
    ruleset = ruleset_name(variant, options)
    n = rng.choice(PLAYER_COUNTS)
    gseed = rng.randrange(1 << 32)
    call = _game_call(ruleset, n, gseed)
    g = game(ruleset, n, gseed)
    if g.error:
        c.fail("bot-refused", "game", g.error, _repro(f"g = {call}"))
    for _ in range(ACTIONS_PER_CASE):
        k = rng.randrange(len(g.states))
        st = g.states[k]
        family = rng.choice(c.families)
        at = f"st = {call}.states[{k}]"
        c.count("actions")
        c.count(f"family {family}")
        if family.startswith("json"):
            data = mutate_action_json(rng, st, family)
            try:
                action = decode_action(data)
            except msgspec.DecodeError:  # ValidationError included
                c.count("refused by the decoder")
                continue
            except Exception as e:  # noqa: BLE001 - the finding: the decoder raised something else
                c.fail(
                    "decode-crash",
                    family,
                    f"decode_action({_short(data)}): {_exc(e)}",
                    _repro(at, f"decode_action({data!r})"),
                    type(e).__name__,
                )
                continue
            c.count("decoded")
            _check_action(c, st, action, family, at)
        else:
            _check_action(c, st, build_action(rng, st, family), family, at)


def _check_action(c: _Case, st: State, a: Action, family: str, at: str) -> None:
    before = encode_state(st)
    typed = well_typed(a)
    cause = "" if typed else malformed_cause(a)
    call = f"apply(st, {a!r})"
    try:
        nxt, _ = apply(st, a)
    except RuleError:
        c.count("refused (RuleError)")
        if typed and listed(st, a):
            c.fail("listed-rejected", family, f"{_short(a)} is offered by legal() but refused", _repro(at, call))
    except Exception as e:  # noqa: BLE001 - the finding: apply raised something other than RuleError
        c.fail("crash", family, f"{_short(a)}: {_exc(e)} at {_where(e)}", _repro(at, call), cause)
    else:
        c.count("applied")
        if not typed:
            c.fail(
                "accepted-malformed",
                family,
                f"apply accepted {_short(a)}, which no decoder would produce",
                _repro(at, call),
                cause,
            )
        elif not listed(st, a):
            c.fail(
                "unlisted-accepted",
                family,
                f"apply accepted {_short(a)}, which legal() does not offer",
                _repro(at, call),
            )
        problems = check(nxt, st)
        if problems:
            detail = f"after {_short(a)}: " + "; ".join(problems[:5])
            c.fail("invariant", family, detail, _repro(at, call), cause)
        bad = roundtrip(nxt)
        if bad:
            c.fail("state-roundtrip", family, f"after {_short(a)}: {bad}", _repro(at, call), cause)
    if encode_state(st) != before:
        c.fail("input-changed", family, f"apply({_short(a)}) changed the state it was given", _repro(at, call))


# ------------------------------------------------------------------------------ logs

LOGS_PER_CASE = 10
#: Line level (truncation at a line boundary, lines swapped, duplicated, deleted, replaced by
#: another legal action), byte level (bit flips, truncation anywhere, garbage), deep nesting,
#: bad UTF-8, header fields, CRLF line ends, chat lines, reading from disk.
LOG_FAMILIES = (
    "cut-line",
    "cut-byte",
    "lines",
    "replace",
    "bytes",
    "garbage",
    "deep",
    "utf8",
    "header",
    "chat",
    "crlf",
)


@dataclass
class _LogSource:
    game: Game
    call: str
    data: bytes
    lines: list[bytes]  # with their newlines; lines[0] is the header
    action_at: list[int]  # per line: number of actions before it ends (header 0)
    is_action: list[bool]
    ends: list[int]  # per line: offset just after its newline


_CREATED = datetime.datetime(2026, 11, 29, 14, 12, 5, tzinfo=datetime.UTC)  # logs are deterministic too


def _log_source(rng: random.Random) -> _LogSource:
    variant, options = rng.choice(RULESETS)
    ruleset = ruleset_name(variant, options)
    n = rng.choice(PLAYER_COUNTS)
    gseed = rng.randrange(1 << 32)
    stop = None if rng.random() < 0.5 else rng.randrange(0, 250)
    g = game(ruleset, n, gseed, stop=stop)
    call = _game_call(ruleset, n, gseed) + (f" with stop={stop}" if stop is not None else "")
    lines = [encode_header(make_header(g.setup, g.seats, created=_CREATED))]
    action_at = [0]
    is_action = [False]
    for i, a in enumerate(g.actions, 1):
        if rng.random() < 0.03:
            text = rng.choice(("gg", "I'll give you a lion for 5", "[bold red]x[/]", "é🦁\u202e", "a\nb", '"}{'))
            lines.append(encode_chat_line(ChatLine(chat=text, name=NAMES[0], seat=rng.randrange(-1, n), after=i - 1)))
            action_at.append(i - 1)
            is_action.append(False)
        lines.append(encode_action_line(a, i))
        action_at.append(i)
        is_action.append(True)
    ends = list(itertools.accumulate(map(len, lines)))
    return _LogSource(g, call, b"".join(lines), lines, action_at, is_action, ends)


def mutate_log(rng: random.Random, src: _LogSource, family: str) -> tuple[bytes, list[Action] | None]:
    """Mutated log bytes and, where it is known exactly, the actions the loader must return."""
    lines = list(src.lines)
    g = src.game
    body = range(1, len(lines))
    if family == "cut-line":
        k = rng.randrange(1, len(lines) + 1)
        data = b"".join(lines[:k])
        if rng.random() < 0.3 and data.endswith(b"\n"):
            data = data[:-1]  # the last line complete but unterminated
        return data, g.actions[: src.action_at[k - 1]]
    if family == "cut-byte":
        return src.data[: rng.randrange(1, len(src.data) + 1)], None
    if family == "lines" and len(lines) > 2:
        i, j = rng.sample(body, 2) if len(body) > 1 else (1, 1)
        op = rng.randrange(3)
        if op == 0:
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 1:
            lines.insert(i, lines[j])
        else:
            del lines[i]
        return b"".join(lines), None
    if family == "replace":
        idx = [i for i in body if src.is_action[i]]
        if idx:
            i = rng.choice(idx)
            k = src.action_at[i] - 1  # the action's index
            ch = legal(g.states[k])
            other = [a for a in ch.actions if a != g.actions[k]]
            if other:
                lines[i] = encode_action_line(rng.choice(other), k + 1)
                return b"".join(lines), None
    if family == "bytes":
        return _mangle_bytes(rng, src.data), None
    if family == "garbage":
        i = rng.randrange(1, len(lines) + 1)
        junk = rng.choice(
            (
                rng.randbytes(rng.randint(1, 64)),
                b"\n",
                b"   \n",
                b"{}\n",
                b"[]\n",
                b"null\n",
                b'{"i":1}\n',
                b'{"chat":5}\n',
                b'{"chat":"x","seat":"y"}\n',
                b'{"a":"end"}\n',
                b'{"i":true,"a":"end","player":0}\n',
                b"\xef\xbb\xbf" + lines[min(i, len(lines) - 1)],
                lines[min(i, len(lines) - 1)].rstrip(b"\n") + b" trailing\n",
            )
        )
        lines.insert(i, junk)
        return b"".join(lines), None
    if family == "deep":
        depth = rng.choice((64, 1_000, 100_000))
        deep = _deep(rng, depth).encode()
        i = rng.randrange(0, len(lines))
        where = rng.randrange(3)
        if where == 0:
            lines.insert(max(i, 1), deep + b"\n")
        elif where == 1:  # an unknown field of a real line
            lines[i] = b'{"zz":' + deep + b"," + lines[i][1:]
        else:
            lines[i] = b'{"chat":' + deep + b"}\n"
        return b"".join(lines), None
    if family == "utf8":
        i = rng.randrange(0, len(lines))
        lines[i] = _bad_utf8_in_string(rng, lines[i])
        return b"".join(lines), None
    if family == "header":
        return _mutate_header(rng, src), None
    if family == "chat":
        i = rng.randrange(1, len(lines) + 1)
        fields = {
            "chat": _json_value(rng),
            "name": _json_value(rng),
            "seat": _json_value(rng),
            "time": _json_value(rng),
        }
        lines.insert(i, _json_object(dict(rng.sample(list(fields.items()), rng.randint(1, 4)))).encode() + b"\n")
        return b"".join(lines), None
    if family == "crlf":
        return src.data.replace(b"\n", b"\r\n"), None
    return _mangle_bytes(rng, src.data), None


def _mutate_header(rng: random.Random, src: _LogSource) -> bytes:
    head = json.loads(src.lines[0])
    op = rng.randrange(4)
    if op == 0:
        head[rng.choice(("format", "version", "program", "created", "seats", "setup", "resumed_from"))] = json.loads(
            rng.choice(("true", "1", "1.0", "2", "0", "null", '"1"', "[]", "{}", '"colosseum-game-log"', '["human"]'))
        )
    elif op == 1:
        setup = head["setup"]
        key = rng.choice(("players", "seed", "variant", "options", "first_player"))
        setup[key] = rng.choice(
            (
                True,
                None,
                -1,
                5,
                2**64,
                -(2**70),
                1.5,
                "grand",
                "classic",
                "",
                "x",
                ["auction-2007"],
                ["auction-2007", "auction-2007"],
                ["zz"],
                ["A", "B"],
                ["A", "B", "C", "D", "E", "F"],
                ["A", "A", "B"],
                ["A", " A", "B"],
                ["", "B", "C"],
                [1, 2, 3],
            )
        )
    elif op == 2:
        del head[rng.choice(list(head))]
    else:
        head["seats"] = head["seats"][: rng.randrange(len(head["seats"]) + 2)]
    return json.dumps(head).encode() + b"\n" + b"".join(src.lines[1:])


def case_logs(c: _Case, seed: int) -> None:
    rng = c.rng
    src = _log_source(rng)
    at = f"# log of {src.call}"
    if src.game.error:
        c.fail("bot-refused", "game", src.game.error, at)
    base = parse_log(src.data)
    if base.error is not None or base.actions != src.game.actions:
        c.fail("base-log", "game", f"the unmutated log reads back with {base.error}", at)
        return
    tmp = Path(tempfile.mkdtemp(prefix="colosseum-fuzz-"))
    try:
        for j in range(LOGS_PER_CASE):
            family = rng.choice(c.families)
            data, expected = mutate_log(rng, src, family)
            c.count("logs")
            c.count(f"family {family}")
            disk = rng.random() < 0.25
            _check_log(c, data, src, expected, family, tmp / f"{j}.log" if disk else None, at)
        if c.case % 20 == 0:  # read_log on things that are not files
            for p in (tmp / "missing.log", tmp):
                try:
                    read_log(p)
                except GameLogError:
                    c.count("unreadable paths refused")
                except Exception as e:  # noqa: BLE001 - the finding: anything but GameLogError
                    c.fail("crash", "path", f"read_log({p}): {_exc(e)} at {_where(e)}")
    finally:
        for f in tmp.iterdir():
            f.unlink()
        tmp.rmdir()


def _check_log(
    c: _Case, data: bytes, src: _LogSource, expected: list[Action] | None, family: str, path: Path | None, at: str
) -> None:
    repro = f"{at}, {family} mutation: data = {data!r}"
    header_intact = data.startswith(src.lines[0])
    try:
        if path is None:
            log: GameLog = parse_log(data)
        else:
            path.write_bytes(data)
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            mtime = path.stat().st_mtime_ns
            log = read_log(path)
            if hashlib.sha256(path.read_bytes()).hexdigest() != digest or path.stat().st_mtime_ns != mtime:
                c.fail("file-changed", family, "read_log changed the file it read", repro)
            c.count("read from disk")
    except GameLogError as e:
        c.count(f"refused ({e.kind})")
        if header_intact and e.kind not in ("empty", "unreadable"):
            c.fail("raised-with-header", family, f"GameLogError({e.kind}: {e}) with an intact header", repro)
        return
    except Exception as e:  # noqa: BLE001 - the finding: the loader raised something else
        c.fail("crash", family, f"{_exc(e)} at {_where(e)}", repro)
        return
    c.count("loaded" if log.error is None else f"loaded, error {log.error.kind}")
    if log.error is not None and log.error.kind == "engine":
        c.fail("engine-error", family, f"the engine raised while replaying: {log.error}", repro)
    if expected is not None and log.actions != expected:
        c.fail("wrong-prefix", family, f"{len(log.actions)} actions read, {len(expected)} expected", repro)
    if header_intact and log.setup == src.game.setup:
        # the lines before the first changed byte are read as they were written
        first = len(os.path.commonprefix([data, src.data]))
        whole = bisect.bisect_right(src.ends, first)  # lines wholly before it
        keep = src.action_at[whole - 1] if whole else 0
        if log.actions[:keep] != src.game.actions[:keep]:
            c.fail(
                "lost-prefix", family, f"the first {keep} actions were intact but {len(log.actions)} were read", repro
            )
    try:
        final, _ = replay(log.setup, log.actions)
        same = encode_state(final) == encode_state(log.state)
    except Exception as e:  # noqa: BLE001 - any error here is the finding
        c.fail("replay", family, f"the loaded actions do not replay: {_exc(e)}", repro)
        return
    if not same:
        c.fail("replay", family, "the loaded state is not the replay of the loaded actions", repro)
    problems = check(log.state)
    if problems:
        c.fail("invariant", family, "; ".join(problems[:5]), repro)


# ------------------------------------------------------------------------------ states

STATES_PER_CASE = 25
#: bytes: flips, truncation, garbage; value: a JSON value replaced, dropped or added;
#: deep: deeply nested JSON in a field or an unknown field; utf8: bad UTF-8 inside a string.
STATE_FAMILIES = ("bytes", "value", "deep", "utf8")


def _leaves(obj: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _leaves(v, (*path, i))


_MARK = "\x00fuzz-mark\x00"


def mutate_state(rng: random.Random, data: bytes, family: str) -> bytes:
    if family == "bytes":
        return _mangle_bytes(rng, data)
    if family == "utf8":
        return _bad_utf8_in_string(rng, data)
    obj = json.loads(data)
    spots = [(p, v) for p, v in _leaves(obj) if p]
    path, _ = rng.choice(spots)
    parent = obj
    for k in path[:-1]:
        parent = parent[k]
    last = path[-1]
    if family == "deep":
        if isinstance(parent, dict) and rng.random() < 0.5:
            parent["zz"] = _MARK
        else:
            parent[last] = _MARK
        text = json.dumps(obj)
        return text.replace(json.dumps(_MARK), _deep(rng, rng.choice((64, 1_000, 100_000))), 1).encode()
    op = rng.randrange(4)
    if op == 0 or not isinstance(parent, dict):
        parent[last] = _MARK
        text = json.dumps(obj)
        return text.replace(json.dumps(_MARK), _json_value(rng), 1).encode()
    if op == 1:
        del parent[last]
    elif op == 2:
        parent[rng.choice(("zz", "a", "phase", "rng"))] = json.loads(rng.choice(("1", "null", '"over"', "[]")))
    else:
        parent[last] = rng.choice((-1, 2**64, -(2**64), 0, 99, "over", "", [], [0] * 20))
    return json.dumps(obj).encode()


def case_states(c: _Case, seed: int) -> None:
    rng = c.rng
    variant, options = rng.choice(RULESETS)
    ruleset = ruleset_name(variant, options)
    n = rng.choice(PLAYER_COUNTS)
    gseed = rng.randrange(1 << 32)
    call = _game_call(ruleset, n, gseed)
    g = game(ruleset, n, gseed)
    for _ in range(STATES_PER_CASE):
        k = rng.randrange(len(g.states))
        family = rng.choice(c.families)
        data = mutate_state(rng, encode_state(g.states[k]), family)
        c.count("states")
        c.count(f"family {family}")
        repro = _repro(f"data = encode_state({call}.states[{k}])") + f"  # then {family}: data = {data!r}"
        try:
            st = decode_state(data)
        except msgspec.DecodeError:  # ValidationError included
            c.count("refused by the decoder")
            continue
        except Exception as e:  # noqa: BLE001 - the finding: the decoder raised something else
            c.fail("decode-crash", family, f"decode_state: {_exc(e)}", repro, type(e).__name__)
            continue
        c.count("decoded")
        bad = roundtrip(st)
        if bad:
            c.fail("state-roundtrip", family, bad, repro)
        try:
            if check(st):
                c.count("decoded but breaking an invariant")
        except Exception:  # noqa: BLE001 - a decoded nonsense state may break the checker; counted only
            c.count("decoded but unreadable to invariants.check")


# ------------------------------------------------------------------------------ running


@dataclass(frozen=True)
class Command:
    run_case: Callable[[_Case, int], None]
    per_case: int  # units (games, actions, logs, states) per case
    default_n: int
    unit: str
    families: tuple[str, ...]

    def cases(self, n: int) -> int:
        if self.unit == "games":
            return n * len(RULESETS) * len(PLAYER_COUNTS)
        return max(1, math.ceil(n / self.per_case)) if n > 0 else 0


COMMANDS: dict[str, Command] = {
    "games": Command(case_games, 1, 3, "games", ("game", "agreement")),
    "actions": Command(case_actions, ACTIONS_PER_CASE, 2_000, "actions", ACTION_FAMILIES),
    "logs": Command(case_logs, LOGS_PER_CASE, 200, "logs", LOG_FAMILIES),
    "states": Command(case_states, STATES_PER_CASE, 500, "states", STATE_FAMILIES),
}
FAMILIES = {name: cmd.families for name, cmd in COMMANDS.items()}


class CaseTimeout(BaseException):
    """A case ran longer than its limit (a hang is a finding); BaseException so that no broad
    ``except Exception`` in the code under test swallows it."""


@contextlib.contextmanager
def _watchdog(seconds: float) -> Iterator[None]:
    usable = seconds > 0 and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def _alarm(signum: int, frame: Any) -> None:
        raise CaseTimeout

    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def run_case(
    command: str, seed: int, case: int, families: Sequence[str] = (), case_timeout: float = 120.0
) -> CaseResult:
    cmd = COMMANDS[command]
    c = _Case(command, seed, case, families or cmd.families)
    try:
        with _watchdog(case_timeout):
            cmd.run_case(c, seed)
    except CaseTimeout:
        c.fail("timeout", "case", f"the case ran longer than {case_timeout} s")
    except Exception as e:  # noqa: BLE001 - a harness or engine error must not end the run; it is reported
        c.fail("crash", "case", f"{_exc(e)} at {_where(e)}\n{traceback.format_exc()}")
    return c.result


def _run_chunk(command: str, seed: int, cases: Sequence[int], families: Sequence[str]) -> list[CaseResult]:
    return [run_case(command, seed, i, families) for i in cases]


def run(
    command: str,
    n: int | None = None,
    seed: int = 1,
    jobs: int = 1,
    time_limit: float = 600.0,
    families: Sequence[str] = (),
    only_case: int | None = None,
) -> Report:
    """Run ``command`` at size ``n`` (its default when None) and return the report."""
    cmd = COMMANDS[command]
    unknown = set(families) - set(cmd.families)
    if unknown:
        raise ValueError(f"unknown {command} families {sorted(unknown)}; choose from {', '.join(cmd.families)}")
    size = cmd.default_n if n is None else n
    todo = [only_case] if only_case is not None else list(range(cmd.cases(size)))
    counts: Counter[str] = Counter()
    failures: list[Failure] = []
    done = 0
    stopped = ""
    t0 = time.perf_counter()

    def take(res: CaseResult) -> None:
        nonlocal done
        done += 1
        counts.update(res.counts)
        failures.extend(res.failures)

    if jobs <= 1 or len(todo) <= 1:
        for i in todo:
            if time_limit and time.perf_counter() - t0 > time_limit:
                stopped = f"time limit {time_limit:g} s reached"
                break
            take(run_case(command, seed, i, families))
    else:
        size_chunk = max(1, min(50, len(todo) // (jobs * 8)))
        chunks = [todo[i : i + size_chunk] for i in range(0, len(todo), size_chunk)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            pending: set[Future[list[CaseResult]]] = set()
            it = iter(chunks)
            for chunk in it:
                pending.add(pool.submit(_run_chunk, command, seed, chunk, families))
                if len(pending) >= jobs * 2:
                    break
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    for res in fut.result():
                        take(res)
                if time_limit and time.perf_counter() - t0 > time_limit:
                    stopped = f"time limit {time_limit:g} s reached"
                    for fut in pending:
                        fut.cancel()
                    continue
                for chunk in it:
                    pending.add(pool.submit(_run_chunk, command, seed, chunk, families))
                    if len(pending) >= jobs * 2:
                        break
    failures.sort(key=lambda f: f.case)
    return Report(
        command=command,
        seed=seed,
        n=size,
        cases=done,
        cases_planned=len(todo),
        jobs=jobs,
        seconds=round(time.perf_counter() - t0, 3),
        counts=dict(sorted(counts.items())),
        failures=failures,
        stopped=stopped,
    )


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="fuzz.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("command", nargs="?", choices=sorted(COMMANDS), help="what to fuzz")
    ap.add_argument("--all", action="store_true", help="every command at its default size")
    ap.add_argument(
        "--n", type=int, default=None, help="size: games per ruleset x player count, or actions/logs/states"
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--json", action="store_true", help="one JSON report per command on stdout")
    ap.add_argument("--time-limit", type=float, default=600.0, help="seconds per command (0: none)")
    ap.add_argument("--case", type=int, default=None, help="re-run one case and show its failures in full")
    ap.add_argument("--families", default="", help="comma-separated mutation families (default: all)")
    args = ap.parse_args(argv)
    if args.all == (args.command is not None):
        ap.error("give one command or --all")
    if args.jobs < 1 or (args.n is not None and args.n < 0):
        ap.error("--jobs must be 1 or more and --n 0 or more")
    names = list(COMMANDS) if args.all else [args.command]
    families = tuple(f for f in args.families.split(",") if f)
    failed = False
    for name in names:
        try:
            report = run(
                name,
                None if args.all else args.n,
                args.seed,
                args.jobs,
                args.time_limit,
                families,
                args.case,
            )
        except ValueError as e:
            ap.error(str(e))
        failed = failed or bool(report.failures)
        if args.json:
            sys.stdout.write(json.dumps(report.to_json()) + "\n")
        elif args.case is not None:
            print(report.text(examples=0))
            for f in report.failures:
                print(f"\n{f.key}\n{f.detail}\n{_cut(f.repro, 2000)}")
        else:
            print(report.text())
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
