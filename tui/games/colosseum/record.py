"""Colosseum's record body (``colosseum export``): round by round from the engine's events,
each performance's Acclaim line by line, then the final ranking with its tie-breaks.  The head
(title, edition, options, players) is the shell's.  No Textual."""

from __future__ import annotations

from colosseum.core.errors import RuleError
from colosseum.core.gamelog import describe_action
from colosseum.core.games.colosseum import State
from colosseum.core.games.colosseum.actions import ChooseDice, Perform
from colosseum.core.games.colosseum.components import CatalogError
from colosseum.core.games.colosseum.engine import breakdown, catalog, spectacle_by_key
from colosseum.core.games.colosseum.queries import phase_title
from colosseum.core.timeline import GameLog


def quiet_text(state: State, action: object) -> str:
    """A sentence for a decision the engine logs none for (the dice mode)."""
    seat = getattr(action, "player", -1)
    name = state.players[seat].name if 0 <= seat < state.n else f"Seat {seat}"
    if isinstance(action, ChooseDice):
        return f"{name} uses the dice {'one by one' if action.mode == 'split' else 'as a sum'}."
    return f"{name}: {describe_action(action)}."


def record_lines(log: GameLog, taken_back: dict[int, list[str]]) -> list[str]:
    """The record's body, round by round, from the engine's events."""
    from colosseum.tui.text import pad

    tl = log.timeline
    out: list[str] = list(taken_back.get(0, []))
    section = None
    for i in range(1, len(tl)):
        action = tl.actions[i - 1]
        for ev in tl.events(i):
            if ev.phase == "setup":
                head = "Setup"
            elif ev.phase == "over" or ev.kind == "over":
                head = "End of the game"
            else:
                head = f"Round {ev.round}"
            if head != section:
                section = head
                out += ["", f"== {head} =="]
            if ev.kind == "phase":
                out += ["", ev.text]
                continue
            out.append(f"  {ev.text}")
            if ev.kind == "perform" and isinstance(action, Perform):
                out += _breakdown_lines(tl.state(i - 1), action)
        out += taken_back.get(i, [])
    for i in sorted(k for k in taken_back if k > tl.end):  # taken back past where the log ends
        out += taken_back[i]
    final: State = tl.state(tl.end)
    out.append("")
    if final.result is not None:
        out.append("== Final ranking ==")
        for s in final.result.standings:
            p = final.players[s.seat]
            why = f"   (ahead on {s.decided_by})" if s.decided_by and s.decided_by != "acclaim" else ""
            out.append(
                f"  {s.rank}. {pad(p.name, 16)} {s.acclaim:>3} {catalog(final).term_start('acclaim')}  {s.coins:>3} coins  "
                f"{catalog(final).count_term(s.stars, 'stars').lower()}{why}"
            )
    else:
        where = phase_title(final)
        out.append(f"== Unfinished: round {final.round}, {where} ==")
        for p in sorted(final.players, key=lambda p: -p.acclaim):
            out.append(f"  {pad(p.name, 16)} {p.acclaim:>3} {catalog(final).term_start('acclaim')}  {p.coins:>3} coins")
    return out


def _breakdown_lines(state: State, action: Perform) -> list[str]:
    """The Acclaim of a performance (the original's spectators), line by line, as the engine
    computes it."""
    try:
        spec = spectacle_by_key(catalog(state), action.spectacle)
        b = breakdown(state, action.player, spec, action.aquilas)
    except (RuleError, CatalogError, LookupError):  # the event sentence already says what happened
        return []
    lines = [f"      {label:<34} {value:>3}" for label, value in b.lines if value]
    lines.append(f"      {catalog(state).term_start('acclaim'):<34} {b.total:>3}")
    return lines
