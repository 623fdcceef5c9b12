"""User-supplied text on the server: player names, table names and chat lines.

What the server keeps and forwards is plain text: NFKC-normalised, without control, format
(zero-width, bidi override), private-use or unassigned characters, and cut to a number of
terminal cells (a wide CJK character takes two).  Markup is *not* removed here: every screen
shows these strings as plain text (``rich.text.Text``), never as markup.

Names are unique by ``name_key``: ``alice``, ``Alice`` and ``alice`` + a zero-width space are
one name.
"""

from __future__ import annotations

import unicodedata

# categories a terminal must never receive from another user: controls, format characters
# (zero-width joiners, bidi overrides), surrogates, private use, unassigned; line and
# paragraph separators
_DROP = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# combining marks are kept, but not in runs that pile many onto one cell
_MAX_MARKS = 2


def cell_width(ch: str) -> int:
    """Terminal cells of one character (0 for combining marks, 2 for wide ones)."""
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def cells(text: str) -> int:
    return sum(cell_width(ch) for ch in text)


def clean_text(text: str, max_cells: int) -> str:
    """``text`` as the server keeps it: NFKC, one line, no invisible or control characters,
    runs of white space as one space, at most ``max_cells`` terminal cells."""
    text = unicodedata.normalize("NFKC", str(text))
    out: list[str] = []
    used = 0
    marks = 0
    for ch in text:
        if ch.isspace():
            if out and out[-1] != " ":
                if used + 1 > max_cells:
                    break
                out.append(" ")
                used += 1
            marks = 0
            continue
        if unicodedata.category(ch) in _DROP:
            continue
        w = cell_width(ch)
        if w == 0:
            marks += 1
            if marks > _MAX_MARKS or not out:
                continue
        else:
            marks = 0
        if used + w > max_cells:
            break
        out.append(ch)
        used += w
    return "".join(out).strip()


def clean_name(text: str, max_cells: int = 24) -> str:
    """A player name: ``clean_text`` without the characters that make paths or quoting
    ambiguous in logs; '' if nothing is left."""
    return clean_text("".join(ch for ch in str(text) if ch not in "\\/\"'`"), max_cells)


def name_key(name: str) -> str:
    """What makes two names the same name (for uniqueness)."""
    return clean_name(name).casefold()
