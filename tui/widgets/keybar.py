"""A one-line footer of the keys that do something now.

Like Textual's Footer (bindings the screen's ``check_action`` hides are left out), but a single
widget that redraws text instead of rebuilding a row of widgets, so it is cheap to update on
every move, and drawn in ASCII only.

When the keys do not fit the width, the screen's ``KEYBAR_SPARE`` actions (most expendable first)
leave the bar one by one; the palette key always stays, last (what leaves the bar is in the
palette and in F1 help).
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.widget import Widget

__all__ = ["KeyBar", "key_for"]


def key_for(widget: Widget, action: str) -> str | None:
    """The key that runs ``action`` on ``widget``'s screen now (as the key bar shows it, after
    the user's keymap), or None: a panel that names a key names the one its screen binds (the
    game screen's ``f`` follows, the review's ``0``)."""
    try:
        bindings = widget.screen.active_bindings
    except Exception:  # noqa: BLE001 - not mounted (yet): no key to name
        return None
    for _node, binding, enabled, _tip in bindings.values():
        if binding.action == action and enabled:
            return widget.app.get_key_display(binding)
    return None


class KeyBar(Widget):
    DEFAULT_CSS = """
    KeyBar { height: 1; dock: bottom; background: $panel; color: $foreground; }
    KeyBar > .keybar--key { color: $primary; text-style: bold; }
    KeyBar > .keybar--desc { color: $foreground; }
    """
    COMPONENT_CLASSES = {"keybar--key", "keybar--desc"}

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    _shown: tuple[tuple[tuple[str, str], ...], int] | None = None  # what the bar drew last

    def _changed(self, screen) -> None:
        # the screen's bindings are looked at again after every move: redraw only if the keys
        # shown change (a redraw of the bar cost 2 ms of a client's 16 per move, issue 24)
        if (tuple(self.items()), self.size.width) != self._shown:
            self.refresh()

    def items(self) -> list[tuple[str, str]]:
        """(keys, description) pairs shown now, grouped bindings joined, fitted to the width."""
        entries = self._entries()
        width = self.size.width or 80
        spare: tuple[str, ...] = getattr(self.screen, "KEYBAR_SPARE", ())
        for action in spare:
            if _width([(k, d) for k, d, _a in entries]) <= width:
                break
            entries = [e for e in entries if e[2] != action]
        return [(k, d) for k, d, _a in entries]

    def _entries(self) -> list[tuple[str, str, str]]:
        """(keys, description, action) of every key that works now."""
        out: list[tuple[str, str, str]] = []
        seen_actions: set[str] = set()
        group_keys: dict[object, list[str]] = {}
        group_pos: dict[object, int] = {}
        palette = None
        for key, (_node, binding, enabled, _tip) in self.screen.active_bindings.items():
            if key == self.app.COMMAND_PALETTE_BINDING and self.app.ENABLE_COMMAND_PALETTE:
                palette = self.app.get_key_display(binding)
                continue
            if not binding.show or not enabled:
                continue
            display = self.app.get_key_display(binding)
            if binding.group is not None:
                g = binding.group
                if g not in group_pos:
                    group_pos[g] = len(out)
                    group_keys[g] = []
                    out.append(("", g.description, binding.action.split("(")[0]))
                group_keys[g].append(display)
                continue
            if binding.action in seen_actions:
                continue
            seen_actions.add(binding.action)
            out.append((display, binding.description, binding.action))
        for group, pos in group_pos.items():
            keys = group_keys[group]
            # seat keys as a range (1-3; two of them 1-2, not "12", which reads as twelve)
            joined = f"{keys[0]}-{keys[-1]}" if len(keys) > 1 and all(k.isdigit() for k in keys) else "".join(keys)
            out[pos] = (joined, out[pos][1], out[pos][2])
        if palette:
            out.append((palette, "palette", "command_palette"))
        return out

    def render(self) -> Text:
        key_style = self.get_component_rich_style("keybar--key", partial=True)
        desc_style = self.get_component_rich_style("keybar--desc", partial=True)
        items = self.items()
        self._shown = (tuple(items), self.size.width)
        # two spaces between items when they fit, else one (so every key shows at 80 columns)
        gap = " " if _width(items, gap=2) > (self.size.width or 80) else "  "
        t = Text(no_wrap=True, overflow="crop")
        for i, (keys, desc) in enumerate(items):
            t.append(gap if i else " ")
            t.append(keys, key_style)
            t.append(" ")
            t.append(desc, desc_style)
        t.append(" ")
        return t


def _width(items: list[tuple[str, str]], gap: int = 1) -> int:
    """Cells the bar needs with ``gap`` spaces between items (one before the first, one after
    the last)."""
    if not items:
        return 0
    return sum(cell_len(k) + 1 + cell_len(d) for k, d in items) + gap * (len(items) - 1) + 2
