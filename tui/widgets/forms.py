"""Form fields drawn in ASCII: Textual's checkbox and select draw their marks with
ambiguous-width glyphs, which some terminals (and CJK locales) draw two cells wide."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.text import Text
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Checkbox, Input

from colosseum.tui.text import pad


class AsciiCheckbox(Checkbox):
    """A checkbox drawn as [x] / [ ]: readable without colour, no ambiguous-width glyphs."""

    @property
    def _button(self):
        style = self.get_visual_style("toggle--label")
        return Content.assemble(("[x]" if self.value else "[ ]", style))


def ascii_select_arrows(node) -> None:
    """Select widgets under ``node`` draw their arrows as 'v' and '^', not triangles."""
    for arrow in node.query(".down-arrow"):
        arrow.update("v")
    for arrow in node.query(".up-arrow"):
        arrow.update("^")


class Cycle(Widget, can_focus=True):
    """A one-line choice among a few values, changed in place with Left/Right (or Space, or a
    click): much lighter than a ``Select`` (no overlay list to compose), so a form of several
    starts fast.  Drawn as ``value  <>`` in ASCII."""

    DEFAULT_CSS = """
    Cycle { height: 1; width: 14; background: $boost; color: $foreground; }
    Cycle:focus { background: $primary 40%; text-style: bold; }
    """
    BINDINGS = [
        Binding("right,space", "step(1)", "next", show=False, id="cycle.next"),
        Binding("left", "step(-1)", "previous", show=False, id="cycle.prev"),
    ]

    class Changed(Message):
        def __init__(self, cycle: Cycle, value: object) -> None:
            super().__init__()
            self.cycle = cycle
            self.value = value

        @property
        def control(self) -> Cycle:
            return self.cycle

    def __init__(
        self, options: Sequence[tuple[str, object]], value: object, *, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.options = list(options)
        values = [v for _, v in self.options]
        self._index = values.index(value) if value in values else 0

    @property
    def value(self) -> object:
        return self.options[self._index][1]

    @value.setter
    def value(self, value: object) -> None:
        values = [v for _, v in self.options]
        if value not in values:
            raise ValueError(f"{value!r} is not one of the choices")
        self._set_index(values.index(value))

    def _set_index(self, index: int) -> None:
        if index == self._index:
            return
        self._index = index
        self.refresh()
        self.post_message(self.Changed(self, self.value))

    def action_step(self, d: int) -> None:
        self._set_index((self._index + d) % len(self.options))

    def on_click(self) -> None:
        self.focus()
        self.action_step(1)

    def render(self) -> Text:
        label = self.options[self._index][0]
        room = max(1, (self.size.width or 14) - 3)
        return Text(pad(label, room) + " <>", no_wrap=True, overflow="crop")


class FormButton(Widget, can_focus=True):
    """A one-line button drawn as Textual's compact primary ``Button``, pressed with Enter or a
    click: Textual's parses the stylesheet of every button variant and style when the first
    one mounts, a good part of a form's start-up."""

    DEFAULT_CSS = """
    FormButton {
        width: auto; min-width: 16; height: 1; line-pad: 1;
        text-align: center; content-align: center middle; pointer: pointer;
        text-style: bold; color: $button-color-foreground; background: $primary;
    }
    FormButton:focus { text-style: $button-focus-text-style; background-tint: $foreground 5%; }
    FormButton:hover { background: $primary-darken-2; }
    """
    BINDINGS = [Binding("enter", "press", "Press button", show=False, id="button.press")]

    class Pressed(Message):
        def __init__(self, button: FormButton) -> None:
            super().__init__()
            self.button = button

        @property
        def control(self) -> FormButton:
            return self.button

    def __init__(self, label: str, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.label = label

    def get_content_width(self, container, viewport) -> int:
        return cell_len(self.label) + 2

    def get_content_height(self, container, viewport, width: int) -> int:
        return 1

    def render(self) -> Text:
        return Text(self.label, no_wrap=True, overflow="crop")

    def action_press(self) -> None:
        self.post_message(self.Pressed(self))

    def on_click(self) -> None:
        self.focus()
        self.action_press()


class FormCheckbox(Widget, can_focus=True):
    """A checkbox drawn and used as a compact :class:`AsciiCheckbox` (``[x] label``; Enter, Space
    or a click toggles ``value``), without Textual's toggle-button machinery, which costs a form
    of few fields a good part of its first frame."""

    COMPONENT_CLASSES = {"toggle--label"}  # the mark and the label, as AsciiCheckbox draws them
    DEFAULT_CSS = """
    FormCheckbox {
        width: auto; height: 1; background: $surface;
        text-wrap: nowrap; text-overflow: ellipsis; pointer: pointer;
        &:focus {
            background-tint: $foreground 5%;
            & > .toggle--label {
                color: $block-cursor-foreground;
                background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
        }
        &:blur:hover > .toggle--label { background: $block-hover-background; }
    }
    """
    BINDINGS = [Binding("enter,space", "toggle_button", "Toggle", show=False, id="checkbox.toggle")]

    def __init__(self, label: str, value: bool = False, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.label = label
        self._value = bool(value)

    @property
    def value(self) -> bool:
        return self._value

    @value.setter
    def value(self, value: bool) -> None:
        if bool(value) != self._value:
            self._value = bool(value)
            self.refresh()

    def action_toggle_button(self) -> None:
        self.value = not self.value

    def on_click(self) -> None:
        self.focus()
        self.action_toggle_button()

    def get_content_width(self, container, viewport) -> int:
        return 3 + (2 + cell_len(self.label) if self.label else 0)

    def get_content_height(self, container, viewport, width: int) -> int:
        return 1

    def render(self) -> Content:
        style = self.get_visual_style("toggle--label")
        label = Content(self.label).pad(1, 1).stylize_before(style)
        return Content.assemble(("[x]" if self._value else "[ ]", style), label)


class FormInput(Input):
    """Textual's ``Input``, restyled only once it is in the DOM.  Its constructor sets classes
    (``-textual-compact``, ``-valid``) and Textual restyles the lone widget for each, with its
    four component styles, though it is styled in full when mounted: a form of five fields
    spent a good part of its first frame on this."""

    def update_node_styles(self, animate: bool = True) -> None:
        if self.is_attached:
            super().update_node_styles(animate=animate)
