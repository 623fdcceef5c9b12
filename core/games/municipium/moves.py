"""The optional move at the start of a turn (M-5.1): checking and applying ``Move``, and the
list of concrete moves ``legal`` offers."""

from __future__ import annotations

from colosseum.core.errors import RuleError
from colosseum.core.games.municipium.actions import Move, Path
from colosseum.core.games.municipium.board import Ctx, add
from colosseum.core.games.municipium.catalog import MuniCatalog
from colosseum.core.games.municipium.model import Player


def _check(cat: MuniCatalog, p: Player, paths: tuple[Path, ...]) -> None:
    if not paths or len(paths) > 2:
        raise RuleError("M-5.1", "move one or two members (or pass)")
    for path in paths:
        if not (0 <= path.frm < 7 and 0 <= path.to < 7):
            raise RuleError("M-5.1", "no such institution")
        if path.via < 0:
            if path.to not in cat.adjacent[path.frm]:
                raise RuleError("M-5.1", f"no road from the {cat.inst_name(path.frm)} to the {cat.inst_name(path.to)}")
        else:
            if len(paths) != 1:
                raise RuleError("M-5.1", "a two-step move is the only move of the turn")
            if not 0 <= path.via < 7 or path.via not in cat.adjacent[path.frm] or path.to not in cat.adjacent[path.via]:
                raise RuleError("M-5.1", "a two-step move follows two roads")
            if path.to == path.frm:
                raise RuleError("M-5.1", "a two-step move ends at another institution")
    need: dict[tuple[int, bool], int] = {}
    for path in paths:
        need[(path.frm, path.crowned)] = need.get((path.frm, path.crowned), 0) + 1
    for (frm, crowned), count in need.items():
        have = p.crowned[frm] if crowned else p.plain[frm]
        if have < count:
            what = "crowned members" if crowned else "members"
            raise RuleError("M-5.1", f"you have not {count} {what} at the {cat.inst_name(frm)}")


def apply_move(ctx: Ctx, a: Move) -> None:
    p = ctx.st.players[a.player]
    _check(ctx.cat, p, a.paths)
    plain, crowned = p.plain, p.crowned
    for path in a.paths:
        if path.crowned:
            crowned = add(add(crowned, path.frm, -1), path.to, 1)
        else:
            plain = add(add(plain, path.frm, -1), path.to, 1)
        ctx.log(
            "move",
            f"{p.name} moves a member from the {ctx.cat.inst_name(path.frm)} to the {ctx.cat.inst_name(path.to)}.",
            a.player,
        )
    ctx.set_player(a.player, plain=plain, crowned=crowned)


def move_options(cat: MuniCatalog, p: Player, seat: int) -> list[Move]:
    """Every move: one or two one-step paths (unordered, distinct pieces), and one two-step
    path per reachable destination (the lowest middle institution stands for all)."""
    pieces = [(i, c) for i in range(7) for c in (False, True) if (p.crowned[i] if c else p.plain[i])]
    steps = [Path(frm=i, to=j, crowned=c) for i, c in pieces for j in cat.adjacent[i]]
    out = [Move(player=seat, paths=(s,)) for s in steps]
    for x in range(len(steps)):
        for y in range(x, len(steps)):
            a, b = steps[x], steps[y]
            if (a.frm, a.crowned) == (b.frm, b.crowned):
                have = p.crowned[a.frm] if a.crowned else p.plain[a.frm]
                if have < 2:
                    continue
            out.append(Move(player=seat, paths=(a, b)))
    for i, c in pieces:
        seen: set[int] = set()
        for via in cat.adjacent[i]:
            for j in cat.adjacent[via]:
                if j != i and j not in seen:
                    seen.add(j)
                    out.append(Move(player=seat, paths=(Path(frm=i, to=j, via=via, crowned=c),)))
    return out
