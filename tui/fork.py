"""Forks: a new game from a position of another (``colosseum fork``, "play from here").

A fork's log is a complete game log of its own: a header with the parent's setup (names kept),
who plays each seat now, and a reference to the parent (``fork_of``: its file name, ``fork_at``:
how many of its actions were taken), then those actions.  It replays without the parent.

Chance after the fork point is the parent's: the generator state at action N is the one the
parent had, so the fork plays out as the parent did while the same decisions are made.  With
``reseed`` the generator state at N is replaced by a fresh one (``Header.reseed_point``), which
changes nothing before N.

No Textual here: the command line, the app and its dialog all use it.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from pathlib import Path

from colosseum.core import rng
from colosseum.core.gamelog import UNDO_VERSION, make_header
from colosseum.core.logwriter import SUFFIX, LogWriter
from colosseum.core.timeline import GameLog

from .session import LocalSession, Seat
from .storage import Recorder, game_file_name, games_dir


class ForkError(ValueError):
    """A fork that cannot be made as asked (``str(err)`` says why)."""


def seat_kinds(log: GameLog, humans: Sequence[int] | None = None, bots: Sequence[str] | None = None) -> tuple[str, ...]:
    """Who plays each seat of the fork: by default as in the parent.  ``humans``: the seats
    (0-based) people play; every other seat gets a bot, ``bots[k]`` for the k-th of them (the
    last name repeats; default: the parent's bot for that seat, else the game's usual level)."""
    n = len(log.seats)
    rules = log.timeline.rules
    known = rules.bot_names()
    if humans is None and bots is None:
        for i, kind in enumerate(log.seats):
            if kind != "human" and kind not in known:
                raise ForkError(
                    f"seat {i + 1} is played by {kind!r}, a bot this version does not have: choose with --bots"
                    f" ({', '.join(known)})"
                )
        return tuple(log.seats)
    people = set(humans) if humans is not None else {i for i, k in enumerate(log.seats) if k == "human"}
    bad = sorted(i for i in people if not 0 <= i < n)
    if bad:
        raise ForkError(f"there is no seat {bad[0] + 1} (the game has {n} players)")
    names = list(bots or ())
    for name in names:
        if name not in known:
            raise ForkError(f"unknown bot {name!r}; choose from {', '.join(known)}")
    kinds = []
    k = 0
    for i in range(n):
        if i in people:
            kinds.append("human")
            continue
        if names:
            kinds.append(names[min(k, len(names) - 1)])
        else:
            old = log.seats[i]
            kinds.append(old if old in known else rules.spec.default_level)
        k += 1
    return tuple(kinds)


def fork_session(log: GameLog, at: int, kinds: Sequence[str], *, reseed: int | None = None) -> LocalSession:
    """The game after the first ``at`` actions of ``log``, played by ``kinds`` (not recorded).
    ``reseed``: a new generator state at ``at``."""
    if not 0 <= at <= len(log.actions):
        raise ForkError(f"--at must be 0 to {len(log.actions)} (the actions in {_name(log)})")
    if len(kinds) != len(log.seats):
        raise ForkError(f"{len(kinds)} seats for {len(log.seats)} players")
    state = log.timeline.state(at)
    if log.timeline.rules.is_over(state):
        raise ForkError(f"the game is over after {at} actions: fork at an earlier action")
    parent = log.header.reseed_point()
    # the parent's own reseed stays if it lies within the actions taken
    point = (at, reseed) if reseed is not None else (parent if parent and parent[0] <= at else None)
    try:
        return LocalSession(log.setup, tuple(Seat(k) for k in kinds), actions=list(log.actions[:at]), reseed=point)
    except ValueError as e:  # e.g. a bot this version does not have
        raise ForkError(str(e)) from e


def new_seed() -> int:
    """A fresh generator state (for ``--reseed``)."""
    return rng.seed_state(secrets.randbits(63))


def _name(log: GameLog) -> str:
    return log.path.name if log.path is not None else "the game"


def record_fork(session: LocalSession, log: GameLog, at: int, folder: str | Path | None = None) -> Path:
    """Write the fork's log (header naming the parent, the first ``at`` actions) and keep
    recording ``session`` into it.  Returns its path.  Raises OSError."""
    header = make_header(
        session.setup,
        (s.kind for s in session.seats),
        fork_of=log.path.name if log.path is not None else None,
        fork_at=at,
        version=UNDO_VERSION,
        reseed=session.reseed,
    )
    if folder is None:
        folder = games_dir(create=True)
    parent = log.path.stem if log.path is not None else game_file_name(log.setup)[: -len(SUFFIX)]
    stem = re.sub(r"-fork-\d+$", "", parent) + "-fork"
    over = session.rules.is_over(session.state)
    writer = LogWriter.create(folder, stem, header, session.actions, first_suffix=1, end=over)
    session.recorder = Recorder(session, writer, header=header)
    return writer.path


def start_fork(
    log: GameLog,
    at: int,
    kinds: Sequence[str] | None = None,
    *,
    reseed: bool = False,
    folder: str | Path | None = None,
) -> tuple[LocalSession, Path]:
    """Fork ``log`` after ``at`` actions and record the new game (in the games folder unless
    ``folder``).  Raises ForkError or OSError."""
    session = fork_session(log, at, kinds or log.seats, reseed=new_seed() if reseed else None)
    return session, record_fork(session, log, at, folder)
