"""Statistics across saved games (``colosseum stats`` and the statistics screen).

Each saved game is summed up once (:class:`GameSummary`: the game, its edition, its other
options, each seat's name, kind, place and score, the score at the end of each round played,
what scored), and the summaries are kept in a cache in the data folder (``stats-cache.jsonl``),
keyed by each log's digest: a log whose size or time changed is read again, a log moved or
copied keeps its summary, a log gone is forgotten.  Then :func:`tally` sums them up for the
people who played (the human seats; ``player`` narrows it to one name), one section per game
*and edition* (D-97: an edition has its own score word and length, Colosseum's Original 2007
counts Spectators over 5 rounds, The Grand Spectacle Acclaim over 4): games and wins, by the
other options and the bots faced, average and best score, favourite and best-scoring plays, the
scores' spread and the average score at the end of each round (the last round's: the end).
No Textual (the command prints text; the screen draws plots of the same figures).

``colosseum stats --json`` prints one object: ``folder``, ``logs`` (saved games in it),
``player`` (the name asked, or null), ``unfinished``, ``forks`` (finished games from a position
of another, not counted) and ``games``, one entry per section keyed
``GAME`` or ``GAME:EDITION`` (``colosseum:grand``, ``colosseum:original``, ``municipium``): its
``game``, ``edition`` (the edition's value, "" for a game without editions), ``title``
(``Colosseum - The Grand Spectacle``), ``score_name`` and ``series_name`` (the edition's words),
``games``, ``wins``, ``by_options`` and ``by_opponent`` (``{"games", "wins"}`` per the other
options in words, ``"standard"`` without any, and per bot level, ``"people only"``),
``average``, ``best``, ``scores``, ``most_played``, ``best_plays``, ``by_round`` (the average
score at the end of round 1, 2, ... of the games that reached it; the last round's is the
final score) and ``spread`` (``{"low", "high", "count"}``).
"""

from __future__ import annotations

import hashlib
import os
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from colosseum.core.gamelog import GameLogError
from colosseum.core.names import printable

__all__ = [
    "GameSummary",
    "SeatSummary",
    "Tally",
    "cmd_stats",
    "figures",
    "load_summaries",
    "load_tally",
    "summarize",
    "tally",
]

CACHE = "stats-cache.jsonl"
CACHE_VERSION = 3  # 2: the edition apart from the other options; a series value per round played; 3: forks


class SeatSummary(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    kind: str  # "human" or the bot's level
    rank: int  # 0 while the game goes on
    score: int
    series: tuple[int, ...] = ()
    items: tuple[tuple[str, int], ...] = ()  # what scored: (Colosseum's spectacle, its Acclaim)


class GameSummary(msgspec.Struct, frozen=True, kw_only=True):
    game: str
    title: str  # the game's and its edition's (``Colosseum - Original 2007``, ``Municipium``)
    edition: str  # the edition's value (``original``; "" for a game without editions)
    options: str  # the other rules options away from their defaults, in words ("" for none)
    created: str
    finished: bool
    score_name: str
    series_name: str = "round"
    seats: tuple[SeatSummary, ...]
    fork: bool = False  # a game from a position of another (not counted: D-97)


class _Entry(msgspec.Struct, kw_only=True):
    v: int = CACHE_VERSION
    path: str
    size: int
    mtime: int
    digest: str
    summary: GameSummary | None = None  # None: not a game log (remembered so it is not read again)


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def summarize(data: bytes, path: Path | None = None) -> GameSummary | None:
    """A saved game's summary (None if the file is not a readable game log)."""
    from colosseum.core.logread import parse_log

    from .setups import edition_title, edition_value, option_words

    try:
        log = parse_log(data, path=path)
    except GameLogError:
        return None
    rules = log.rules
    tl = log.timeline
    states = [tl.state(i) for i in range(tl.end + 1)]
    events = [tl.events(i) for i in range(tl.end + 1)]
    final = states[-1]
    ranks = rules.ranks(final)
    scores = rules.scores(final)
    names = rules.names(final)
    sheet = rules.score_sheet(states, log.actions, events) if ranks is not None else None
    seats = []
    for i, kind in enumerate(log.seats):
        seats.append(
            SeatSummary(
                name=names[i],
                kind="human" if kind == "human" else rules.level_of(kind),
                rank=ranks[i] if ranks is not None else 0,
                score=scores[i],
                series=sheet.series[i] if sheet is not None and sheet.series else (),
                items=tuple((label, value) for seat, label, value in (sheet.items if sheet else ()) if seat == i),
            )
        )
    return GameSummary(
        game=log.game,
        title=edition_title(log.setup),
        edition=edition_value(log.setup),
        options=", ".join(option_words(log.setup, skip_edition=True, rules_only=True)),
        created=log.header.created,
        finished=ranks is not None,
        score_name=sheet.score_name if sheet is not None else rules.score_name,
        series_name=sheet.series_name if sheet is not None else "round",
        seats=tuple(seats),
        fork=log.header.fork_of is not None,
    )


def load_summaries(paths: Iterable[Path], cache_dir: Path) -> tuple[list[GameSummary], int]:
    """The summaries of ``paths``, from the cache where a file is unchanged; (summaries, files
    read anew).  The cache is rewritten (atomically) when anything changed; a cache that cannot
    be read or written only costs time."""
    cache_path = cache_dir / CACHE
    entries: dict[str, _Entry] = {}
    by_digest: dict[str, _Entry] = {}
    try:
        for line in cache_path.read_bytes().splitlines():
            try:
                e = msgspec.json.decode(line, type=_Entry)
            except (msgspec.DecodeError, ValueError):
                continue
            if e.v == CACHE_VERSION:
                entries[e.path] = e
                by_digest[e.digest] = e
    except OSError:
        pass
    out: list[GameSummary] = []
    fresh: dict[str, _Entry] = {}
    read = 0
    for path in paths:
        try:
            info = path.stat()
        except OSError:
            continue
        key = str(path)
        old = entries.get(key)
        if old is not None and old.size == info.st_size and old.mtime == info.st_mtime_ns:
            entry = old
        else:
            try:
                data = path.read_bytes()
            except OSError:
                continue
            digest = _digest(data)
            known = by_digest.get(digest)
            summary = known.summary if known is not None else summarize(data, path)
            read += known is None
            entry = _Entry(path=key, size=info.st_size, mtime=info.st_mtime_ns, digest=digest, summary=summary)
        fresh[key] = entry
        if entry.summary is not None:
            out.append(entry.summary)
    if read or fresh.keys() != entries.keys():
        _write(cache_path, fresh.values())
    return out, read


def _write(path: Path, entries: Iterable[_Entry]) -> None:
    tmp = path.with_suffix(".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            for e in entries:
                f.write(msgspec.json.encode(e) + b"\n")
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass


@dataclass
class Record:
    games: int = 0
    wins: int = 0

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass
class GameTally:
    """One game's figures in one edition (Colosseum's Grand Spectacle, Municipium) for the
    people counted: one score word, one kind of round."""

    title: str
    score_name: str
    series_name: str = "round"
    game: str = ""
    edition: str = ""
    record: Record = field(default_factory=Record)
    by_options: dict[str, Record] = field(default_factory=lambda: defaultdict(Record))
    by_opponent: dict[str, Record] = field(default_factory=lambda: defaultdict(Record))
    scores: list[int] = field(default_factory=list)
    series: list[tuple[int, ...]] = field(default_factory=list)
    plays: Counter[str] = field(default_factory=Counter)
    best_plays: dict[str, int] = field(default_factory=dict)

    @property
    def average(self) -> float:
        return statistics.fmean(self.scores) if self.scores else 0.0

    @property
    def best(self) -> int:
        return max(self.scores, default=0)

    def by_round(self) -> list[float]:
        """The average score at the end of each round (of the games that reached it; a game's
        last round ends with its final score)."""
        if not self.series:
            return []
        longest = max(len(s) for s in self.series)
        out = []
        for r in range(longest):
            values = [s[r] for s in self.series if len(s) > r]
            out.append(statistics.fmean(values))
        return out

    def spread(self, bins: int = 8) -> list[tuple[int, int, int]]:
        """The scores' distribution: (low, high, count) for ``bins`` equal ranges."""
        if not self.scores:
            return []
        low, high = min(self.scores), max(self.scores)
        width = max(1, -(-(high - low + 1) // bins))
        out = []
        for b in range(bins):
            lo = low + b * width
            if lo > high:
                break
            hi = lo + width - 1
            out.append((lo, hi, sum(1 for s in self.scores if lo <= s <= hi)))
        return out


@dataclass
class Tally:
    games: dict[str, GameTally] = field(default_factory=dict)
    unfinished: int = 0
    forks: int = 0  # finished games from a position of another, not counted
    player: str | None = None


def section_key(g: GameSummary) -> str:
    """The key of ``g``'s section: ``GAME`` or ``GAME:EDITION`` (``colosseum:original``)."""
    return f"{g.game}:{g.edition}" if g.edition else g.game


def tally(summaries: Sequence[GameSummary], player: str | None = None) -> Tally:
    """Every finished game's figures for its people (``player``: one name, case-insensitive),
    a section per game and edition, each in that edition's words (D-97)."""
    out = Tally(player=player)
    want = player.casefold() if player else None
    for g in summaries:
        if not g.finished:
            out.unfinished += 1
            continue
        counted = [seat for seat in g.seats if seat.kind == "human" and (want is None or seat.name.casefold() == want)]
        if not counted:  # (a game of bots, or of others: its words name no section)
            continue
        if g.fork:  # its start was played by others (or counted already, in the game it left)
            out.forks += 1
            continue
        key = section_key(g)
        t = out.games.get(key)
        if t is not None and (t.score_name, t.series_name) != (g.score_name, g.series_name):
            key = f"{key}:{g.score_name}:{g.series_name}"  # (an option that changes the words)
            t = out.games.get(key)
        if t is None:
            t = out.games[key] = GameTally(
                title=g.title, score_name=g.score_name, series_name=g.series_name, game=g.game, edition=g.edition
            )
        levels = sorted({s.kind for s in g.seats if s.kind != "human"})
        for seat in counted:
            won = seat.rank == 1
            for record in (t.record, t.by_options[g.options or "standard"]):
                record.games += 1
                record.wins += won
            for level in levels or ["people only"]:
                t.by_opponent[level].games += 1
                t.by_opponent[level].wins += won
            t.scores.append(seat.score)
            if seat.series:
                t.series.append(seat.series)
            for label, value in seat.items:
                t.plays[label] += 1
                t.best_plays[label] = max(value, t.best_plays.get(label, 0))
    return out


def _games(n: int) -> str:
    return f"{n} game" if n == 1 else f"{n} games"


def who_of(t: Tally) -> str:
    return f" of {printable(t.player)}" if t.player else " of the people at this keyboard"


def render(t: Tally, *, width: int = 80) -> str:
    """The figures as text for a terminal of ``width`` columns (every line fits)."""
    lines: list[str] = []
    who = who_of(t)
    if not t.games:
        left = not_counted(t)
        return f"No finished games{who} yet." + (f" {left}" if left else "") + "\n"
    for i, g in enumerate(t.games.values()):
        lines += [""] * bool(i) + game_lines(g, who, width)
    if not_counted(t):
        lines.append(not_counted(t))
    return "\n".join(lines) + "\n"


def not_counted(t: Tally) -> str:
    """``(2 unfinished games and 1 game from a position not counted)``, or "" if none."""
    parts = []
    if t.unfinished:
        parts.append(f"{t.unfinished} unfinished game{'s' if t.unfinished != 1 else ''}")
    if t.forks:
        parts.append(f"{_games(t.forks)} from a position (forks)")
    return f"({' and '.join(parts)} not counted)" if parts else ""


def game_lines(g: GameTally, who: str, width: int, *, tables: bool = True) -> list[str]:
    """One game's figures, each line within ``width`` cells; ``tables``: with the score by
    round and the scores' spread as text tables (the screen draws them as plots instead)."""
    from colosseum.tui.text import fit

    r = g.record
    lines = [fit(g.title, width), fit(f"  {_games(r.games)}{who}, {r.wins} won ({r.share:.0%})", width)]
    lines.append(fit(f"  {g.score_name}: average {g.average:.1f}, best {g.best}", width))
    for label, book in (("", g.by_options), ("against ", g.by_opponent)):
        for key, rec in sorted(book.items(), key=lambda kv: -kv[1].games):
            what = f"{label}{key}" if key != "standard" else ("no other options" if g.edition else "no options")
            lines.append(fit(f"  {what}: {_games(rec.games)}, {rec.wins} won ({rec.share:.0%})", width))
    if g.plays:
        fav = ", ".join(f"{name} x{n}" for name, n in g.plays.most_common(3))
        top = ", ".join(f"{name} {v}" for name, v in sorted(g.best_plays.items(), key=lambda kv: -kv[1])[:3])
        lines.append(fit(f"  most played: {fav}", width))
        lines.append(fit(f"  best scoring: {top}", width))
    if tables:
        lines += series_table(g, width) + spread_table(g, width)
    return lines


def series_table(g: GameTally, width: int) -> list[str]:
    """The average score at the end of each round (or turn), ten to a line."""
    from colosseum.tui.text import fit

    per = g.by_round()
    if not per:
        return []
    lines = [fit(f"  average {g.score_name} at the end of each {g.series_name}:", width)]
    for at in range(0, len(per), 10):
        chunk = per[at : at + 10]
        where = f"{at + 1}-{at + len(chunk)}" if len(chunk) > 1 else f"{at + 1}"
        lines.append(fit(f"    {where:>5}: " + " ".join(f"{v:>4.0f}" for v in chunk), width))
    return lines


def spread_table(g: GameTally, width: int) -> list[str]:
    """How many scores fell in each of eight ranges, with a bar of ``#``."""
    from colosseum.tui.text import fit

    spread = g.spread()
    if not spread:
        return []
    most = max(c for _, _, c in spread)
    lines = [fit(f"  {g.score_name} spread:", width)]
    for lo, hi, c in spread:
        bar = "#" * round(30 * c / most) if most else ""
        where = f"{lo}" if lo == hi else f"{lo}-{hi}"
        lines.append(fit(f"  {where:>9} {c:>4} {bar}", width))
    return lines


# ------------------------------------------------------------------------------ the folder


def logs_in(folder: Path) -> list[Path]:
    """The game logs in ``folder`` (none if there is no such folder).  Raises OSError when the
    folder cannot be read."""
    from colosseum.core.logwriter import SUFFIX

    try:
        names = sorted(os.listdir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return []
    return [folder / name for name in names if name.endswith(SUFFIX) and (folder / name).is_file()]


def cache_dir_for(folder: Path | None) -> Path:
    """Where the summaries of ``folder``'s games are cached: the data folder for the games
    folder; for another folder, a folder of its own under the data folder's ``stats-caches``
    (a cache holds one folder's games: summing up two folders in turn reads neither anew)."""
    from .storage import data_dir

    if folder is None:
        return data_dir()
    key = hashlib.blake2b(str(folder.resolve()).encode(), digest_size=8).hexdigest()
    return data_dir() / "stats-caches" / key


def load_tally(folder: Path | None = None, player: str | None = None) -> tuple[Tally, Path, int]:
    """The tally of ``folder``'s saved games (default: the games folder): (tally, the folder,
    how many logs it holds).  Raises OSError when the folder cannot be read."""
    from .storage import games_dir

    where = games_dir() if folder is None else folder
    paths = logs_in(where)
    summaries, _read = load_summaries(paths, cache_dir_for(folder))
    return tally(summaries, player=player), where, len(paths)


def figures(t: Tally) -> dict[str, object]:
    """The tally as plain values (``colosseum stats --json``; the module's text lists them)."""

    def record(r: Record) -> dict[str, object]:
        return {"games": r.games, "wins": r.wins}

    games = {}
    for key, g in t.games.items():
        games[key] = {
            "game": g.game,
            "edition": g.edition,
            "title": g.title,
            "score_name": g.score_name,
            "series_name": g.series_name,
            **record(g.record),
            "by_options": {k: record(v) for k, v in g.by_options.items()},
            "by_opponent": {k: record(v) for k, v in g.by_opponent.items()},
            "average": round(g.average, 2),
            "best": g.best,
            "scores": g.scores,
            "most_played": dict(g.plays.most_common()),
            "best_plays": g.best_plays,
            "by_round": [round(v, 2) for v in g.by_round()],
            "spread": [{"low": lo, "high": hi, "count": c} for lo, hi, c in g.spread()],
        }
    return {"player": t.player, "unfinished": t.unfinished, "forks": t.forks, "games": games}


def cmd_stats(args: object) -> int:
    """``colosseum stats [--json] [--dir FOLDER] [--player NAME]``."""
    import json
    import sys

    folder = getattr(args, "dir", None)
    player = getattr(args, "player", None) or None
    try:
        t, where, count = load_tally(Path(folder).expanduser() if folder else None, player)
    except (OSError, RuntimeError) as e:  # unreadable folder; no home folder for the data folder
        print(f"colosseum: cannot read the saved games: {e}", file=sys.stderr)
        return 1
    if getattr(args, "json", False):
        text = json.dumps({"folder": str(where), "logs": count, **figures(t)}, ensure_ascii=False) + "\n"
    elif not count:
        text = f"No saved games in {where}.\n"
    else:
        text = render(t, width=80) + f"({count} saved game{'' if count == 1 else 's'} in {where})\n"  # the path whole
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (``colosseum stats | head``): no traceback
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
    return 0
