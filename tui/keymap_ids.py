"""What a key override in ``settings.toml`` may name: the binding ids of the client (the keymap's
ids; F1 lists a screen's) and keys as Textual names them.  An override naming anything else is
reported on screen and the default kept (issue 23).  ``KNOWN_IDS`` is checked against the
client's bindings by ``tests/tui/test_keymap_ids.py``: a binding added or renamed must be added
here too."""

from __future__ import annotations

__all__ = ["KNOWN_IDS", "key_problem"]

#: every binding id of the client's screens, dialogs and widgets
KNOWN_IDS = frozenset(
    {
        "app.help",
        "app.help-q",
        "app.hint",
        "app.quit",
        "app.tutorial-off",
        "app.tutorial-skip",
        "app.undo",
        "aquila.less",
        "aquila.more",
        "aquila.move",
        "auction.less",
        "auction.more",
        "auction.open",
        "auction.pass",
        "auction.pass_turn",
        "auction.raise",
        "button.press",
        "checkbox.toggle",
        "choose.close",
        "confirm.no",
        "confirm.yes",
        "cycle.next",
        "cycle.prev",
        "dialog.back",
        "dialog.close",
        "dialog.confirm",
        "dialog.help",
        "dialog.legend",
        "dialog.log",
        "dialog.rules",
        "dialog.undo",
        "end.back",
        "end.new",
        "end.next",
        "end.prev",
        "end.rematch",
        "game.act",
        "game.act-enter",
        "game.detail",
        "game.follow",
        "game.hint",
        "game.legend",
        "game.log",
        "game.result",
        "game.review",
        "game.rules",
        "game.rush",
        "game.step",
        "game.undo",
        "game.view-1",
        "game.view-2",
        "game.view-3",
        "game.view-4",
        "game.view-5",
        "help.close",
        "help.close-f1",
        "help.close-q",
        "hint.close",
        "hint.close-enter",
        "hint.longer",
        "invest.end",
        "invest.exchange",
        "invest.gate",
        "invest.plan",
        "invest.promoter",
        "invest.temple",
        "legend.close",
        "legend.close-k",
        "lobby.create",
        "lobby.create-cancel",
        "log.down",
        "log.end",
        "log.home",
        "log.pagedown",
        "log.pageup",
        "log.up",
        "mdialog.back",
        "mdialog.choose",
        "mdialog.help",
        "mdialog.legend",
        "mdialog.log",
        "mdialog.next",
        "mdialog.prev",
        "mdialog.rules",
        "mdialog.undo",
        "mlog.down",
        "mlog.end",
        "mlog.home",
        "mlog.pagedown",
        "mlog.pageup",
        "mlog.up",
        "newgame.back",
        "newgame.start",
        "newgame.stats",
        "nobles.confirm",
        "nobles.die",
        "nobles.less",
        "nobles.more",
        "nobles.move",
        "nobles.skip",
        "perform.aquila_move",
        "perform.confirm",
        "perform.less",
        "perform.more",
        "perform.nothing",
        "playfrom.cancel",
        "playfrom.start",
        "rules.close",
        "rules.close-r",
        "stats.back",
        "stats.tables",
        "steal.decline",
        "trade.accept",
        "trade.accept_y",
        "trade.clear",
        "trade.close",
        "trade.column",
        "trade.counter",
        "trade.end",
        "trade.less",
        "trade.more",
        "trade.next",
        "trade.not_round",
        "trade.prev",
        "trade.propose",
        "trade.reject",
        "trade.withdraw",
        "viewer.back",
        "viewer.back-h",
        "viewer.close",
        "viewer.close-q",
        "viewer.end",
        "viewer.end-G",
        "viewer.follow",
        "viewer.forward",
        "viewer.forward-l",
        "viewer.analyse",
        "viewer.parent",
        "viewer.phase-back",
        "viewer.phase-back-p",
        "viewer.phase-forward",
        "viewer.phase-forward-n",
        "viewer.play-from",
        "viewer.round-back",
        "viewer.round-forward",
        "viewer.seat-1",
        "viewer.seat-2",
        "viewer.seat-3",
        "viewer.seat-4",
        "viewer.seat-5",
        "viewer.start",
        "viewer.start-g",
        "viewer.turn-back",
        "viewer.turn-back-k",
        "viewer.turn-forward",
        "viewer.turn-forward-j",
        "viewer.withdrawn",
    }
)

MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})


def _key_ok(key: str) -> bool:
    from textual.keys import Keys, key_to_character

    *mods, name = key.split("+")
    if not name or any(m not in MODIFIERS for m in mods):
        return False
    if len(name) == 1:
        return name.isprintable() and not name.isspace()
    return name in {k.value for k in Keys} or key_to_character(name) is not None


def key_problem(binding_id: str, keys: str) -> str | None:
    """Why ``binding_id = keys`` cannot be taken (None: it can): an id no binding has, or a key
    Textual does not know (``"!!!notakey,,"``)."""
    if binding_id not in KNOWN_IDS:
        return f"keys.{binding_id}: no binding has that id (F1 lists a screen's ids)"
    bad = [k.strip() for k in keys.split(",") if not _key_ok(k.strip())]
    if bad:
        words = [repr(k) for k in dict.fromkeys(bad) if k] + (["an empty key"] if "" in bad else [])
        verb = "is not a key" if len(words) == 1 else "are not keys"
        return f'keys.{binding_id}: {" and ".join(words)} {verb} (keys such as "v,ctrl+r")'
    return None
