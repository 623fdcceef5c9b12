"""The rules in short, as a game ships them: a TOML file in the game's package (its
``GameClient.rules_resource``), one list of sections per edition, in that edition's words, and
the sections an option changes.  The rules screen (``r``) shows the edition and options in play.

The file's layout (each section names the rule ids it sums up, as messages cite them)::

    [edition.KEY]            # KEY: the edition (Colosseum: the setup's variant)
    title = "..."
    [[edition.KEY.section]]
    key = "invest"; title = "1 Invest"; ids = "G-2, G-8"; text = "..."   # lines: paragraphs
    [option.KEY]             # an option of the setup
    title = "..."; editions = ["..."]   # where it changes the rules (absent: everywhere)
    [[option.KEY.section]]   # replaces the edition's section with the same key, or is added

No Textual here; Rich only to build the text.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.text import Text

__all__ = ["Section", "Summary", "load_summary", "summary_sections", "summary_text"]


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    ids: str
    paragraphs: tuple[str, ...]


@dataclass(frozen=True)
class Summary:
    """An edition's rules in short with the options in play: its title, the options' titles,
    its sections."""

    title: str
    options: tuple[str, ...]
    sections: tuple[Section, ...]


@cache
def load_summary(package: str, resource: str) -> dict[str, Any]:
    """The file ``resource`` of ``package`` (importlib.resources: works from a wheel), parsed."""
    return tomllib.loads(resources.files(package).joinpath(resource).read_text(encoding="utf-8"))


def _section(raw: dict[str, Any]) -> Section:
    paragraphs = tuple(p.strip() for p in str(raw.get("text", "")).strip().splitlines() if p.strip())
    return Section(str(raw["key"]), str(raw["title"]), str(raw.get("ids", "")), paragraphs)


def summary_sections(data: dict[str, Any], edition: str, options: Iterable[str] = ()) -> Summary:
    """``edition``'s sections (the file's first edition if it has none of that name) with the
    sections of ``options`` that apply to it put in place."""
    editions: dict[str, Any] = data.get("edition", {})
    if edition not in editions:
        edition = next(iter(editions))
    chosen = editions[edition]
    sections = [_section(s) for s in chosen.get("section", [])]
    titles: list[str] = []
    for name in options:
        option = data.get("option", {}).get(name)
        if option is None or edition not in option.get("editions", [edition]):
            continue
        titles.append(str(option.get("title", name)))
        for raw in option.get("section", []):
            new = _section(raw)
            at = next((i for i, s in enumerate(sections) if s.key == new.key), None)
            if at is None:
                sections.append(new)
            else:
                sections[at] = new
    return Summary(str(chosen.get("title", edition)), tuple(titles), tuple(sections))


def summary_text(summary: Summary) -> Text:
    """The rules screen's text: the edition, then each section's title with
    its rule ids, then its paragraphs."""
    from rich.style import Style
    from rich.text import Text

    out = Text()
    head = summary.title + (", with " + " and ".join(summary.options) if summary.options else "")
    out.append(head + "\n\n", Style(bold=True, underline=True))
    for section in summary.sections:
        out.append(section.title, Style(bold=True))
        if section.ids:
            out.append(f"  ({section.ids})", Style(dim=True))
        out.append("\n")
        for paragraph in section.paragraphs:
            out.append(paragraph + "\n")
        out.append("\n")
    out.append(
        "The ids in brackets are the rules' own: a message that refuses an action names the rule it breaks.",
        Style(dim=True),
    )
    return out
