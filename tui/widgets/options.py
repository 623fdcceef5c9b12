"""A game's options as form fields, made from its option specs (``core.options``): the new-game
screen's rows and the lobby's new-table form.

Each kind has its field: a ``choice`` is a :class:`Cycle` of its labels, ``flags`` a checkbox per
value, a ``count`` a number field (its range in the placeholder), a ``seat`` a Cycle "by lot /
1..n", a ``switch`` a checkbox.  Options are laid out two to a row, in the order the setup
declares them.  ``read_options`` gives the values as plain values by field name, or raises
``OptionError`` (one line for a person) for a number that is not one or out of range.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.cells import cell_len
from textual.containers import Horizontal
from textual.dom import DOMNode
from textual.widget import Widget

from colosseum.core.options import OptionError, OptionSpec
from colosseum.tui.plain import Static

from .forms import Cycle, FormCheckbox, FormInput

__all__ = ["option_rows", "read_options", "row_id"]

#: options to a row
PER_ROW = 2


def field_id(prefix: str, option: OptionSpec, value: str = "") -> str:
    """The id of an option's field (a flag's checkbox: with its value)."""
    tail = f"-{value}" if value else ""
    return f"{prefix}-{option.name}{tail}".replace("_", "-")


def row_id(prefix: str, game: str) -> str:
    """The id of the first row of ``game``'s options (its rows carry the class ``{prefix}-{game}``)."""
    return f"{prefix}-{game}-options"


def _seat_choices(players: int) -> list[tuple[str, object]]:
    return [("by lot", None)] + [(str(i + 1), i) for i in range(players)]


def _label(option: OptionSpec) -> str:
    """The field's name; a number's with its range (``Starting coins 0-99``)."""
    if option.kind == "count" and option.low is not None and option.high is not None:
        return f"{option.label} {option.low}-{option.high}"
    return option.label


def _fields(option: OptionSpec, prefix: str, value: Any, players: int) -> list[Widget]:
    label = _label(option)
    out: list[Widget] = [Static(label, classes="opt-label")]
    out[0].styles.width = cell_len(label) + 1
    if option.kind == "choice":
        labels = [(c.label, c.value) for c in option.choices]
        cycle = Cycle(
            labels, value if value in {c.value for c in option.choices} else option.default, id=field_id(prefix, option)
        )
        cycle.styles.width = max(cell_len(c.label) for c in option.choices) + 4
        out.append(cycle)
    elif option.kind == "flags":
        chosen = set(value or ())
        for c in option.choices:
            out.append(
                FormCheckbox(c.label, c.value in chosen, classes="opt-flag", id=field_id(prefix, option, c.value))
            )
    elif option.kind == "seat":
        seat = value if isinstance(value, int) and 0 <= value < players else None
        cycle = Cycle(_seat_choices(players), seat, id=field_id(prefix, option))
        cycle.styles.width = 11
        out.append(cycle)
    elif option.kind == "switch":
        out[0].display = False
        out.append(FormCheckbox(option.label, bool(value), classes="opt-flag", id=field_id(prefix, option)))
    else:
        hint = f"{option.low}-{option.high}" if option.low is not None else "a number"
        field = FormInput(
            "" if value is None else str(value),
            placeholder=("default" if option.optional else ""),
            compact=True,
            type="integer",
            id=field_id(prefix, option),
        )
        field.tooltip = f"{option.label}: {hint}" + (" (empty: the rules' own)" if option.optional else "")
        field.styles.width = max(8, len(str(option.high or "")) + 4)
        field.cursor_blink = False
        out.append(field)
    return out


def option_rows(
    options: tuple[OptionSpec, ...], prefix: str, game: str, values: Mapping[str, Any], players: int
) -> list[Horizontal]:
    """The rows of fields for ``options`` (values: the settings given, else each default)."""
    rows: list[Horizontal] = []
    for k in range(0, len(options), PER_ROW):
        widgets: list[Widget] = []
        for option in options[k : k + PER_ROW]:
            group = Horizontal(
                *_fields(option, prefix, values.get(option.name, option.default), players), classes="opt-group"
            )
            widgets.append(group)
        row_kw: dict[str, Any] = {"classes": f"row opt-row {prefix}-{game}"}
        if not rows:
            row_kw["id"] = row_id(prefix, game)
        rows.append(Horizontal(*widgets, **row_kw))
    return rows


def set_players(node: DOMNode, options: tuple[OptionSpec, ...], prefix: str, players: int) -> None:
    """Offer the seats there are in every ``seat`` option's Cycle."""
    for option in options:
        if option.kind != "seat":
            continue
        for cycle in node.query(f"#{field_id(prefix, option)}").results(Cycle):
            old = cycle.value
            cycle.options = _seat_choices(players)
            cycle.value = old if isinstance(old, int) and old < players else None
            cycle.refresh()


def read_options(node: DOMNode, options: tuple[OptionSpec, ...], prefix: str) -> dict[str, Any]:
    """The values of the fields under ``node`` (plain values by field name; an option whose
    fields were never shown keeps its default, and is left out)."""
    out: dict[str, Any] = {}
    for option in options:
        if option.kind == "flags":
            boxes = [node.query(f"#{field_id(prefix, option, c.value)}").results(FormCheckbox) for c in option.choices]
            found = [(c.value, next(b, None)) for c, b in zip(option.choices, boxes, strict=True)]
            if any(box is not None for _v, box in found):
                out[option.name] = tuple(v for v, box in found if box is not None and box.value)
            continue
        fields = list(node.query(f"#{field_id(prefix, option)}"))
        if not fields:
            continue
        field = fields[0]
        if isinstance(field, Cycle):
            out[option.name] = field.value
        elif isinstance(field, FormCheckbox):
            out[option.name] = field.value
        elif isinstance(field, FormInput):
            text = field.value.strip()
            if not text and option.optional:
                out[option.name] = None
            else:
                out[option.name] = option.parse(text)  # OptionError: not a number, out of range
    return out


__all__ += ["OptionError", "field_id", "set_players"]
