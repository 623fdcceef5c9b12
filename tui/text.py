"""Text laid out by terminal cells, and readable forms of player names.

A CJK character takes two cells, an accent none: every width here is ``rich.cells.cell_len``,
never ``len()``.  No Textual, so the command line (``colosseum games``) and the saved-game
storage can use it without loading the client.

``printable`` (``core.names``) is what every plain-text output writes of a user's text it did
not read through ``core.logread`` (a file name, a cached summary): each control character
(ESC, BEL, a newline, a bidi override) as ``?``, so that no text reaches a terminal raw.
"""

from __future__ import annotations

import re
import unicodedata

from rich.cells import cell_len

from colosseum.core.names import printable

__all__ = ["ELLIPSIS", "SHORT_ELLIPSIS", "cells", "fit", "pad", "printable", "slug", "wrap"]

# ASCII only: the one-character ellipsis is ambiguous-width (two cells in some terminals and
# CJK locales).  "..." where there is room for it, else "~" (a cut name keeps more letters).
ELLIPSIS = "..."
SHORT_ELLIPSIS = "~"


def cells(text: str) -> int:
    """Terminal cells ``text`` takes."""
    return cell_len(text)


def fit(text: str, width: int, ellipsis: str | None = None) -> str:
    """``text`` cut to at most ``width`` cells, ending with an ellipsis when cut ("..." from
    20 cells, else "~", unless ``ellipsis`` is given)."""
    if width <= 0:
        return ""
    if cell_len(text) <= width:
        return text
    if ellipsis is None:
        ellipsis = ELLIPSIS if width >= 20 else SHORT_ELLIPSIS
    room = width - cell_len(ellipsis)
    if room < 0:
        return ellipsis[:width]
    out: list[str] = []
    used = 0
    for ch in text:
        w = cell_len(ch)
        if used + w > room:
            break
        out.append(ch)
        used += w
    return "".join(out).rstrip() + ellipsis


def pad(text: str, width: int, align: str = "<") -> str:
    """``text`` fitted to ``width`` cells and padded with spaces to exactly ``width`` cells
    (``align``: '<' left, '>' right, '^' centre)."""
    text = fit(text, width)
    gap = width - cell_len(text)
    if align == ">":
        return " " * gap + text
    if align == "^":
        left = gap // 2
        return " " * left + text + " " * (gap - left)
    return text + " " * gap


_NOT_WORD = re.compile(r"[^\w]+", re.UNICODE)


def slug(name: str, limit: int = 24) -> str:
    """A file-name-safe, readable form of any name: letters and digits of every script kept
    (``ベッキー`` stays ``ベッキー``, ``Aurelia Maximiliana`` becomes ``aurelia-maximiliana``),
    everything else one '-', at most ``limit`` characters; ``player`` when nothing is left."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = _NOT_WORD.sub("-", text).replace("_", "-")
    text = re.sub("-+", "-", text).strip("-")
    text = text[:limit].rstrip("-")
    return text or "player"


def _break(word: str, room: int) -> tuple[str, str]:
    """The longest head of ``word`` within ``room`` cells, and the rest."""
    used = 0
    for i, ch in enumerate(word):
        w = cell_len(ch)
        if used + w > room:
            return word[:i], word[i:]
        used += w
    return word, ""


def wrap(text: str, width: int, indent: str = "") -> list[str]:
    """Word-wrap ``text`` to lines of at most ``width`` cells (``indent`` before every line but
    the first).  Words wider than a line are broken between characters, so a name in Chinese or
    Japanese (no spaces) fills the line instead of running past it."""
    width = max(1, width)
    lines: list[str] = []
    line = ""
    for word in text.split():
        lead = indent if lines else ""
        sep = " " if line.strip() else ""
        if cell_len(line or lead) + cell_len(sep) + cell_len(word) <= width:
            line = (line or lead) + sep + word
            continue
        if cell_len(indent + word) <= width and line.strip():
            lines.append(line)
            line = indent + word
            continue
        # too wide for any line: fill this one, then the next ones, character by character
        line = (line or lead) + sep
        while word:
            head, word = _break(word, width - cell_len(line))
            if not head and not line.strip():  # one character wider than the whole line
                head, word = word[:1], word[1:]
            line += head
            if word:
                lines.append(line.rstrip())
                line = indent
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return lines
