"""User settings kept between runs: the theme, the bot delay and key overrides.

One TOML file, ``settings.toml`` in ``platformdirs.user_config_dir("colosseum")`` (or in
``$COLOSSEUM_CONFIG_DIR``)::

    theme = "colosseum-light"
    bot_delay = 0.3

    [keys]            # binding id = keys (Textual's keymap); ids are listed by `F1`
    "game.review" = "v,ctrl+r"
    "trade.end" = "e,x"

    [new_game]        # the new-game screen's last choices (written by the program)
    game = "colosseum"
    players = 4
    names = ["Becky", "Kat", "Laura", "Marcus", "Titus"]
    kinds = ["human", "normal", "normal", "normal", "normal"]

    [new_game.options]
    variant = "classic"

A missing file means the defaults; a damaged one is reported and ignored (never a crash).
Command-line options win over the file.  No Textual here: the command line reads it too.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from colosseum.themes import THEME_NAMES

from .keymap_ids import key_problem

CONFIG_ENV = "COLOSSEUM_CONFIG_DIR"
FILE_NAME = "settings.toml"
DEFAULT_BOT_DELAY = 0.6


@dataclass
class Settings:
    theme: str | None = None
    bot_delay: float | None = None
    keys: dict[str, str] = field(default_factory=dict)
    #: the new-game screen's last choices: game, players, names, kinds, options (plain values)
    new_game: dict[str, Any] = field(default_factory=dict)
    #: the guided first game was offered (on the first start: once, D-63)
    tutorial_offered: bool = False
    #: what was wrong with the file, if anything (shown to the player, then ignored)
    problem: str = ""


def config_dir() -> Path:
    """``$COLOSSEUM_CONFIG_DIR`` if set, else the platform's user config folder."""
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_config_dir("colosseum", appauthor=False))


def settings_path() -> Path:
    return config_dir() / FILE_NAME


def load_settings(path: Path | None = None) -> Settings:
    path = settings_path() if path is None else path
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Settings()
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        return Settings(problem=f"{path}: {err} (every setting is its default)")
    out = Settings()
    problems = []
    theme = data.get("theme")
    if isinstance(theme, str) and theme and not _theme_exists(theme):
        problems.append(f"theme {theme!r} is none of {', '.join(THEME_NAMES)}")
    elif isinstance(theme, str) and theme:
        out.theme = theme
    elif theme is not None:
        problems.append("theme must be a name")
    delay = data.get("bot_delay")
    if isinstance(delay, int | float) and not isinstance(delay, bool) and 0 <= delay <= 60:
        out.bot_delay = float(delay)
    elif delay is not None:
        problems.append("bot_delay must be seconds from 0 to 60")
    keys = data.get("keys", {})
    if isinstance(keys, dict):
        for binding_id, value in keys.items():
            if isinstance(value, str) and value.strip():
                problem = key_problem(str(binding_id), value.strip())
                if problem is None:
                    out.keys[str(binding_id)] = value.strip()
                else:
                    problems.append(problem)  # (the binding keeps its default)
            else:
                problems.append(f'keys.{binding_id} must be keys such as "v,ctrl+r"')
    else:
        problems.append("[keys] must be a table")
    out.tutorial_offered = data.get("tutorial_offered") is True
    new_game = data.get("new_game", {})
    if isinstance(new_game, dict):
        out.new_game = new_game  # read loosely: what is not understood is the default
    else:
        problems.append("[new_game] must be a table")
    if problems:
        out.problem = f"{path}: " + "; ".join(problems) + " (those entries are left out)"
    return out


def _theme_exists(name: str) -> bool:
    from textual.theme import BUILTIN_THEMES

    return name in THEME_NAMES or name in BUILTIN_THEMES


def _toml_string(text: str) -> str:
    """A TOML basic string: quotes and backslashes escaped, control characters as \\uXXXX."""
    out = []
    for ch in text:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _toml_value(value: Any) -> str | None:
    """A plain value (a string, a whole number, a yes/no, a list of those) in TOML; None for
    anything else (left out of the file)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, (list, tuple)):
        items = [_toml_value(v) for v in value]
        if any(i is None for i in items):
            return None
        return "[" + ", ".join(i for i in items if i is not None) + "]"
    return None


def _toml_key(key: object) -> str:
    text = str(key)
    return text if text and all(c.isascii() and (c.isalnum() or c in "_-") for c in text) else _toml_string(text)


def _toml_table(name: str, table: dict[str, Any]) -> list[str]:
    lines = ["", f"[{name}]"]
    subtables = []
    for key, value in table.items():
        if isinstance(value, dict):
            subtables.append((key, value))
            continue
        text = _toml_value(value)
        if text is not None:
            lines.append(f"{_toml_key(key)} = {text}")
    for key, value in subtables:
        lines += _toml_table(f"{name}.{_toml_key(key)}", value)
    return lines


def dump_settings(settings: Settings) -> str:
    lines = [
        "# Colosseum settings (see the README).  Rewritten when a setting changes in the game:",
        "# values are kept, comments are not.",
    ]
    if settings.theme:
        lines.append(f"theme = {_toml_string(settings.theme)}")
    if settings.bot_delay is not None:
        lines.append(f"bot_delay = {settings.bot_delay!r}")
    if settings.tutorial_offered:
        lines.append("tutorial_offered = true")
    if settings.keys:
        lines.append("")
        lines.append("[keys]")
        for binding_id, keys in sorted(settings.keys.items()):
            lines.append(f"{_toml_string(binding_id)} = {_toml_string(keys)}")
    if settings.new_game:
        lines += _toml_table("new_game", settings.new_game)
    return "\n".join(lines) + "\n"


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write ``settings`` (atomically: a crash leaves the old file).  Raises OSError."""
    path = settings_path() if path is None else path
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(dump_settings(settings), encoding="utf-8")
    os.replace(tmp, path)


def remember(**changes: object) -> str:
    """Update the stored settings with ``changes`` (theme=..., bot_delay=...), keeping the
    rest of the file; '' or the reason it could not be saved."""
    path = settings_path()
    current = load_settings(path)
    if current.problem:
        return f"settings not saved: {current.problem}"
    for key, value in changes.items():
        setattr(current, key, value)
    try:
        save_settings(current, path)
    except OSError as err:
        return f"settings not saved: {err}"
    return ""
