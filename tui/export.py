"""A game log as a readable record (``colosseum export``) or as one JSON document of every
position (``colosseum export --format json``).  Formatting only: no files, no Textual."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Iterator

import msgspec

from colosseum.core.errors import RuleError
from colosseum.core.gamelog import describe_action
from colosseum.core.games.colosseum import GameSetup, State
from colosseum.core.games.colosseum.actions import Action, ChooseDice, Perform
from colosseum.core.games.colosseum.components import CatalogError
from colosseum.core.games.colosseum.engine import breakdown, catalog, spectacle_by_key
from colosseum.core.games.colosseum.model import PHASE_TITLES
from colosseum.core.games.municipium import MuniSetup
from colosseum.core.timeline import GameLog

# ``text`` (terminal cells) needs rich: imported where used, so ``colosseum simulate`` loads neither


def players_text(setup: GameSetup | MuniSetup, seats: Iterable[str], width: int | None = None) -> str:
    """``Becky, Kat (random), Laura (greedy)``: a bot seat says which bot.  With ``width``, cut
    to at most that many terminal cells (a CJK name takes two a character)."""
    text = ", ".join(p if k == "human" else f"{p} ({k})" for p, k in zip(setup.players, seats, strict=False))
    if width is None:
        return text
    from .text import fit

    return fit(text, width)


def local_date(iso: str) -> str:
    """A header's UTC time (``2026-11-29T14:12:05Z``) as local ``2026-11-29 15:12``."""
    try:
        t = _dt.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=_dt.UTC)
        return t.astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso[:16] or "?"


def _head_lines(log: GameLog, title: str, rules: str) -> list[str]:
    """The record's head, for either game: title, file, when, ``rules`` (the game's line),
    players, where it came from, how many actions."""
    out = [f"{title}: game record"]
    if log.path is not None:
        out.append(f"File:     {log.path.name}")
    out.append(
        f"Created:  {local_date(log.header.created)}   (colosseum {log.header.program}, log format {log.header.version})"
    )
    out.append(rules)
    out.append(f"Players:  {players_text(log.header.setup, log.seats)}")
    if log.header.resumed_from:
        out.append(f"Continues the log {log.header.resumed_from} (damaged, or not writable)")
    out += _fork_lines(log)
    out.append(f"Actions:  {log.timeline.end}")
    return out


def export_text(log: GameLog) -> str:
    """A readable record of the game, round by round, from the engine's events."""
    if log.game == "municipium":
        return muni_export_text(log)
    from .text import pad

    tl = log.timeline
    setup = log.setup
    title = "Colosseum - The Grand Spectacle" if setup.variant == "grand" else "Colosseum (classic)"
    opts = ", ".join(setup.options) or "none"
    out = _head_lines(log, title, f"Variant:  {setup.variant}   options: {opts}   seed: {setup.seed}")
    taken_back = _taken_back(log)
    if log.undos:
        out.append(f"Taken back: {len(log.undos)} time{'s' if len(log.undos) != 1 else ''} (shown in [brackets])")
    out += taken_back.get(0, [])
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
    final = tl.state(tl.end)
    out.append("")
    if final.result is not None:
        out.append("== Final ranking ==")
        for s in final.result.standings:
            p = final.players[s.seat]
            why = f"   (ahead on {s.decided_by})" if s.decided_by and s.decided_by != "acclaim" else ""
            out.append(
                f"  {s.rank}. {pad(p.name, 16)} {s.acclaim:>3} Acclaim  {s.coins:>3} coins  "
                f"{s.stars} star{'s' if s.stars != 1 else ''}{why}"
            )
    else:
        where = PHASE_TITLES.get(final.phase, final.phase)
        out.append(f"== Unfinished: round {final.round}, {where} ==")
        for p in sorted(final.players, key=lambda p: -p.acclaim):
            out.append(f"  {pad(p.name, 16)} {p.acclaim:>3} Acclaim  {p.coins:>3} coins")
    if log.error is not None:
        out += ["", f"The log is damaged after this point: {log.error}"]
    return "\n".join(out) + "\n"


def muni_export_text(log: GameLog) -> str:
    """A Municipium game as a readable record, turn by turn, from the engine's events."""
    from colosseum.core.games.municipium import State as MuniState

    from .text import pad

    tl = log.timeline
    setup: MuniSetup = log.header.setup  # a MuniHeader's setup
    out = _head_lines(log, "Municipium", f"Options:  {', '.join(setup.options) or 'none'}   seed: {setup.seed}")
    taken_back = _taken_back(log)
    out += taken_back.get(0, [])
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
    final: MuniState = tl.state(tl.end)  # a Municipium timeline
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
    if log.error is not None:
        out += ["", f"The log is damaged after this point: {log.error}"]
    return "\n".join(out) + "\n"


def _fork_lines(log: GameLog) -> list[str]:
    h = log.header
    out = []
    if h.fork_of:
        out.append(f"Fork of:  {h.fork_of} after its first {h.fork_at} actions")
    if h.reseed_at is not None:
        out.append(f"New chance from action {h.reseed_at} on (reseeded)")
    return out


def _taken_back(log: GameLog) -> dict[int, list[str]]:
    """Lines for each undo, by the position the game went back to."""
    out: dict[int, list[str]] = {}
    for w in log.undos:
        n = len(w.actions)
        who = w.line.text or f"{w.line.name or 'A player'} took back"
        lines = [f"  [{who} - {n} action{'s' if n != 1 else ''} withdrawn:"]
        for k, action in enumerate(w.actions):
            text = w.texts[k] if k < len(w.texts) and w.texts[k] else _quiet(log, action)
            lines.append(f"     ({w.at + 1 + k}. {text})")
        lines[-1] += "]"
        out.setdefault(w.at, []).extend(lines)
    return out


def _quiet(log: GameLog, action: Action) -> str:
    """A sentence for a decision the engine logs none for (the dice mode)."""
    players = log.setup.players
    name = players[action.player] if 0 <= action.player < len(players) else f"Seat {action.player}"
    if isinstance(action, ChooseDice):
        return f"{name} uses the dice {'one by one' if action.mode == 'split' else 'as a sum'}."
    return f"{name}: {describe_action(action)}."


def _breakdown_lines(state: State, action: Perform) -> list[str]:
    """The Acclaim of a performance, line by line, as the engine computes it."""
    try:
        spec = spectacle_by_key(catalog(state), action.spectacle)
        b = breakdown(state, action.player, spec, action.aquilas)
    except (RuleError, CatalogError, LookupError):  # the event sentence already says what happened
        return []
    lines = [f"      {label:<34} {value:>3}" for label, value in b.lines if value]
    lines.append(f"      {'Acclaim':<34} {b.total:>3}")
    return lines


def export_json_chunks(log: GameLog) -> Iterator[bytes]:
    """One JSON document: {"header", "error", "positions": [{index, action, events, state}]},
    one position per line (the full replayed state after each action)."""
    enc = msgspec.json.Encoder()
    tl = log.timeline
    err = None
    if log.error is not None:
        err = {"line": log.error.line, "kind": log.error.kind, "message": str(log.error)}
    head = b'{"header":' + enc.encode(log.header) + b',\n"error":' + enc.encode(err)
    if log.undos:  # what was taken back: the undo line, where the game went back to, the actions
        head += b',\n"undos":' + enc.encode(
            [{"line": w.line, "at": w.at, "actions": w.actions, "lineno": w.lineno} for w in log.undos]
        )
    yield head + b',\n"positions":[\n'
    for i in range(len(tl)):
        action = tl.actions[i - 1] if i else None
        item = b'{"index":%d,"action":%s,"events":%s,"state":%s}' % (
            i,
            enc.encode(action),
            enc.encode(tl.events(i)),
            enc.encode(tl.state(i)),
        )
        yield item + (b",\n" if i < tl.end else b"\n")
    yield b"]}\n"
