"""A game's setup in words, for every game: its title with the edition, and its options as the
header line, the export, the games list and the file names show them.  All of it is made from
the setup's option specs (``core.options``): an option added to a game's setup shows here with no
code of its own.

The *edition* of a game is its first ``choice`` option (Colosseum's ``variant``: The Grand
Spectacle, Classic, Original 2007); a game without one has only its title.

No Textual, no Rich.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from colosseum.core.options import OptionSpec, SetupBase, option_specs
from colosseum.core.registry import game_of

__all__ = ["edition", "edition_title", "edition_value", "option_words"]


def edition(setup: SetupBase) -> OptionSpec | None:
    """The option that names the game's edition: the setup's first ``choice`` option."""
    return next((o for o in option_specs(type(setup)) if o.kind == "choice"), None)


def edition_value(setup: SetupBase) -> str:
    """The edition's value (``"classic"``), "" for a game without editions."""
    found = edition(setup)
    return "" if found is None else str(getattr(setup, found.name))


def edition_title(setup: SetupBase) -> str:
    """``Colosseum - The Grand Spectacle``, ``Colosseum - Original 2007``; ``Municipium``."""
    title = game_of(setup).title
    found = edition(setup)
    if found is None:
        return title
    return f"{title} - {found.label_of(getattr(setup, found.name))}"


def option_words(
    setup: SetupBase,
    *,
    wide: bool = True,
    words: Mapping[str, tuple[str, str]] | None = None,
    skip_edition: bool = False,
    rules_only: bool = False,
) -> list[str]:
    """Each option set away from its default, in a word or two: a choice or flag by its label
    (or the game's own ``words``: value -> (narrow, wide)), a number or a seat with its label
    ("Starting coins 20"), a switch by its label.  ``rules_only``: leave out the seat options
    (who starts is no rule: the header line, short at 80 columns, says which rules are played)."""
    words = words or {}
    ed = edition(setup) if skip_edition else None
    out: list[str] = []

    def word(value: Any, label: str) -> str:
        pair = words.get(str(value))
        return pair[1 if wide else 0] if pair else label

    for spec in option_specs(type(setup)):
        value = getattr(setup, spec.name)
        if value == spec.default or spec is ed or (rules_only and spec.kind == "seat"):
            continue
        if spec.kind == "choice":
            out.append(word(value, spec.label_of(value)))
        elif spec.kind == "flags":
            labels = {c.value: c.label for c in spec.choices}
            out += [word(v, labels.get(v, str(v))) for v in value]
        elif spec.kind == "switch":
            if value:
                out.append(spec.label)
        else:
            out.append(f"{spec.label} {spec.label_of(value)}")
    return out
