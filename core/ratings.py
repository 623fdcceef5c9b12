"""Bot levels' ratings: how strong each level of each game is, in the rating model the lobby
uses for people (openskill's Bradley-Terry Full model: ``mu`` 25 and ``sigma`` 25/3 for a
newcomer, so a bot's rating reads like a person's).

``scripts/strength.py --fit`` fits them from the games its runs recorded (:func:`fit`: every
level starts as a newcomer; the games are taken in the order given, each game one match of one
team per seat, ranked by the game's places; a level that holds several seats of a game moves
by the mean of its seats' changes) and writes ``data/bot_ratings.json``, which
:func:`level_rating` reads.  Names no game: the table is keyed by the games' names.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

__all__ = [
    "BOT_ANCHORS",
    "DATA",
    "SHOWN_BASE",
    "SHOWN_SCALE",
    "LevelRating",
    "MatchResult",
    "best_of",
    "bot_anchor",
    "fit",
    "level_rating",
    "parse_table",
    "ratings_table",
    "shown",
    "table_json",
]

#: the table's file, in this package's data folder
DATA = "bot_ratings.json"

#: the number players see: ``SHOWN_BASE + SHOWN_SCALE * (mu - 3 sigma)`` (a newcomer shows 1500)
SHOWN_BASE, SHOWN_SCALE = 1500, 40

#: what a bot of each level counts as in a rated game, (mu, sigma), fixed (a small sigma: an
#: anchor), where the strength runs have not measured that level in that game (``bot_anchor``)
BOT_ANCHORS: dict[str, tuple[float, float]] = {
    "random": (10.0, 1.0),
    "easy": (20.0, 1.0),
    "normal": (25.0, 1.0),
    "hard": (31.0, 1.0),
    "expert": (34.0, 1.0),
}


@dataclass(frozen=True)
class LevelRating:
    """A level's fitted rating: ``mu`` (the estimate), ``sigma`` (its uncertainty), the games it
    was fitted from, and the budget its search had (``""`` where it has none)."""

    mu: float
    sigma: float
    games: int
    budget: str = ""

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: a rating it is almost surely above (openskill's ``ordinal``)."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class MatchResult:
    """One game as the fit reads it: the level of each seat and each seat's place (1 the best;
    places shared by a tie share their number)."""

    levels: tuple[str, ...]
    ranks: tuple[int, ...]


def fit(results: Iterable[MatchResult]) -> dict[str, LevelRating]:
    """Each level's rating from ``results``, taken in order (see the module's text)."""
    from openskill.models import BradleyTerryFull

    model = BradleyTerryFull()
    mu: dict[str, float] = {}
    sigma: dict[str, float] = {}
    games: dict[str, int] = {}
    for r in results:
        if len(r.levels) != len(r.ranks) or len(r.levels) < 2:
            raise ValueError(f"a game needs a level and a place for each of 2 or more seats: {r}")
        for lv in r.levels:
            if lv not in mu:
                mu[lv], sigma[lv], games[lv] = model.mu, model.sigma, 0
        teams = [[model.rating(mu=mu[lv], sigma=sigma[lv])] for lv in r.levels]
        new = model.rate(teams, ranks=list(r.ranks))
        moved: dict[str, list[tuple[float, float]]] = {}
        for lv, team in zip(r.levels, new, strict=True):
            moved.setdefault(lv, []).append((team[0].mu - mu[lv], team[0].sigma))
        for lv, changes in moved.items():
            mu[lv] += sum(d for d, _ in changes) / len(changes)
            sigma[lv] = sum(s for _, s in changes) / len(changes)
            games[lv] += 1
    return {lv: LevelRating(mu[lv], sigma[lv], games[lv]) for lv in mu}


@cache
def ratings_table() -> dict[str, dict[str, LevelRating]]:
    """The fitted ratings by game and level, as the strength script wrote them ({} if none)."""
    try:
        text = resources.files("colosseum.core").joinpath("data", DATA).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return {}
    return parse_table(text)


def parse_table(text: str) -> dict[str, dict[str, LevelRating]]:
    """The ratings by game and level in a data file's ``text`` (``table_json`` writes it)."""
    raw: dict[str, Any] = json.loads(text)
    out: dict[str, dict[str, LevelRating]] = {}
    for game, levels in raw.get("games", {}).items():
        out[game] = {
            level: LevelRating(float(v["mu"]), float(v["sigma"]), int(v["games"]), str(v.get("budget", "")))
            for level, v in levels.items()
        }
    return out


def best_of(levels: dict[str, LevelRating], level: str) -> LevelRating | None:
    """``level``'s rating among a game's: its own, else the budget it was measured at most."""
    found = levels.get(level)
    if found is not None:
        return found
    budgets = [r for name, r in levels.items() if name.startswith(f"{level} (")]
    return max(budgets, key=lambda r: r.games, default=None)


def level_rating(game: str, level: str) -> LevelRating | None:
    """The rating of ``game``'s bot ``level`` (``normal``, ``hard``...), None where no games of
    it were measured; an older name of a level is the caller's to resolve (``Rules.level_of``).
    A search level is rated at each budget it was measured at (``hard (200 playouts)``): the one
    with the most games answers."""
    return best_of(ratings_table().get(game, {}), level)


def table_json(games: dict[str, dict[str, LevelRating]], notes: Sequence[str] = ()) -> str:
    """The data file's text for ``games`` (what ``ratings_table`` reads back)."""
    body = {
        "model": "openskill BradleyTerryFull (mu 25, sigma 25/3 for a newcomer)",
        "notes": list(notes),
        "games": {
            game: {
                level: {"mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "games": r.games, "budget": r.budget}
                for level, r in sorted(levels.items(), key=lambda kv: -kv[1].mu)
            }
            for game, levels in sorted(games.items())
        },
    }
    return json.dumps(body, indent=2, ensure_ascii=False) + "\n"


def shown(mu: float, sigma: float) -> int:
    """The number players see: conservative (three deviations below the estimate)."""
    return round(SHOWN_BASE + SHOWN_SCALE * (mu - 3 * sigma))


def bot_anchor(game: str, level: str) -> tuple[float, float, bool]:
    """What a bot of ``level`` counts as in a rated game of ``game``: (mu, sigma, measured).

    Where the strength runs measured the level and the game's ``normal`` (the data table), the
    level sits as far from ``normal``'s anchor as the fit puts it from ``normal`` (the fit's own
    zero is where its games began, not a person's), and no lower than a weaker measured level
    (``BOT_ANCHORS``' order: ``expert`` measured as strong as ``hard`` or a little below counts
    as ``hard``, D-106).  A level they did not measure keeps its
    fixed distance (``BOT_ANCHORS``) from the measured level nearest to it there, so that the
    levels stay in order; with nothing measured, the fixed anchors.  ``greedy`` is ``normal``'s
    older name; an unknown level counts as ``normal``.
    """
    level = "normal" if level == "greedy" else level
    mu, sigma = BOT_ANCHORS.get(level, BOT_ANCHORS["normal"])
    levels = ratings_table().get(game, {})
    normal = best_of(levels, "normal")
    if normal is None:
        return mu, sigma, False
    measured: dict[str, float] = {}
    floor = float("-inf")
    for name in sorted(BOT_ANCHORS, key=lambda n: BOT_ANCHORS[n][0]):  # weakest first
        found = best_of(levels, name)
        if found is not None:
            # a level measured below a weaker one counts as that one (D-106): within the runs'
            # noise they are as strong, and a stronger level never counts for less
            floor = measured[name] = max(floor, BOT_ANCHORS["normal"][0] + found.mu - normal.mu)
    if level in measured:
        return measured[level], sigma, True
    near = min(measured, key=lambda name: (abs(BOT_ANCHORS[name][0] - mu), name))
    return measured[near] + mu - BOT_ANCHORS[near][0], sigma, False
