"""A game's setup options, declared once: the fields of its setup Struct.

Each game's setup is a msgspec Struct (:class:`SetupBase` and the game's own fields).  Every field
beside the players, the seed and the secret is an option, and says what a person needs to choose
it in its annotation::

    variant: Annotated[
        Literal["grand", "classic", "original"],
        Meta(title="Edition", description="...", extra={"labels": {"grand": "The Grand Spectacle"}}),
    ] = "grand"

:func:`option_specs` reads those into :class:`OptionSpec` values, and everything that offers a
choice of setup is made from them: the command line's flags (``play``, ``simulate``, ``fork``),
the new-game screen's rows, the lobby's new-table form, the protocol's create-table message
(plain values, checked by :func:`make_setup`), the log header (the setup itself) and the
export's lines (:func:`described`).  Adding an option is one field and the rule that reads it.

The kinds of option, by the field's type:

* ``choice``: a ``Literal`` of strings (``extra["labels"]`` names each value for people);
* ``flags``: a tuple of such a ``Literal`` (any of the values, e.g. rules options);
* ``count``: an ``int`` in a range (``Meta(ge=..., le=...)``), or ``int | None`` where ``None``
  means the rules' own figure;
* ``seat``: ``int | None`` with ``extra={"seat": True}``: a seat (0-based; people count from 1),
  ``None`` for "drawn by lot";
* ``switch``: a ``bool``.

``extra["since"]`` is the log format version a reader needs to know the field (default 2): a log
whose setup sets such a field away from its default is written with that version, so an older
program refuses it (its "unknown version" line) instead of replaying a different game.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, ClassVar, Literal, Self, TypeVar

import msgspec

from colosseum.core.names import name_problem

__all__ = [
    "BASE_FIELDS",
    "DEFAULT_GAME",
    "Choice",
    "OptionError",
    "OptionSpec",
    "SetupBase",
    "check_setup",
    "described",
    "make_setup",
    "option_specs",
    "option_values",
    "setup_version",
]

#: the game of a setup whose log header names none: every log written before there were two
#: games is Colosseum's, so its header is written without ``game`` (and reads alike in older
#: programs).  The registry's default game too.
DEFAULT_GAME = "colosseum"

#: the log format version every reader of this program's logs knows (see ``core.gamelog``)
BASE_VERSION = 2


class SetupBase(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    """What every game's setup has: the players' names, the seed and the secret.

    ``seed`` replays a local game's chance (SplitMix64, ``core.rng``); ``secret`` (hex of 16 to 64
    random bytes) replaces it where no player may predict chance (server games).  Encoded without
    the fields left at their defaults; a field this program does not know is refused."""

    #: the name of the game this is the setup of (the registry's and the log header's name)
    game: ClassVar[str] = ""
    #: the log format version a setup with a secret needs: a game whose secret came to mean more
    #: than older writers made it mean raises it, so that its reader can tell the two apart
    secret_since: ClassVar[int] = 3

    players: tuple[str, ...]
    seed: int  # always written: a log names its seed (older readers need it)
    secret: Annotated[str, msgspec.Meta(extra={"since": 3})] = ""

    def read_from_log(self, version: int) -> Self:
        """This setup as a log of format ``version`` means it: a game marks here what an older
        writer's setup meant (an internal field, see :func:`internal_fields`).  Itself unless
        a game says otherwise."""
        return self

    def settled(self) -> Self:
        """This setup without the options its others imply (a new setup, ``make_setup``, is
        settled so; logs are read as written).  Itself unless a game says otherwise."""
        return self


#: the fields of :class:`SetupBase`: not options
BASE_FIELDS = ("players", "seed", "secret")

S = TypeVar("S", bound=SetupBase)


class OptionError(ValueError):
    """Option values that make no setup: ``str(err)`` is one line for a person."""


@dataclass(frozen=True)
class Choice:
    value: str
    label: str


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game's setup, as people choose it."""

    name: str  # the field
    label: str  # "Edition"
    help: str  # one sentence
    kind: Literal["choice", "flags", "count", "seat", "switch"]
    default: Any
    choices: tuple[Choice, ...] = ()  # choice, flags
    low: int | None = None  # count
    high: int | None = None  # count
    optional: bool = False  # count: None stands for the rules' own figure
    since: int = BASE_VERSION

    @property
    def flag(self) -> str:
        """The command line's flag: ``--variant``; a ``flags`` option is repeated (``--option X``)."""
        return "--" + ("option" if self.kind == "flags" else self.name.replace("_", "-"))

    def label_of(self, value: Any) -> str:
        """``value`` in words."""
        if self.kind == "choice":
            return next((c.label for c in self.choices if c.value == value), str(value))
        if self.kind == "flags":
            words = [c.label for c in self.choices if c.value in tuple(value)]
            return ", ".join(words) if words else "none"
        if self.kind == "seat":
            return "drawn by lot" if value is None else f"seat {int(value) + 1}"
        if self.kind == "switch":
            return "yes" if value else "no"
        return "the rules' own" if value is None else str(value)

    def parse(self, text: str) -> Any:
        """A value from what a person typed (``OptionError`` names what is wrong)."""
        text = text.strip()
        if self.kind == "choice":
            for c in self.choices:
                if text.casefold() in (c.value.casefold(), c.label.casefold()):
                    return c.value
            raise OptionError(f"{self.label}: choose one of {', '.join(c.value for c in self.choices)}")
        if self.kind == "switch":
            if text.casefold() in ("yes", "on", "true", "1"):
                return True
            if text.casefold() in ("no", "off", "false", "0"):
                return False
            raise OptionError(f"{self.label}: yes or no")
        if self.kind in ("count", "seat"):
            if not text and (self.optional or self.kind == "seat"):
                return None
            try:
                number = int(text)
            except ValueError:
                raise OptionError(f"{self.label}: a whole number, not {text!r}") from None
            if self.kind == "seat":
                return number - 1  # people count seats from 1
            self.check_count(number)
            return number
        raise OptionError(f"{self.label}: give each value on its own ({self.flag} VALUE)")

    def check_count(self, number: int) -> None:
        if (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
            raise OptionError(f"{self.label} must be from {self.low} to {self.high}, not {number}")


def _meta(args: Sequence[Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The Meta of an Annotated type's metadata: (its title/description, its extra)."""
    info: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for a in args:
        if isinstance(a, msgspec.Meta):
            if a.title:
                info["title"] = a.title
            if a.description:
                info["description"] = a.description
            if a.ge is not None:
                info["ge"] = a.ge
            if a.le is not None:
                info["le"] = a.le
            extra.update(a.extra or {})
    return info, extra


def _literal_values(tp: Any) -> tuple[str, ...] | None:
    if typing.get_origin(tp) is Literal:
        return tuple(str(v) for v in typing.get_args(tp))
    return None


def _spec(name: str, hint: Any, default: Any) -> OptionSpec:
    if typing.get_origin(hint) is not Annotated:
        raise TypeError(f"setup field {name!r} is not declared as an option (Annotated with a Meta title)")
    base, *meta = typing.get_args(hint)
    info, extra = _meta(meta)
    label = info.get("title") or name.replace("_", " ").capitalize()
    help_ = info.get("description", "")
    since = int(extra.get("since", BASE_VERSION))
    labels: dict[str, str] = dict(extra.get("labels", {}))

    def choices(values: tuple[str, ...]) -> tuple[Choice, ...]:
        return tuple(Choice(v, labels.get(v, v)) for v in values)

    values = _literal_values(base)
    if values is not None:
        return OptionSpec(name, label, help_, "choice", default, choices(values), since=since)
    origin = typing.get_origin(base)
    if origin is tuple:
        item = typing.get_args(base)[0]
        values = _literal_values(item)
        if values is None:
            raise TypeError(f"setup field {name!r}: a tuple option holds a Literal of strings")
        return OptionSpec(name, label, help_, "flags", default, choices(values), since=since)
    if base is bool:
        return OptionSpec(name, label, help_, "switch", default, since=since)
    optional = False
    number = base
    if origin in (typing.Union, __import__("types").UnionType):
        members = [a for a in typing.get_args(base) if a is not type(None)]
        if len(members) != 1:
            raise TypeError(f"setup field {name!r}: one type and None at most")
        number, optional = members[0], True
    low = high = None
    if typing.get_origin(number) is Annotated:
        inner, *inner_meta = typing.get_args(number)
        ranges, _ = _meta(inner_meta)
        low, high = ranges.get("ge"), ranges.get("le")
        number = inner
    if number is int:
        if extra.get("seat"):
            return OptionSpec(name, label, help_, "seat", default, optional=True, since=since)
        low = info.get("ge", low)
        high = info.get("le", high)
        return OptionSpec(name, label, help_, "count", default, low=low, high=high, optional=optional, since=since)
    raise TypeError(f"setup field {name!r}: no option kind for {hint!r}")


def _internal(hint: Any) -> int | None:
    """The ``since`` of a field declared internal (``Meta(extra={"internal": True})``), else None."""
    if typing.get_origin(hint) is not Annotated:
        return None
    _, extra = _meta(typing.get_args(hint)[1:])
    return int(extra.get("since", BASE_VERSION)) if extra.get("internal") else None


@cache
def internal_fields(setup_type: type[SetupBase]) -> tuple[tuple[str, Any, int], ...]:
    """A setup's internal fields as (name, default, since): what no player chooses and no form,
    flag or message may set (``make_setup`` refuses them), only what reading an older log marks
    (``SetupBase.read_from_log``)."""
    hints = typing.get_type_hints(setup_type, include_extras=True)
    out = []
    for f in msgspec.structs.fields(setup_type):
        since = _internal(hints[f.name])
        if since is not None:
            out.append((f.name, f.default, since))
    return tuple(out)


@cache
def option_specs(setup_type: type[SetupBase]) -> tuple[OptionSpec, ...]:
    """The options of a game's setup, in the order its fields are declared."""
    hints = typing.get_type_hints(setup_type, include_extras=True)
    fields = msgspec.structs.fields(setup_type)
    internal = {name for name, _, _ in internal_fields(setup_type)}
    return tuple(
        _spec(f.name, hints[f.name], f.default) for f in fields if f.name not in BASE_FIELDS and f.name not in internal
    )


def _message(err: msgspec.ValidationError, setup_type: type[SetupBase]) -> str:
    """A validation error in a person's words, naming the option by its label."""
    text = str(err)
    specs = {s.name: s for s in option_specs(setup_type)}
    for name, spec in specs.items():
        if f"$.{name}" in text:
            detail = text.split(" - at ")[0]
            if spec.kind == "count":
                return f"{spec.label} must be a whole number from {spec.low} to {spec.high}"
            if spec.kind in ("choice", "flags"):
                return f"{spec.label}: choose from {', '.join(c.value for c in spec.choices)}"
            return f"{spec.label}: {detail}"
    if "unknown field" in text:
        field = text.split("`")[1] if "`" in text else text
        return f"this program has no option {field!r}"
    return text


def make_setup(setup_type: type[S], players: Sequence[str], *, seed: int, secret: str = "", **values: Any) -> S:
    """A setup from plain values (a form, the command line, a protocol message), checked as a log
    header would be: a name with a control character (``core.names``), an unknown option, a value
    out of range or of the wrong type (a ``bool`` for a number included) raises :class:`OptionError` with one line for a person."""
    for name, _, _ in internal_fields(setup_type):
        if name in values:
            raise OptionError(f"this program has no option {name!r}")
    for player in players:
        problem = name_problem(player) if isinstance(player, str) else None
        if problem:  # a name is plain text (core.names): refused where it is made
            raise OptionError(problem)
    raw: dict[str, Any] = {"players": list(players), "seed": seed, "secret": secret}
    raw.update(values)
    return _convert(setup_type, raw).settled()


def _convert(setup_type: type[S], raw: dict[str, Any]) -> S:
    raw = {k: (list(v) if isinstance(v, tuple) else v) for k, v in raw.items()}
    try:
        return msgspec.convert(raw, setup_type, strict=True)
    except msgspec.ValidationError as err:
        raise OptionError(_message(err, setup_type)) from None


def check_setup(setup: S) -> S:
    """``setup`` checked field by field (a Struct built in code is not: ``seed=True`` would pass);
    :class:`OptionError` if it could not have been read from a log."""
    return _convert(type(setup), msgspec.structs.asdict(setup))


def option_values(setup: SetupBase) -> dict[str, Any]:
    """The options of ``setup`` that differ from their defaults."""
    out = {}
    for spec in option_specs(type(setup)):
        value = getattr(setup, spec.name)
        if value != spec.default:
            out[spec.name] = value
    return out


def described(setup: SetupBase, *, all_options: bool = False) -> list[tuple[str, str]]:
    """(label, value in words) of each option set away from its default (every option with
    ``all_options``): the export's and the games list's words for a setup."""
    out = []
    for spec in option_specs(type(setup)):
        value = getattr(setup, spec.name)
        if all_options or value != spec.default:
            out.append((spec.label, spec.label_of(value)))
    return out


def setup_version(setup: SetupBase) -> int:
    """The log format version a reader needs for ``setup`` (see ``extra["since"]``)."""
    version = BASE_VERSION
    if setup.secret:
        version = max(version, type(setup).secret_since)
    for spec in option_specs(type(setup)):
        if spec.since > version and getattr(setup, spec.name) != spec.default:
            version = spec.since
    for name, default, since in internal_fields(type(setup)):
        if since > version and getattr(setup, name) != default:
            version = since
    return version


def values_from_mapping(setup_type: type[SetupBase], given: Mapping[str, Any]) -> dict[str, Any]:
    """The options among ``given`` (other keys are left out), for :func:`make_setup`."""
    names = {s.name for s in option_specs(setup_type)}
    return {k: v for k, v in given.items() if k in names}
