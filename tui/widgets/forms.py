"""Form fields drawn in ASCII: Textual's checkbox and select draw their marks with
ambiguous-width glyphs, which some terminals (and CJK locales) draw two cells wide."""

from __future__ import annotations

from textual.widgets import Checkbox


class AsciiCheckbox(Checkbox):
    """A checkbox drawn as [x] / [ ]: readable without colour, no ambiguous-width glyphs."""

    @property
    def _button(self):
        from textual.content import Content

        style = self.get_visual_style("toggle--label")
        return Content.assemble(("[x]" if self.value else "[ ]", style))


def ascii_select_arrows(node) -> None:
    """Select widgets under ``node`` draw their arrows as 'v' and '^', not triangles."""
    for arrow in node.query(".down-arrow"):
        arrow.update("v")
    for arrow in node.query(".up-arrow"):
        arrow.update("^")
