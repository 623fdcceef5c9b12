"""Shared presentation helpers: player letters, seat colours, the prompt line.

Nothing here decides a rule: facts come from the State and from ``colosseum.core`` queries.
"""

from __future__ import annotations

from colosseum.core.games.colosseum import State, catalog, to_act
from colosseum.core.games.colosseum.components import a_word
from colosseum.tui.text import fit
from colosseum.tui.widgets.style import player_letters, player_marks, seat_style

__all__ = [
    "MARKETS",
    "NOBLE_LETTERS",
    "NOBLE_NAMES",
    "a_word",
    "player_letters",
    "player_marks",
    "prompt",
    "rounds_total",
    "score_word",
    "seat_style",
    "short",
]

NOBLE_LETTERS = ("E", "C", "C", "S", "S", "S")
NOBLE_NAMES = ("emperor", "consul", "consul", "senator", "senator", "senator")
MARKETS = "ABCDE"


def score_word(state: State) -> str:
    """The edition's word for the score, to begin a sentence: Acclaim, or the original's
    Spectators (O-23)."""
    return catalog(state).term_start("acclaim")


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
            score = f"{w.acclaim} {catalog(state).term('acclaim')}"
            if len(res.shared) > 1:
                who = " and ".join(fit(state.players[s].name, PROMPT_NAME_CELLS) for s in res.shared)
                return -1, f"game over: {who} share the win with {score}"
            return -1, f"game over: {fit(w.name, PROMPT_NAME_CELLS)} wins with {score}"
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
            what = f"perform {catalog(state).a_term('spectacle')} or pass"
    elif ph == "closing":
        cl = state.closing
        cat = catalog(state)
        if cl is not None and cl.stage == "retire":
            what = f"retire {cat.a_term('performer')}"
        elif cl is not None and cl.stage == "steal" and cat.rules.steal_from == "gift":  # O-26
            what = f"take {cat.a_term('performer')} from {names[cl.victim]}"
        elif cl is not None and cl.stage == "steal":
            what = f"steal a performer from {names[cl.victim]}"
        else:
            what = "choose the next first player"
    return seat, f"{names[seat]}: {what}"
