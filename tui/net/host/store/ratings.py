"""Ratings: openskill's Bradley-Terry Full model, per game, from the places of rated games.

Pure (no database): ``rate`` turns one finished game's places and the players' ratings before
it into their ratings after it; the store applies it in the order games ended, and
``rebuild`` replays every rated game to the same numbers.

The model is Bradley-Terry Full, not Plackett-Luce: openskill 6.2.0's Plackett-Luce gives the
third place the winners' rating when two share a win (its issues #155, #173, #201).

Decisions (docs/decisions.md D-30):

* A table is rated when its creator asks and at least two people sit at it when the game
  starts; else it is played unrated and says so.
* Bots are fixed anchors: a bot's seat takes part in the update with its level's rating, which
  never changes (``colosseum.core.ratings.bot_anchor``: as far from ``normal`` as the strength
  runs measured that level in that game, else a fixed anchor), so a game against people and bots
  tells as much as the people's places say.
* A person who left a rated game (a stand-in finished it for them) counts as last, below
  everyone who stayed (as on Board Game Arena); several who left share the last place.
* The number shown is conservative: ``1500 + 40 × (μ − 3σ)`` (a new player shows 1500), and it
  is marked provisional for the first ``PROVISIONAL_GAMES`` rated games of that game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import BradleyTerryFull

from colosseum.core.ratings import bot_anchor, shown

__all__ = [
    "MODEL",
    "PROVISIONAL_GAMES",
    "Entry",
    "Rating",
    "bot_rating",
    "places",
    "rate",
    "shown",
]

MODEL = BradleyTerryFull()
MU, SIGMA = MODEL.mu, MODEL.sigma
PROVISIONAL_GAMES = 10


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


@dataclass(frozen=True)
class Entry:
    """One seat of a finished rated game: its place, whether the person left, and the rating it
    plays at (a person's own, or a bot level's fixed anchor)."""

    seat: int
    rank: int  # the game's own place (1 = first; shared places share a number)
    rating: Rating
    fixed: bool = False  # a bot: its rating takes part but does not change
    left: bool = False


def places(entries: Sequence[Entry]) -> list[int]:
    """The places the rating counts: the game's own for those who stayed, and last (shared) for
    those who left, below everyone who stayed."""
    stayed = sorted({e.rank for e in entries if not e.left})
    # the stayers' places renumbered 1.. in their order (ties kept), the leavers after them
    dense = {rank: i + 1 for i, rank in enumerate(stayed)}
    last = len(stayed) + 1
    return [last if e.left else dense[e.rank] for e in entries]


def rate(entries: Sequence[Entry]) -> dict[int, Rating]:
    """The ratings after one game, by seat, for the seats whose rating changes (not bots)."""
    if len(entries) < 2:
        return {}
    teams = [[MODEL.rating(mu=e.rating.mu, sigma=e.rating.sigma)] for e in entries]
    after = MODEL.rate(teams, ranks=[float(p) for p in places(entries)])
    out = {}
    for e, team in zip(entries, after, strict=True):
        if not e.fixed:
            out[e.seat] = Rating(mu=team[0].mu, sigma=team[0].sigma, games=e.rating.games + 1)
    return out


def bot_rating(level: str, game: str) -> Rating:
    """A bot's fixed rating in a rated game of ``game`` (``colosseum.core.ratings.bot_anchor``:
    measured by the strength runs where they measured it)."""
    mu, sigma, _measured = bot_anchor(game, level)
    return Rating(mu=mu, sigma=sigma, games=PROVISIONAL_GAMES)
