"""The Municipium client app: ``MuniApp`` (a ``BaseApp``: the shared themes and ASCII keys),
``run_municipium`` for ``colosseum play --game municipium`` and ``run_muni_session`` for a game
resumed from its log.  A game is saved as it is played (``tui.storage``), like Colosseum's."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from textual.binding import Binding

from colosseum.core.errors import RuleError
from colosseum.core.games.municipium import MuniSetup
from colosseum.core.games.municipium.bots import ALIASES, BOTS
from colosseum.core.games.municipium.spec import SPEC
from colosseum.tui.base import BaseApp

from .session import MuniLocalSession, Seat

DEFAULT_NAMES = ("Becky", "Kat", "Laura", "Marcus")

CSS = """
Toast { max-width: 60; border-left: heavy $primary; }
Toast.-warning { border-left: heavy $warning; }
Toast.-error { border-left: heavy $error; }
"""


class MuniApp(BaseApp):
    """The client for one Municipium game (``session``)."""

    TITLE = "Municipium"
    CSS = CSS
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", id="muniapp.quit", priority=True),
    ]

    def __init__(
        self,
        session: MuniLocalSession,
        *,
        bot_delay: float = 0.6,
        theme: str | None = None,
        exit_at_end: bool = False,
        auto_dialogs: bool = True,
    ) -> None:
        super().__init__(theme=theme)
        self.session = session
        self.bot_delay = bot_delay
        self.exit_at_end = exit_at_end
        self.auto_dialogs = auto_dialogs

    async def action_quit(self) -> None:
        """Ctrl+Q in a game still going asks first (y or Enter quits, a second Ctrl+Q too) and
        says, after the terminal is back, where the game is kept."""
        from rich.text import Text

        from colosseum.tui.screens.confirm import ConfirmScreen

        recorder = getattr(self.session, "recorder", None)
        path = getattr(recorder, "path", None) if getattr(recorder, "error", None) is None else None
        going = self.session.state.phase != "over"
        note = Text(f"colosseum: game saved ({path}) — continue with `colosseum resume`") if going and path else None
        if isinstance(self.screen, ConfirmScreen) or not going:
            self.exit(message=note)
            return
        question = (
            "Leave the game? It is saved: continue it later with `colosseum resume`."
            if path
            else "Leave the game? It is not being saved, so it cannot be continued."
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self.exit(message=note)

        self.push_screen(ConfirmScreen("Quit?", question), answered)

    def get_default_screen(self) -> Any:
        from .screen import MuniGameScreen

        return MuniGameScreen(
            self.session, bot_delay=self.bot_delay, exit_at_end=self.exit_at_end, auto_dialogs=self.auto_dialogs
        )


def make_muni_session(
    names: Sequence[str], kinds: Sequence[str], *, seed: int, options: Sequence[str] = ()
) -> MuniLocalSession:
    """A local game; ``kinds`` per seat: 'human' or a bot name (``bots.BOTS``).  Raises
    RuleError (bad names, player count, option) or ValueError (unknown bot, seat count)."""
    for k in kinds:
        if k != "human" and ALIASES.get(k, k) not in BOTS:
            raise ValueError(f"unknown bot {k!r}; choose from {', '.join(sorted(BOTS))}")
    setup: MuniSetup = SPEC.make_setup(names, seed=seed, options=tuple(options))
    return MuniLocalSession(setup, tuple(Seat(kind=k) for k in kinds))


def run_municipium(
    names: Sequence[str],
    kinds: Sequence[str],
    seed: int,
    options: Sequence[str] = (),
    bot_delay: float = 0.6,
    *,
    theme: str | None = None,
    exit_at_end: bool = False,
) -> int:
    """Play one game in the terminal; the exit status (2 for a setup the engine refuses)."""
    try:
        session = make_muni_session(names, kinds, seed=seed, options=options)
    except (RuleError, ValueError) as err:
        print(f"colosseum: {err}", file=sys.stderr)
        return 2
    record(session)
    return run_muni_session(session, bot_delay=bot_delay, theme=theme, exit_at_end=exit_at_end)


def record(session: MuniLocalSession) -> None:
    """Save the game in the games folder as it is played (never raises: a log that cannot be
    written is retried after every action, and what is lost is said when the game ends)."""
    from colosseum.tui.storage import record_game

    record_game(session)


def finish(app: MuniApp) -> int:
    """After the app: let go of the game's log; moves that could not be saved are said on the
    terminal and make the status 1."""
    from colosseum.tui.storage import finish_recording

    status = app.return_code or 0
    lost = finish_recording(app.session)
    if lost:
        print(f"colosseum: {lost}", file=sys.stderr)
        return status or 1
    return status


def run_muni_session(
    session: MuniLocalSession, *, bot_delay: float = 0.6, theme: str | None = None, exit_at_end: bool = False
) -> int:
    """Run the client on an existing session (a resumed game, already recording)."""
    app = MuniApp(session, bot_delay=bot_delay, theme=theme, exit_at_end=exit_at_end)
    app.run()
    return finish(app)


def build_from_args(args: Any, *, save: bool = True) -> MuniApp | int:
    """The app ``colosseum play --game municipium`` runs, or an exit status for bad arguments.
    Reads ``players`` (2-4), ``humans``, ``bots``, ``names``, ``seed``, ``bot_delay``,
    ``exit_at_end``, ``theme`` and ``options`` (Municipium's: short, single-chamber)."""
    n = int(getattr(args, "players", 3) or 3)
    if not 2 <= n <= 4:
        print("colosseum: Municipium is played by 2 to 4 players", file=sys.stderr)
        return 2
    humans = int(getattr(args, "humans", 1))
    if not 0 <= humans <= n:
        print(f"colosseum: --humans must be 0 to {n}", file=sys.stderr)
        return 2
    raw_names = getattr(args, "names", None)
    names = tuple(x.strip() for x in raw_names.split(",")) if raw_names else DEFAULT_NAMES[:n]
    if len(names) != n:
        print(f"colosseum: --names needs {n} names", file=sys.stderr)
        return 2
    bot = getattr(args, "bots", "greedy") or "greedy"
    kinds = ("human",) * humans + (bot,) * (n - humans)
    seed = getattr(args, "seed", None)
    if seed is None:
        import secrets

        seed = secrets.randbelow(1_000_000)
    try:
        session = make_muni_session(names, kinds, seed=seed, options=tuple(getattr(args, "options", ()) or ()))
    except (RuleError, ValueError) as err:
        print(f"colosseum: {err}", file=sys.stderr)
        return 2
    if save:
        record(session)
    return MuniApp(
        session,
        bot_delay=float(getattr(args, "bot_delay", None) or 0.6),
        theme=getattr(args, "theme", None),
        exit_at_end=bool(getattr(args, "exit_at_end", False)),
    )


def run_from_args(args: Any) -> int:
    """``colosseum play --game municipium``: build the app from the parsed arguments and run it."""
    app = build_from_args(args)
    if isinstance(app, int):
        return app
    app.run()
    return finish(app)
