"""The Colosseum dialogs' key bar: Textual's Footer, kept up to date without the app's focus,
and fitted to its width.

(Its own module: only the dialogs load it, and with it Textual's Footer.)"""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import Footer


class LiveFooter(Footer):
    """Textual's Footer, kept up to date while the app has no focus too, as ``KeyBar`` is.
    Textual's skips every bindings change then (a browser tab in the background, a terminal
    window behind another, still seen), and a key typed there gives the focus back without
    refreshing it: a dialog opened meanwhile showed an empty key bar until the next screen came
    (seen in the browser after a reconnect).

    When the keys do not fit the width in Textual's spacing, the bar is drawn compact (one space
    between the items, as ``KeyBar`` does); when they do not fit even so, the screen's
    ``KEYBAR_SPARE`` actions leave, then the last keys, whole: a key is never cut mid-word at the
    edge (the trade dialog's bar ended "p end trade tur" at 80 columns)."""

    def bindings_changed(self, screen: Screen[object]) -> None:
        self._bindings_ready = True
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self.recompose)

    def on_resize(self, event: Resize) -> None:
        if event.size.width != getattr(self, "_fitted_to", None) and self._bindings_ready:
            self.call_after_refresh(self.recompose)

    def compose(self) -> ComposeResult:
        width = self.size.width or self.app.size.width
        self._fitted_to = width
        items = self._items()
        compact = _width(items, compact=False) > width
        self.set_reactive(Footer.compact, compact)
        self.set_class(compact, "-compact")
        keep = self._kept(items, width)
        for child in super().compose():
            action = getattr(child, "action", None)
            if action is None or action in keep or "-command-palette" in child.classes:
                yield child

    def _items(self) -> list[tuple[str, str, str]]:
        """(action, key, description) of each key the bar shows, in order (Footer's choice)."""
        out: dict[str, tuple[str, str, str]] = {}
        for _key, binding, _enabled, _tip in self.screen.active_bindings.values():
            if binding.show and binding.action not in out:
                out[binding.action] = (binding.action, self.app.get_key_display(binding), binding.description)
        palette = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if palette is not None and self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            out.pop(palette[1].action, None)
            out["\0palette"] = ("\0palette", self.app.get_key_display(palette[1]), palette[1].description)
        return list(out.values())

    def _kept(self, items: list[tuple[str, str, str]], width: int) -> set[str]:
        """The actions that fit ``width`` (compact): the spare ones leave first, then the last."""
        spare: tuple[str, ...] = getattr(self.screen, "KEYBAR_SPARE", ())
        for action in spare:
            if _width(items, compact=True) <= width:
                break
            items = [i for i in items if i[0] != action]
        while items and _width(items, compact=True) > width:
            drop = next((i for i in reversed(items) if i[0] != "\0palette"), items[-1])
            items.remove(drop)
        return {i[0] for i in items}


def _width(items: list[tuple[str, str, str]], *, compact: bool) -> int:
    """Cells Textual's Footer takes for ``items``: a key padded by one cell each side and its
    description followed by one; compact, a key, a space, its description, and a margin of one."""
    per_item = 2 if compact else 3
    palette = any(a == "\0palette" for a, _k, _d in items)  # docked right, after a rule
    return sum(cell_len(key) + cell_len(desc) + per_item for _a, key, desc in items) + 2 * palette
