"""Every decision in the game, as a tagged union of frozen Structs.

Each action names the ``player`` (seat, 0-based) who takes it; the engine checks it is theirs
to take.  Tile kinds are given by code ('G', 'Co', ..., 'Bal'); spectacles by their key.
Encoded as JSON the tag is the field ``"a"``.
"""

from __future__ import annotations

from typing import Any, Literal, Union, cast, get_args, get_origin, get_type_hints

import msgspec

from colosseum.core.games.colosseum.model import Transfer

#: How an extra investment is paid (C-3): "" for a regular one.
Extra = Literal["", "aquilas", "construction"]


class _Action(msgspec.Struct, frozen=True, tag_field="a", kw_only=True):
    player: int


# ---- setup (G-1.6)
class PlaceStartGates(_Action, frozen=True, tag="start_gates"):
    space: int  # the first space of a free starting pair


# ---- Phase 1 (G-2; C-3, C-5; O-11 to O-15)
class BuildGate(_Action, frozen=True, tag="gate"):
    space: int
    extra: Extra = ""


class HirePromoter(_Action, frozen=True, tag="promoter"):
    extra: Extra = ""


class PlanSpectacle(_Action, frozen=True, tag="plan"):
    spectacle: str
    extra: Extra = ""


class BuildTemple(_Action, frozen=True, tag="temple"):
    extra: Extra = ""


class BuySeasonTicket(_Action, frozen=True, tag="season_ticket"):
    """O-14 (original): a season ticket, +5 spectators in every later performance."""

    extra: Extra = ""


class BuildLoge(_Action, frozen=True, tag="loge"):
    """O-15 (original): the Emperor's loge, 2 dice in Phase 4."""

    extra: Extra = ""


class ExchangeAquilas(_Action, frozen=True, tag="exchange"):
    count: int


class ConstructionForAquila(_Action, frozen=True, tag="construction_aquila"):
    """C-5 (classic): discard a construction tile for an Aquila, at any time."""


# ---- Phase 2 (G-3)
class OpenAuction(_Action, frozen=True, tag="open"):
    market: int
    bid: int


class Raise(_Action, frozen=True, tag="raise"):
    bid: int


class PassBid(_Action, frozen=True, tag="pass_bid"):
    pass


# ---- Phase 3 (G-4)
class ProposeDeal(_Action, frozen=True, tag="propose"):
    transfers: tuple[Transfer, ...]


class AcceptDeal(_Action, frozen=True, tag="accept"):
    pass


class RejectDeal(_Action, frozen=True, tag="reject", omit_defaults=True):
    whole_round: bool = False  # "not this round": no more proposals from the proposer this round


class CloseDeal(_Action, frozen=True, tag="close"):
    pass


class CancelDeal(_Action, frozen=True, tag="cancel"):
    pass


# ---- Phase 4 (G-5)
class Roll(_Action, frozen=True, tag="roll"):
    pass


class ChooseDice(_Action, frozen=True, tag="dice"):
    mode: Literal["split", "sum"]


class MoveNoble(_Action, frozen=True, tag="move"):
    noble: int  # 0 emperor, 1-2 consuls, 3-5 senators
    die: int  # 0 or 1 (split mode), -1 for the sum
    steps: int


class AquilaMove(_Action, frozen=True, tag="aquila_move"):
    noble: int
    steps: int  # -3..-1 counter-clockwise, 1..3 clockwise


class Perform(_Action, frozen=True, tag="perform"):
    spectacle: str
    aquilas: int = 0  # G-5.3 step 7


# ---- Phase 5 (G-6)
class Retire(_Action, frozen=True, tag="retire"):
    tile: str


class Steal(_Action, frozen=True, tag="steal"):
    tile: str


class ChooseFirstPlayer(_Action, frozen=True, tag="first"):
    first: int


# ---- any phase (G-0: a player may always skip their turn)
class EndTurn(_Action, frozen=True, tag="end"):
    pass


Action = Union[
    PlaceStartGates,
    BuildGate,
    HirePromoter,
    PlanSpectacle,
    BuildTemple,
    BuySeasonTicket,
    BuildLoge,
    ExchangeAquilas,
    ConstructionForAquila,
    OpenAuction,
    Raise,
    PassBid,
    ProposeDeal,
    AcceptDeal,
    RejectDeal,
    CloseDeal,
    CancelDeal,
    Roll,
    ChooseDice,
    MoveNoble,
    AquilaMove,
    Perform,
    Retire,
    Steal,
    ChooseFirstPlayer,
    EndTurn,
]

ACTION_TYPES: tuple[type, ...] = Action.__args__  # type: ignore[attr-defined]

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Action)


def encode_action(action: Action) -> bytes:
    return _encoder.encode(action)


def decode_action(data: bytes | str) -> Action:
    """Decode one action; raises msgspec.DecodeError / ValidationError on bad input, however
    malformed (deep nesting and bad UTF-8 inside a string included)."""
    try:
        action: Action = _decoder.decode(data)  # a Decoder of a Union is typed Decoder[Any]
    except RecursionError:
        raise msgspec.DecodeError("JSON is malformed: nested too deeply") from None
    except (UnicodeDecodeError, UnicodeEncodeError) as e:  # bad UTF-8 in a string, or a lone surrogate
        raise msgspec.DecodeError(f"JSON is malformed: not UTF-8 text ({e.reason})") from None
    return action


# ------------------------------------------------------------------------------ field types
# An action built in code is not checked by msgspec (only decoding is), and the engine would
# take ``True`` for 1 or an unknown literal as "not this one": such an action would be applied,
# logged, and refused when the log is replayed.  ``field_error`` refuses it first (D-17), as
# decoding would.  It is on the engine's hot path, so each class's checks are worked out once:
# a tuple of (field, exact types, allowed values or None, element check or None).

_Check = tuple[str, tuple[type, ...], frozenset[object] | None, "_Elements | None"]
_Elements = tuple[type, tuple[tuple[str, type], ...]]  # a tuple of structs: (class, (field, type))


def _spec(tp: Any) -> tuple[tuple[type, ...], frozenset[object] | None, _Elements | None]:
    if tp is int or tp is str or tp is bool:
        return (tp,), None, None
    if get_origin(tp) is Literal:
        values = get_args(tp)
        return tuple({type(v) for v in values}), frozenset(values), None
    if get_origin(tp) is tuple:
        (item, _dots) = get_args(tp)
        item = cast(Any, item)
        hints = get_type_hints(item)
        return (tuple,), None, (item, tuple((f, hints[f]) for f in item.__struct_fields__))
    raise TypeError(f"no field check for {tp!r}")  # pragma: no cover - a new kind of field


def _checks(cls: Any) -> tuple[_Check, ...]:
    hints = get_type_hints(cls)
    return tuple((f, *_spec(hints[f])) for f in cls.__struct_fields__)


_CHECKS: dict[type, tuple[_Check, ...]] = {cls: _checks(cls) for cls in ACTION_TYPES}

# The rule a wrong field breaks: the rule of the decision it belongs to ("player" is G-0's).
_RULE: dict[type, str] = {
    PlaceStartGates: "G-1.6",
    BuildGate: "G-2",
    HirePromoter: "G-2",
    PlanSpectacle: "G-2",
    BuildTemple: "G-2",
    ExchangeAquilas: "G-8",
    OpenAuction: "G-3.2",
    Raise: "G-3.3",
    ProposeDeal: "G-4",
    ChooseDice: "G-5.1",
    MoveNoble: "G-5.1",
    AquilaMove: "G-5.1",
    Perform: "G-5.3",
    Retire: "G-6.1",
    Steal: "G-6.2",
    ChooseFirstPlayer: "G-6.3",
}
_FIELD_RULE: dict[tuple[type, str], str] = {(OpenAuction, "market"): "G-3.1", (BuildGate, "extra"): "C-3"}
for _cls in (HirePromoter, PlanSpectacle, BuildTemple):
    _FIELD_RULE[(_cls, "extra")] = "C-3"


def _fast(cls: Any) -> Any:
    """A function ``ok(action) -> bool`` for ``cls``: ``type(a.f) is T`` for each field (``a.f in
    allowed`` for literals, the same for each struct in a tuple of structs), compiled once."""
    env: dict[str, object] = {}
    terms = []
    loops = []
    for k, (name, types, allowed, elements) in enumerate(_CHECKS[cls]):
        if len(types) != 1:
            return lambda a: False
        env[f"T{k}"] = types[0]
        terms.append(f"type(a.{name}) is T{k}")
        if allowed is not None:
            env[f"L{k}"] = allowed
            terms.append(f"a.{name} in L{k}")
        if elements is not None:
            item_cls, fields = elements
            env[f"E{k}"] = item_cls
            inner = [f"type(x) is E{k}"]
            for j, (fname, ftype) in enumerate(fields):
                env[f"E{k}_{j}"] = ftype
                inner.append(f"type(x.{fname}) is E{k}_{j}")
            loops.append(f"    for x in a.{name}:\n        if not ({' and '.join(inner)}):\n            return False\n")
    code = f"def ok(a):\n    if not ({' and '.join(terms) or 'True'}):\n        return False\n"
    code += "".join(loops) + "    return True\n"
    exec(code, env)  # names come from the class definitions above, never from input
    return env["ok"]


#: ``FIELDS_OK[type(action)](action)`` is True when every field has its exact type (the fast
#: check apply makes; :func:`field_error` says what is wrong otherwise).
FIELDS_OK: dict[type, Any] = {cls: _fast(cls) for cls in ACTION_TYPES}


def field_error(action: object) -> tuple[str, str] | None:
    """(rule, what is wrong) with the types of ``action``'s fields, or None: every field must
    hold exactly its declared type (``bool`` is not an ``int``) and a literal one of its values."""
    ok = FIELDS_OK.get(type(action))
    if ok is not None and ok(action):  # the common case, cheap: apply is the engine's hot path
        return None
    return _field_problem(action)


def _field_problem(action: object) -> tuple[str, str] | None:
    cls = type(action)
    checks = _CHECKS.get(cls)
    if checks is None:
        return "G-0", f"{cls.__name__} is not an action"
    for name, types, allowed, elements in checks:
        value = getattr(action, name)
        wrong: str | None
        if type(value) not in types:
            wrong = f"{name} must be {types[0].__name__}, not {type(value).__name__} ({value!r})"
        elif allowed is not None and value not in allowed:
            wrong = f"{name} must be {' or '.join(sorted(map(repr, allowed)))}, not {value!r}"
        elif elements is not None:
            wrong = _element_error(name, value, elements)
            if wrong is None:
                continue
        else:
            continue
        if name == "player":
            return "G-0", wrong
        return _FIELD_RULE.get((cls, name)) or _RULE.get(cls, "G-0"), wrong
    return None


def _element_error(name: str, value: tuple[object, ...], elements: _Elements) -> str | None:
    item_cls, fields = elements
    for item in value:
        if type(item) is not item_cls:
            return f"{name} must hold {item_cls.__name__} items, not {type(item).__name__}"
        for fname, ftype in fields:
            if type(getattr(item, fname)) is not ftype:
                return f"{name}: {fname} must be {ftype.__name__}, not {getattr(item, fname)!r}"
    return None
