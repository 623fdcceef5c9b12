"""Player names are plain text: no character in one may drive a terminal.

A name with a control character (Unicode category ``Cc``: ESC, BEL, a newline, a tab...), a
bidirectional override or isolate (U+202A to U+202E, U+2066 to U+2069, the marks U+200E, U+200F,
U+061C) or a line or paragraph separator (U+2028, U+2029) would reach the terminal as it is:
ESC starts an escape sequence (a window title, colours), a newline breaks a table, an override
turns the rest of a line around.  Such a name is refused where it is made (:func:`name_problem`,
checked by ``core.options.make_setup``: the command line, the new-game screen, a table's
setup); a game log that carries one (written by an older program, or by hand) is still read,
its names shown with each such character as ``?`` (:func:`printable`; the log file itself, and
so its digest chain, is left as it is).  ``?`` rather than U+FFFD: the replacement character
is two cells wide in some terminals.  No Textual, no Rich: every output may use these."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

__all__ = ["PLACEHOLDER", "is_control", "name_problem", "printable", "printable_names"]

#: what each control character of a name is shown as
PLACEHOLDER = "?"

#: format characters (``Cf``) that reorder or break a line; the other ``Cf`` (a zero-width
#: joiner in an emoji, a soft hyphen) are left to names
_LINE_FORMAT = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def is_control(ch: str) -> bool:
    """Whether the character ``ch`` may drive a terminal or break a line (see the module)."""
    category = unicodedata.category(ch)
    return category in ("Cc", "Zl", "Zp") or (category == "Cf" and ch in _LINE_FORMAT)


def printable(text: str) -> str:
    """``text`` with each control character (:func:`is_control`) replaced by ``?``: safe to
    write to a terminal or a plain-text file, one line, as wide as it reads."""
    if text.isprintable() and not any(ch in _LINE_FORMAT for ch in text):
        return text  # the usual case, fast (isprintable is False for every Cc, Zl and Zp)
    return "".join(PLACEHOLDER if is_control(ch) else ch for ch in text)


def printable_names(names: Sequence[str]) -> tuple[str, ...]:
    """``names`` made :func:`printable`, kept distinct: a name that would become another's (two
    names differing only in their control characters) is followed by its seat (``a? (2)``)."""
    shown = [printable(n) for n in names]
    for i, name in enumerate(shown):
        if name != names[i] and shown.count(name) > 1:
            shown[i] = f"{name} ({i + 1})"
    return tuple(shown)


def name_problem(name: str) -> str | None:
    """One line saying why ``name`` cannot be a player's name (a control character in it), or
    None.  The line shows the name printable and the character by its code point."""
    bad = next((ch for ch in name if is_control(ch)), None)
    if bad is None:
        return None
    what = unicodedata.name(bad, "") or {"\x1b": "ESC", "\x07": "BEL", "\n": "newline", "\t": "tab"}.get(bad, "")
    label = f"U+{ord(bad):04X}" + (f" {what}" if what else "")
    return f"the name {printable(name)!r} has a control character ({label}): a name is plain text on one line"
