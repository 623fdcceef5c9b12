"""The end screen's content for Colosseum: the final ranking with the variant's tie-breaks spelled out (G-9, or a
shared win in the original, O-29), and each player's
Acclaim per round as a small text chart (``Player.history``)."""

from __future__ import annotations

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from colosseum.core.games.colosseum import State, catalog, rank
from colosseum.tui.text import fit, pad

from .common import player_marks, score_word, seat_style

ORDINALS = ("1st", "2nd", "3rd", "4th", "5th")


def _star_words(state: State) -> str:
    # the original edition calls them star cards (O-2, O-29)
    return catalog(state).term("stars")


def tie_break_rule(state: State) -> str:
    """The end-of-game tie-break of the variant in play (G-9, or O-29's shared win)."""
    stars = _star_words(state)
    score = score_word(state)
    if catalog(state).rules.end_tie == "shared":
        return f"Ties (O-29): {score}, then coins, then {stars}; still tied: the win is shared"
    return f"Ties (G-9): {score}, then coins, then {stars}, then lower in the stack"


def tie_break_text(state: State, standings, i: int) -> str:
    """Why standing ``i`` is ahead of standing ``i + 1`` (G-9 / O-29)."""
    a, b = standings[i], standings[i + 1]
    na, nb = (fit(state.players[x.seat].name, NAME_CELLS) for x in (a, b))
    stars = _star_words(state)
    score = score_word(state)
    by = a.decided_by
    if by == "acclaim":
        return f"{na} is ahead of {nb} on {score} ({a.acclaim} to {b.acclaim})."
    if by == "coins":
        return f"{na} and {nb} tie on {score} ({a.acclaim}); {na} has more coins ({a.coins} to {b.coins})."
    if by == "stars":
        return (
            f"{na} and {nb} tie on {score} ({a.acclaim}) and coins ({a.coins}); "
            f"{na} has more {stars} ({a.stars} to {b.stars})."
        )
    if by == "stack":
        return f"{na} and {nb} tie on {score}, coins and {stars}; {na}'s marker is lower in the stack."
    if a.rank == b.rank:
        return f"{na} and {nb} tie on {score}, coins and {stars}: they share the place."
    return f"{na} and {nb} cannot be separated."


#: cells a name takes in the ranking, the chart and the sentences
NAME_CELLS = 14


def result_text(state: State, theme: str, width: int = 76) -> Text:
    result = state.result or rank(state)
    standings = result.standings
    letters = player_marks([p.name for p in state.players], theme)
    bold = Style(bold=True)
    muted = Style(dim=True)
    out = Text()
    score = score_word(state)
    win = state.players[result.winner]
    if len(result.shared) > 1:
        who = " and ".join(fit(state.players[s].name, NAME_CELLS) for s in result.shared)
        out.append(f"{who} share the win with {win.acclaim} {score}.\n\n", bold + seat_style(theme, result.winner))
    else:
        out.append(
            f"{fit(win.name, NAME_CELLS)} wins with {win.acclaim} {score}.\n\n", bold + seat_style(theme, result.winner)
        )
    name_w = min(max(cell_len(p.name) for p in state.players), NAME_CELLS)
    name_w = max(name_w, len("Player"))
    stars_head = "Stars"
    score_w = max(7, len(score))
    out.append(f"     {'':2}{pad('Player', name_w)}  {score:>{score_w}}  Coins  {stars_head}\n", muted)
    for s in standings:
        p = state.players[s.seat]
        out.append(f"{ORDINALS[s.rank - 1]:<5}")
        out.append(f"{letters[s.seat]} ", seat_style(theme, s.seat))
        out.append(pad(p.name, name_w), seat_style(theme, s.seat, bold=s.rank == 1))
        out.append(f"  {s.acclaim:>{score_w}}  {s.coins:>5}  {s.stars:>5}\n")
    out.append(f"\n{tie_break_rule(state)}\n", muted)
    for i in range(len(standings) - 1):
        out.append(f"{ORDINALS[standings[i].rank - 1]} over {ORDINALS[standings[i + 1].rank - 1]}: ", muted)
        out.append(tie_break_text(state, standings, i) + "\n")
    rounds = max((len(p.history) for p in state.players), default=0)
    top = max((v for p in state.players for v in p.history), default=0)
    cell = max(4, (width - name_w - 4) // max(1, rounds) - 4)  # bar width per round
    scale = max(1, -(-top // cell))
    out.append(f"\n{score} of each round's performance ('#' = {scale} {score})\n", muted)
    out.append(" " * (name_w + 3))
    for r in range(rounds):
        out.append(f"{'Round ' + str(r + 1):<{cell + 4}}", muted)
    out.append("\n")
    for s in standings:
        p = state.players[s.seat]
        out.append(f"{letters[s.seat]} ", seat_style(theme, s.seat))
        out.append(pad(p.name, name_w) + " ", seat_style(theme, s.seat))
        for r in range(rounds):
            v = p.history[r] if r < len(p.history) else 0
            bar = "#" * (v // scale) if v else ""
            out.append(bar, seat_style(theme, s.seat, bold=False))
            label = (" " if bar else "") + (str(v) if v else "-")
            out.append(f"{label:<{cell + 4 - len(bar)}}")
        out.append("\n")
    out.append("\nFinal marker: " + ", ".join(_final(state, s) for s in standings))
    return out


def _final(state: State, standing) -> str:
    """'小明 73', and where the marker is not the best performance (it keeps the best, G-5.3;
    Aquilas turned in at the end move it on, G-9): '小明 73 (best performance 70, +3 at the end)'."""
    p = state.players[standing.seat]
    text = f"{fit(p.name, NAME_CELLS)} {standing.acclaim}"
    best = max(p.history, default=0)
    if standing.acclaim != best:
        text += f" (best performance {best}, {standing.acclaim - best:+d} at the end)"
    return text
