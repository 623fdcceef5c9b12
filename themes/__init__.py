"""Colour themes of the Colosseum client, registered with the app at run time.

Each theme defines the usual Textual colours plus one variable per seat (``$seat-0`` ..
``$seat-4``) used for player letters, names and log lines.  Seat colours are picked so they
stay apart when a terminal has only 16 colours (red, yellow, green, blue/cyan, magenta); the
player's letter is always shown as well, so colour is never the only channel.

``colosseum-colourblind`` is for players who tell colours apart poorly: seat colours from the
Okabe-Ito palette (no red beside green), and each seat shown by a symbol (``SEAT_SYMBOLS``: ASCII,
one cell in every terminal and locale, no two alike) wherever the other themes show its letter.
"""

from __future__ import annotations

DEFAULT_THEME = "colosseum-dark"
THEME_NAMES = ("colosseum-dark", "colosseum-light", "colosseum-contrast", "colosseum-colourblind")
#: the theme that shows seats by symbol
SYMBOLS_THEME = "colosseum-colourblind"
#: a seat's symbol in that theme, by seat (a game has at most five seats): shapes the game screens
#: use for nothing else ('.' an empty space, '*' an Aquila space, '+' a stack, '$' coins, '~' a
#: cut name, '>' the player to act, '#' and '*' a chart's bars and lines)
SEAT_SYMBOLS = ("@", "%", "&", "=", "^")

_SPECS: dict[str, dict] = {
    "colosseum-dark": dict(
        primary="#d4a44c",  # gold
        secondary="#b5533c",  # terracotta
        accent="#e0c27a",
        warning="#e0a030",
        error="#e05545",
        success="#6fbf73",
        foreground="#ece3d0",
        background="#17130f",
        surface="#211b15",
        panel="#2e261d",
        dark=True,
        seats=("#ef5d50", "#e8c547", "#5fbf6a", "#55a8e8", "#d174d8"),
    ),
    "colosseum-light": dict(
        primary="#8a5a12",
        secondary="#9c3b26",
        accent="#6b4a10",
        warning="#a86400",
        error="#b3261e",
        success="#2e7d32",
        foreground="#2a2118",
        background="#f4ecdc",
        surface="#ebe0cb",
        panel="#ded0b4",
        dark=False,
        seats=("#c0281c", "#8a6d00", "#1f7a2a", "#1d5fb0", "#8e2a99"),
    ),
    "colosseum-contrast": dict(
        primary="#ffff00",
        secondary="#00ffff",
        accent="#ffffff",
        warning="#ffff00",
        error="#ff5555",
        success="#55ff55",
        foreground="#ffffff",
        background="#000000",
        surface="#000000",
        panel="#1a1a1a",
        dark=True,
        seats=("#ff5555", "#ffff55", "#55ff55", "#55ffff", "#ff55ff"),
    ),
    "colosseum-colourblind": dict(
        primary="#d4a44c",
        secondary="#56b4e9",
        accent="#e0c27a",
        warning="#f0e442",
        error="#e69f00",  # (no red beside green: error and success differ in hue for every eye)
        success="#56b4e9",
        foreground="#ece3d0",
        background="#17130f",
        surface="#211b15",
        panel="#2e261d",
        dark=True,
        # Okabe-Ito's orange, sky blue, yellow, a lighter blue and reddish purple: five apart
        # in 16 colours too (3, 14, 11, 12, 13)
        seats=("#e69f00", "#56b4e9", "#f0e442", "#5b8cff", "#e07bd0"),
    ),
}


#: A light theme's colours where the terminal has only 16 (``TERM=xterm``, a Linux console):
#: there the browns above all become colour 3, yellow, which most terminals draw at a contrast
#: of 1.5 to 2 on a white background (titles, borders, keys, the second seat), and the green of
#: success colour 8.  These are colours of the 16 themselves: titles and keys blue, warnings red,
#: the seats red, blue, green, magenta and cyan (the letter says the seat as well).
_SPECS_16: dict[str, dict] = {
    "colosseum-light": dict(
        primary="#0000aa",
        secondary="#aa0000",
        accent="#aa00aa",
        warning="#aa0000",
        error="#aa0000",
        success="#00aa00",
        foreground="#000000",
        background="#ffffff",
        surface="#ffffff",
        panel="#aaaaaa",
        seats=("#aa0000", "#0000aa", "#00aa00", "#aa00aa", "#00aaaa"),
        # muted and disabled text: grey (8), not the light grey (7) Textual's blend comes to
        variables={"text-muted": "#555555", "text-disabled": "#555555"},
    ),
}

#: the colour system of this process's terminal ("standard": 16 colours), set by
#: ``register_themes`` (a client process draws on one terminal)
_colour_system: str | None = None


def theme_spec(name: str, colour_system: str | None = None) -> dict:
    """The colours of theme ``name`` on a terminal with ``colour_system`` (Rich's names: "standard"
    for 16 colours; None: this process's terminal as registered)."""
    system = _colour_system if colour_system is None else colour_system
    spec = dict(_SPECS.get(name, _SPECS[DEFAULT_THEME]))
    if system == "standard":
        spec.update(_SPECS_16.get(name, {}))
    return spec


def build_themes(colour_system: str | None = None):
    """The Textual Theme objects (imports Textual, so only the client calls this), in the colours
    of a terminal with ``colour_system``."""
    from textual.theme import Theme

    themes = []
    for name in _SPECS:
        spec = theme_spec(name, colour_system or "")
        seats = spec.pop("seats")
        variables = {f"seat-{i}": c for i, c in enumerate(seats)}
        variables.update(spec.pop("variables", {}))
        variables.update(
            {
                "footer-key-foreground": spec["primary"],
                "block-cursor-text-style": "bold reverse" if name == "colosseum-contrast" else "bold",
                "input-cursor-text-style": "reverse",
            }
        )
        themes.append(Theme(name=name, variables=variables, **spec))
    return themes


def register_themes(app) -> None:
    global _colour_system
    _colour_system = getattr(getattr(app, "console", None), "color_system", None) or ""
    for theme in build_themes(_colour_system):
        app.register_theme(theme)


def seat_symbols(theme_name: str) -> tuple[str, ...] | None:
    """The seats' symbols when ``theme_name`` shows seats by symbol, else None (letters)."""
    return SEAT_SYMBOLS if theme_name == SYMBOLS_THEME else None


def seat_colour(theme_name: str, seat: int) -> str:
    return theme_spec(theme_name)["seats"][seat % 5]
