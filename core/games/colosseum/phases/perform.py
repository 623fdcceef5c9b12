"""Phase 4, Perform a Spectacle (G-5; Temple ranges and classic counting C-4): in turn order each
player rolls (or skips), moves nobles by the dice (split or sum), may spend Aquilas to move
nobles again, and performs one spectacle they own for Acclaim and coins (G-5.2, G-5.3).  After
the last performer the most acclaimed takes a gift (G-5.4) and Phase 5 begins, or, with no gift
left, the game ends (G-9).  In the original edition (O-1, O-24) Phase 5 begins with the podium,
and the game ends after Phase 4 of the last round.
"""

from __future__ import annotations

from functools import cache

from msgspec.structs import replace

from colosseum.core.errors import RuleError
from colosseum.core.games.colosseum.actions import (
    Action,
    AquilaMove,
    ChooseDice,
    EndTurn,
    MoveNoble,
    Perform,
    Roll,
)
from colosseum.core.games.colosseum.choices import BidOption, Handler, simple
from colosseum.core.games.colosseum.components import Catalog, Spectacle, load_catalog
from colosseum.core.games.colosseum.context import Ctx, end_game
from colosseum.core.games.colosseum.model import NOBODY, PerformTurn, Player, State
from colosseum.core.games.colosseum.phases.closing import closing_podium, closing_retire
from colosseum.core.games.colosseum.queries import (
    aquilas_gained,
    breakdown,
    gate_owner,
    landing,
    missings,
    most_acclaimed,
    noble_step_range,
    performance_total,
    spectacle_by_key,
    why_not_performable,
)

__all__ = [
    "HANDLERS",
    "NOBLE_NAMES",
    "end_turn",
    "offer",
    "performable",
    "to_act",
    "walk",
]

NOBLE_NAMES = ("the emperor", "a consul", "a consul", "a senator", "a senator", "a senator")


def to_act(state: State) -> int:
    assert state.perform is not None
    return state.perform.player


def _perform_turn(ctx: Ctx, stage: str, rule: str) -> PerformTurn:
    pt = ctx.st.perform
    if ctx.st.phase != "perform" or pt is None:
        raise RuleError(rule, "this belongs to Phase 4")
    if pt.stage != stage:
        expected = {
            "roll": "roll the dice or skip",
            "mode": "choose how to use the dice",
            "move": "move a noble",
            "after": "spend Aquilas on nobles, perform, or end the turn",
        }[pt.stage]
        raise RuleError(rule, f"now {expected}")
    return pt


def _roll(ctx: Ctx, a: Roll) -> None:
    pt = _perform_turn(ctx, "roll", "G-5.1")
    rules = ctx.cat.rules
    n_dice = rules.temple_dice if ctx.player(a.player).temple else rules.dice
    dice = ctx.rolls(n_dice)
    if n_dice == 1:
        pt = replace(pt, stage="move", dice=dice, mode="split", used=(False,))
    else:
        pt = replace(pt, stage="mode", dice=dice)
    ctx.st = replace(ctx.st, perform=pt)
    if not ctx.quiet:
        ctx.log("roll", f"{ctx.name(a.player)} rolls {' and '.join(map(str, dice))}.", a.player)


def _choose_dice(ctx: Ctx, a: ChooseDice) -> None:
    pt = _perform_turn(ctx, "mode", "G-5.1")
    if a.mode == "split":
        pt = replace(pt, stage="move", mode="split", used=(False,) * len(pt.dice))
    elif a.mode == "sum":
        pt = replace(pt, stage="move", mode="sum", used=(False,))
    else:
        raise RuleError("G-5.1", "choose 'split' (one noble per die) or 'sum' (one noble by the sum)")
    ctx.st = replace(ctx.st, perform=pt)


def walk(state: State, noble: int, steps: int) -> int:
    """Where ``noble`` ends after ``steps`` in ``state`` (the query :func:`landing`, G-5.1 / C-4)."""
    return landing(load_catalog(state.setup.variant), state.nobles, noble, steps)


def _move_noble(ctx: Ctx, a: MoveNoble) -> None:
    pt = _perform_turn(ctx, "move", "G-5.1")
    if not isinstance(a.noble, int) or not 0 <= a.noble < 6:
        raise RuleError("G-5.1", "nobles are numbered 0 (emperor), 1-2 (consuls), 3-5 (senators)")
    if pt.mode == "sum":
        if a.die != -1:
            raise RuleError("G-5.1", "you chose to move one noble by the sum (die -1)")
        slot = 0
    else:
        if not isinstance(a.die, int) or not 0 <= a.die < len(pt.dice):
            raise RuleError("G-5.1", f"choose die 0 to {len(pt.dice) - 1}")
        if pt.used[a.die]:
            raise RuleError("G-5.1", "that die has been used")
        if a.noble in pt.moved:
            raise RuleError("G-5.1", "each die moves a different noble")
        slot = a.die
    lo, hi = noble_step_range(ctx.st, a.die)
    if not isinstance(a.steps, int) or not lo <= a.steps <= hi:
        rng_text = f"{lo}" if lo == hi else f"{lo} to {hi}"
        raise RuleError("G-5.1", f"this move is {rng_text} spaces")
    dest = landing(ctx.cat, ctx.st.nobles, a.noble, a.steps)  # walk(), with the catalog at hand
    nobles = list(ctx.st.nobles)
    nobles[a.noble] = dest
    ctx.st = replace(ctx.st, nobles=tuple(nobles))
    quiet = ctx.quiet
    if not quiet:
        text = f"{ctx.name(a.player)} moves {NOBLE_NAMES[a.noble]} {a.steps} to space {dest}"
        owner = gate_owner(ctx.st, dest)
        if owner != NOBODY:
            text += f" ({ctx.name(owner)}'s {ctx.cat.term('gate')})"
    if dest in ctx.cat.aquila_spaces:
        p = ctx.player(a.player)
        if aquilas_gained(ctx.cat, ctx.st, 1):
            ctx.set_player(a.player, aquilas=p.aquilas + 1)
            if not quiet:
                text += f" and takes {ctx.cat.a_term('aquila')}"
        elif not quiet:  # O-2: the supply is empty
            text += f" (no {ctx.cat.term('aquila')} is left in the supply)"
    if not quiet:
        ctx.log("noble", text + ".", a.player)
    used = list(pt.used)
    used[slot] = True
    done = all(used)
    ctx.st = replace(
        ctx.st, perform=replace(pt, used=tuple(used), moved=pt.moved + (a.noble,), stage="after" if done else "move")
    )


def _aquila_move(ctx: Ctx, a: AquilaMove) -> None:
    pt = _perform_turn(ctx, "after", "G-5.1")
    p = ctx.player(a.player)
    if p.aquilas < 1:
        raise RuleError("G-8", f"{p.name} has no Aquila to spend")
    if not isinstance(a.noble, int) or not 0 <= a.noble < 6:
        raise RuleError("G-5.1", "nobles are numbered 0 (emperor), 1-2 (consuls), 3-5 (senators)")
    reach = ctx.cat.common.aquila_noble_steps
    if not isinstance(a.steps, int) or a.steps == 0 or abs(a.steps) > reach:
        raise RuleError("G-5.1", f"an Aquila moves a noble 1 to {reach} spaces either way")
    dest = walk(ctx.st, a.noble, a.steps)
    nobles = list(ctx.st.nobles)
    nobles[a.noble] = dest
    ctx.st = replace(ctx.st, nobles=tuple(nobles), perform=pt)
    ctx.set_player(a.player, aquilas=p.aquilas - 1)
    if ctx.quiet:
        return
    way = "clockwise" if a.steps > 0 else "counter-clockwise"
    aq = ctx.cat.a_term("aquila")
    text = f"{p.name} spends {aq} to move {NOBLE_NAMES[a.noble]} {abs(a.steps)} {way} to space {dest}"
    owner = gate_owner(ctx.st, dest)
    if owner != NOBODY:
        text += f" ({ctx.name(owner)}'s {ctx.cat.term('gate')})"
    ctx.log("noble", text + ".", a.player)


def _perform(ctx: Ctx, a: Perform) -> None:
    _perform_turn(ctx, "after", "G-5.2")
    spec = spectacle_by_key(ctx.cat, a.spectacle)
    why = why_not_performable(ctx.st, a.player, spec)
    if why:
        raise RuleError("G-5.2", why)
    p = ctx.player(a.player)
    if not isinstance(a.aquilas, int) or not 0 <= a.aquilas <= p.aquilas:
        raise RuleError("G-5.3", f"{p.name} can spend 0 to {p.aquilas} Aquilas")
    if ctx.quiet:  # no sentence to write: the total alone
        total, used = performance_total(ctx.st, a.player, spec, a.aquilas)
    else:
        b = breakdown(ctx.st, a.player, spec, a.aquilas)
        total, used = b.total, b.used
    moved = total > p.acclaim
    seq = p.seq
    nseq = ctx.st.next_seq
    if moved:
        seq, nseq = nseq, nseq + 1
    ctx.set_player(
        a.player,
        coins=p.coins + total,
        aquilas=p.aquilas - a.aquilas,
        acclaim=max(p.acclaim, total),
        seq=seq,
        face_down=tuple(i for i in p.face_down if i != spec.id),
        face_up=tuple(i for i in p.face_up if i != spec.id),
        arena=spec.id,
        arena_used=used,
        history=p.history + (total,),
    )
    ctx.st = replace(ctx.st, next_seq=nseq)
    if not ctx.quiet:
        detail = " + ".join(str(v) for _, v in b.lines if v)
        where = f"moves the marker from {p.acclaim} to {total}" if moved else f"the marker stays at {p.acclaim}"
        ctx.log(
            "perform",
            f"{p.name} performs {spec.name}: {detail} = {total} {ctx.cat.term('acclaim')}; {where}, takes {total} coins.",
            a.player,
        )
    _next_performer(ctx)


def _next_performer(ctx: Ctx) -> None:
    st = ctx.st
    turn = st.turn + 1
    if turn < len(st.players):
        ctx.st = replace(ctx.st, turn=turn, perform=PerformTurn(player=(st.first + turn) % len(st.players)))
        return
    # everyone has performed or passed: fill the round's score history
    players = tuple(p if len(p.history) >= st.round else replace(p, history=p.history + (0,)) for p in st.players)
    ctx.st = replace(ctx.st, players=players, perform=None)
    if ctx.cat.rules.gift_timing == "closing":  # O-1: the round counter ends the game; O-24
        if st.round >= ctx.cat.rounds:
            end_game(ctx)
            return
        ctx.st = replace(ctx.st, phase="closing", turn=0)
        if not ctx.quiet:
            ctx.log("phase", "Phase 5: Closing Ceremonies.")
        closing_podium(ctx)
        return
    if st.gifts_left <= 0:  # G-5.4: no gift left -> the game ends instead
        end_game(ctx)
        return
    top = most_acclaimed(ctx.st)
    p = ctx.set_player(top, gifts=ctx.player(top).gifts + 1)
    ctx.st = replace(ctx.st, gifts_left=st.gifts_left - 1)
    if not ctx.quiet:
        ctx.log("gift", f"{p.name} is the most acclaimed and takes {ctx.cat.a_term('gift')} ({p.gifts} in all).", top)
    ctx.st = replace(ctx.st, phase="closing", turn=0)
    if not ctx.quiet:
        ctx.log("phase", "Phase 5: Closing Ceremonies.")
    closing_retire(ctx, 0)


def end_turn(ctx: Ctx, a: EndTurn) -> None:
    pt = ctx.st.perform
    assert pt is not None
    if pt.stage in ("mode", "move"):
        raise RuleError("G-5", "once the dice are rolled the nobles must be moved")
    if pt.stage == "roll":
        if not ctx.quiet:
            ctx.log("pass", f"{ctx.name(a.player)} skips the performance.", a.player)
    else:
        if not ctx.quiet:
            ctx.log("pass", f"{ctx.name(a.player)} performs nothing this round.", a.player)
    _next_performer(ctx)


def performable(state: State, seat: int) -> list[int]:
    """Spectacle ids ``seat`` could perform now (G-5.2), ignoring the phase."""
    return [spec.id for spec in _performable(load_catalog(state.setup.variant), state.players[seat])]


def _performable(cat: Catalog, p: Player) -> list[Spectacle]:
    n_gates = len(p.gates)
    specs = cat.spectacles
    owned = [specs[sid] for sid in (*p.face_down, *p.face_up)]
    if not owned:
        return owned
    return [
        spec
        for spec, miss in zip(owned, missings(cat, p.tiles, owned), strict=True)
        if n_gates >= spec.gates and miss <= spec.max_missing
    ]


@cache
def _roll_or_skip(seat: int) -> tuple[Action, ...]:
    return (Roll(player=seat), EndTurn(player=seat))


@cache
def _dice_modes(seat: int) -> tuple[Action, ...]:
    return (ChooseDice(player=seat, mode="split"), ChooseDice(player=seat, mode="sum"))


@cache
def _noble_moves(seat: int, die: int, lo: int, hi: int, moved: tuple[int, ...]) -> tuple[Action, ...]:
    return tuple(
        MoveNoble(player=seat, noble=noble, die=die, steps=s)
        for noble in range(6)
        if noble not in moved
        for s in range(lo, hi + 1)
    )


@cache
def _aquila_moves(seat: int, reach: int) -> tuple[Action, ...]:
    out: list[Action] = []
    for noble in range(6):
        for s in range(1, reach + 1):
            out.append(AquilaMove(player=seat, noble=noble, steps=s))
            out.append(AquilaMove(player=seat, noble=noble, steps=-s))
    return tuple(out)


@cache
def _performs(seat: int, key: str, aquilas: int) -> tuple[Action, ...]:
    return tuple(Perform(player=seat, spectacle=key, aquilas=k) for k in range(aquilas + 1))


def offer(state: State, seat: int, cat: Catalog, acts: list[Action], bids: list[BidOption]) -> bool:
    """By stage: roll or skip; split or sum; the noble moves of each unused die (G-5.1, C-4);
    then Aquila moves, the performances open to ``seat`` (G-5.2) and the end of the turn."""
    pt = state.perform
    assert pt is not None
    p = state.players[seat]
    stage = pt.stage
    if stage == "roll":
        acts += _roll_or_skip(seat)
    elif stage == "mode":
        acts += _dice_modes(seat)
    elif stage == "move":
        dice = (-1,) if pt.mode == "sum" else [i for i, u in enumerate(pt.used) if not u]
        for die in dice:
            lo, hi = noble_step_range(state, die)
            acts += _noble_moves(seat, die, lo, hi, pt.moved)
    else:
        if p.aquilas:
            acts += _aquila_moves(seat, cat.common.aquila_noble_steps)
        for spec in _performable(cat, p):
            acts += _performs(seat, spec.key, p.aquilas)
        acts.append(simple(EndTurn, seat))
    return False


HANDLERS: dict[type, Handler] = {
    Roll: _roll,
    ChooseDice: _choose_dice,
    MoveNoble: _move_noble,
    AquilaMove: _aquila_move,
    Perform: _perform,
}
