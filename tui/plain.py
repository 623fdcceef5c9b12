"""Textual's text widgets with markup off: a string shown in them is shown as it is.

Player names, table names, chat and file names are the users' own text: ``[/a]`` as a name
must show as four characters, not crash the screen with a ``MarkupError`` (nor ``[bold]Kat[/]``
show in bold).  Textual's ``Static``, ``Label`` and ``OptionList`` read a ``str`` as
markup unless told otherwise; the client imports these instead (ruff's banned-api rule refuses
the originals from ``textual.widgets``), so no string the client shows is ever read as markup.
Styled text is built as ``rich.text.Text`` with styles, never as markup strings.

``notify`` and ``border_title`` take markup too: ``tests/tui/test_no_markup.py`` checks every
``notify`` call passes ``markup=False`` and every border title set from a value is ``Text``.
"""

from __future__ import annotations

from typing import Any

from textual import widgets as _w

__all__ = ["Label", "OptionList", "Static"]


class Static(_w.Static):  # noqa: TID251 (the one place the original is named)
    """``textual.widgets.Static`` with markup off by default."""

    def __init__(self, content: Any = "", *, markup: bool = False, **kwargs: Any) -> None:
        super().__init__(content, markup=markup, **kwargs)


class Label(_w.Label):  # noqa: TID251
    """``textual.widgets.Label`` with markup off by default."""

    def __init__(self, content: Any = "", *, markup: bool = False, **kwargs: Any) -> None:
        super().__init__(content, markup=markup, **kwargs)


class OptionList(_w.OptionList):  # noqa: TID251
    """``textual.widgets.OptionList`` with markup off by default (an option's prompt given as a
    string is shown as it is)."""

    def __init__(self, *content: Any, markup: bool = False, **kwargs: Any) -> None:
        super().__init__(*content, markup=markup, **kwargs)
