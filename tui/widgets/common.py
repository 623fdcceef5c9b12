"""Shared presentation helpers: player letters, seat colours, the prompt line.

Nothing here decides a rule: facts come from the State and from ``colosseum.core`` queries.
"""

from __future__ import annotations

from functools import lru_cache

from rich.style import Style

from colosseum.core.games.colosseum import State, catalog, to_act
from colosseum.themes import DEFAULT_THEME, seat_colour
from colosseum.tui.text import fit

NOBLE_LETTERS = ("E", "C", "C", "S", "S", "S")
NOBLE_NAMES = ("emperor", "consul", "consul", "senator", "senator", "senator")
MARKETS = "ABCDE"


def player_letters(names: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """One distinct lower-case letter per player.  Names that begin with a Latin letter get
    it first (so a name without one, e.g. in Japanese, never takes "Aurelia"'s "a"); then each
    other name gets a free letter of the name, else the first free letter of the alphabet."""
    return _player_letters(tuple(names))


@lru_cache(maxsize=64)
def _player_letters(names: tuple[str, ...]) -> tuple[str, ...]:
    picks: list[str] = [""] * len(names)
    taken: set[str] = set()
    for i, name in enumerate(names):
        first = name.strip()[:1].lower()
        if first.isascii() and first.isalpha() and first not in taken:
            picks[i] = first
            taken.add(first)
    for i, name in enumerate(names):
        if picks[i]:
            continue
        candidates = [c.lower() for c in name if c.isascii() and c.isalpha()]
        pick = next((c for c in candidates if c not in taken), "")
        if not pick:
            pick = next(c for c in "abcdefghijklmnopqrstuvwxyz" if c not in taken)
        picks[i] = pick
        taken.add(pick)
    return tuple(picks)


@lru_cache(maxsize=256)
def seat_style(theme: str, seat: int, bold: bool = True) -> Style:
    if seat < 0:
        return Style()
    return Style(color=seat_colour(theme if theme.startswith("colosseum") else DEFAULT_THEME, seat), bold=bold)


def rounds_total(state: State) -> int:
    return catalog(state).rules.gifts + 1


def short(state: State, kind: int) -> str:
    return catalog(state).tiles[kind].short


#: cells a player's name may take in a one-line prompt (a longer one ends with an ellipsis)
PROMPT_NAME_CELLS = 14


def prompt(state: State) -> tuple[int, str]:
    """(seat to act, what they must do now) in plain words; (-1, text) when nobody acts.
    Names are cut to ``PROMPT_NAME_CELLS`` cells so the instruction stays on the line."""
    seat = to_act(state)
    if seat < 0:
        if state.result is not None:
            res = state.result
            w = state.players[res.winner]
            if len(res.shared) > 1:
                who = " and ".join(fit(state.players[s].name, PROMPT_NAME_CELLS) for s in res.shared)
                return -1, f"game over: {who} share the win with {w.acclaim} Acclaim"
            return -1, f"game over: {fit(w.name, PROMPT_NAME_CELLS)} wins with {w.acclaim} Acclaim"
        return -1, "game over"
    names = [fit(p.name, PROMPT_NAME_CELLS) for p in state.players]
    ph = state.phase
    what = ""
    if ph == "setup":
        what = "choose a pair of starting gates"
    elif ph == "invest":
        made = len(state.invest.made) if state.invest else 0
        what = "invest or end the turn"
        if made:
            what = "invest again or end the turn"
    elif ph == "hire":
        h = state.hire
        if h is not None and h.auction is not None:
            a = h.auction
            what = f"raise above {a.high} on market {MARKETS[a.market]} or pass"
        else:
            what = "open an auction or pass"
    elif ph == "trade":
        t = state.trade
        if t is not None and t.deal is not None:
            if t.deal.answers[seat] == "pending":
                what = f"accept or reject {names[t.deal.proposer]}'s deal"
            else:
                what = "close or cancel the deal"
        else:
            what = "propose a deal or end the trade turn"
    elif ph == "perform":
        pt = state.perform
        stage = pt.stage if pt else "roll"
        dice = " and ".join(map(str, pt.dice)) if pt else ""
        if stage == "roll":
            what = "roll the dice or skip"
        elif stage == "mode":
            what = f"rolled {dice}: split or sum"
        elif stage == "move":
            what = f"rolled {dice}: move a noble"
        else:
            what = "perform a spectacle or pass"
    elif ph == "closing":
        cl = state.closing
        if cl is not None and cl.stage == "retire":
            what = "retire a performer"
        elif cl is not None and cl.stage == "steal":
            what = f"steal a performer from {names[cl.victim]}"
        else:
            what = "choose the next first player"
    return seat, f"{names[seat]}: {what}"
