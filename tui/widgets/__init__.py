"""Panels of the main game screen, grouped by screen area.  Each renders from a ``State``
(``panel.show(state, seat)``) so the game-log viewer can reuse them for past positions."""
