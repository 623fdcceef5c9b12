"""Municipium's record body (``colosseum export``): turn by turn from the engine's events, then
the final ranking.  The head (title, options, players) is the shell's.  No Textual."""

from __future__ import annotations

from colosseum.core.games.municipium import State
from colosseum.core.timeline import GameLog


def record_lines(log: GameLog, taken_back: dict[int, list[str]]) -> list[str]:
    """The record's body, turn by turn, from the engine's events."""
    from colosseum.tui.text import pad

    tl = log.timeline
    out: list[str] = list(taken_back.get(0, []))
    section = None
    for i in range(1, len(tl)):
        for ev in tl.events(i):
            if ev.phase == "over" or ev.kind == "over":
                head = "End of the game"
            elif ev.round == 0:
                head = "Initial placement"
            else:
                head = f"Turn {ev.round}"
            if head != section:
                section = head
                out += ["", f"== {head} =="]
            out.append(f"  {ev.text}")
        out += taken_back.get(i, [])
    for i in sorted(k for k in taken_back if k > tl.end):  # taken back past where the log ends
        out += taken_back[i]
    final: State = tl.state(tl.end)
    out.append("")
    if final.result is not None:
        out.append("== Final ranking ==")
        for s in final.result.standings:
            p = final.players[s.seat]
            why = f"   (ahead on {s.decided_by})" if s.decided_by and s.decided_by != "decurions" else ""
            out.append(f"  {s.rank}. {pad(p.name, 16)} {s.decurions:>2} decurions  {s.held:>2} held{why}")
    else:
        out.append(f"== Unfinished: turn {final.turn} ==")
        for p in sorted(final.players, key=lambda p: -p.decurions):
            out.append(f"  {pad(p.name, 16)} {p.decurions:>2} decurions  {p.favours:>2} favours")
    return out
