"""The Colosseum dialogs' key bar: Textual's Footer, kept up to date without the app's focus.

(Its own module: only the dialogs load it, and with it Textual's Footer.)"""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


class LiveFooter(Footer):
    """Textual's Footer, kept up to date while the app has no focus too, as ``KeyBar`` is.
    Textual's skips every bindings change then (a browser tab in the background, a terminal
    window behind another, still seen), and a key typed there gives the focus back without
    refreshing it: a dialog opened meanwhile showed an empty key bar until the next screen came
    (seen in the browser after a reconnect)."""

    def bindings_changed(self, screen: Screen[object]) -> None:
        self._bindings_ready = True
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self.recompose)
