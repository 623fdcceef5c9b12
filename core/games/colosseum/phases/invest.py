"""Phase 1, Make Investments (G-2; classic extras C-3): gates, promoters, spectacles from the
display, the Temple of Fortuna, and Aquilas exchanged for coins (G-8).  Each player in turn
order makes up to the allowed investments (of different kinds, G-2), then Phase 2 begins.

The original edition (O-11 to O-15): one investment and at most one extra for 2 medals (or a
construction tile); season tickets and the Emperor's loge instead of promoters and the temple;
programs only above the numbering floor (O-12); no medal exchange.
"""

from __future__ import annotations

from functools import cache, lru_cache

from msgspec.structs import replace

from colosseum.core.errors import RuleError
from colosseum.core.games.colosseum.actions import (
    Action,
    BuildGate,
    BuildLoge,
    BuildTemple,
    BuySeasonTicket,
    EndTurn,
    ExchangeAquilas,
    Extra,
    HirePromoter,
    PlanSpectacle,
)
from colosseum.core.games.colosseum.choices import BidOption, Handler, simple
from colosseum.core.games.colosseum.components import Catalog, load_catalog
from colosseum.core.games.colosseum.context import Ctx
from colosseum.core.games.colosseum.model import NOBODY, InvestTurn, State
from colosseum.core.games.colosseum.phases.hire import start_hire_turn
from colosseum.core.games.colosseum.queries import credit, gate_owner, numbering_floor, spectacle_by_key

__all__ = ["HANDLERS", "end_turn", "offer", "to_act"]


def _invest_turn(ctx: Ctx, rule: str = "G-2") -> InvestTurn:
    if ctx.st.phase != "invest" or ctx.st.invest is None:
        raise RuleError(rule, "investments are made in Phase 1")
    return ctx.st.invest


def _check_investment(ctx: Ctx, kind: str, extra: str) -> None:
    """Check that one more investment of ``kind`` may be made (G-2, C-3); pay for an extra."""
    turn = _invest_turn(ctx)
    rules = ctx.cat.rules
    normal = len(turn.made) - turn.extras
    if extra:
        if extra not in ("aquilas", "construction"):
            raise RuleError("C-3", "an extra investment is paid with 'aquilas' or 'construction'")
        if rules.extra_investment_aquilas <= 0:
            raise RuleError("C-3", "extra investments belong to the classic game")
        if normal < rules.investments_per_turn:
            raise RuleError("C-3", "make your regular investment before paying for an extra one")
        if 0 <= rules.max_extras <= turn.extras:
            raise RuleError("O-11", f"at most {rules.max_extras} extra investment per turn")
        p = ctx.player(turn.player)
        if extra == "aquilas" and p.aquilas < rules.extra_investment_aquilas:
            n_aq = rules.extra_investment_aquilas
            raise RuleError("C-3", f"an extra investment costs {n_aq} {ctx.cat.term('aquilas')}")
        if extra == "construction" and p.tiles[ctx.cat.construction] < 1:
            raise RuleError("C-3", "you have no construction tile")
    else:
        if normal >= rules.investments_per_turn:
            n_inv = rules.investments_per_turn
            if 0 <= rules.max_extras <= turn.extras:
                raise RuleError("O-11", "you have made your investment and your extra one this turn")
            if rules.extra_investment_aquilas > 0:  # classic: one investment, then extras
                raise RuleError(
                    "O-11" if rules.max_extras >= 0 else "C-3",
                    f"you have made your investment this turn; an extra one costs "
                    f"{rules.extra_investment_aquilas} {ctx.cat.term('aquilas')} or a construction tile",
                )
            raise RuleError("G-2", f"you have made your {n_inv} investment{'s' if n_inv > 1 else ''} this turn")
        if rules.investment_kinds_distinct and kind in turn.made:
            raise RuleError("G-2", "your two investments must be of different kinds")


def _pay_extra(ctx: Ctx, seat: int, extra: str) -> None:
    if not extra:
        return
    p = ctx.player(seat)
    if extra == "aquilas":
        ctx.set_player(seat, aquilas=p.aquilas - ctx.cat.rules.extra_investment_aquilas)
    else:
        tiles = list(p.tiles)
        tiles[ctx.cat.construction] -= 1
        box = list(ctx.st.box)
        box[ctx.cat.construction] += 1
        ctx.set_player(seat, tiles=tuple(tiles))
        ctx.st = replace(ctx.st, box=tuple(box))


def _pay(ctx: Ctx, seat: int, cost: int, what: str, rule: str) -> None:
    p = ctx.player(seat)
    if p.coins < cost:
        exchange = ctx.cat.rules.aquila_exchange
        hint = " (exchange Aquilas for coins first)" if exchange and credit(p) >= cost else ""
        raise RuleError(rule, f"{what} costs {cost} coins; {p.name} has {p.coins}{hint}")
    ctx.set_player(seat, coins=p.coins - cost)


def _invested(ctx: Ctx, kind: str, extra: str) -> None:
    turn = ctx.st.invest
    assert turn is not None
    turn = replace(turn, made=turn.made + (kind,), extras=turn.extras + (1 if extra else 0))
    ctx.st = replace(ctx.st, invest=turn)
    rules = ctx.cat.rules
    # G-2: after the last investment allowed there is nothing left to do: the turn ends (and
    # O-11: after the one extra investment).
    if rules.extra_investment_aquilas <= 0 and len(turn.made) >= rules.investments_per_turn:
        _next_investor(ctx)
    elif 0 <= rules.max_extras <= turn.extras:
        _next_investor(ctx)


def _build_gate(ctx: Ctx, a: BuildGate) -> None:
    _check_investment(ctx, "gate", a.extra)
    p = ctx.player(a.player)
    c = ctx.cat.common
    term = ctx.cat.term  # the edition's words (O-13: arena pieces, an arena extension)
    rule, gates = term("gate rule"), term("gates")
    if len(p.gates) >= c.gates:
        raise RuleError(rule, f"{p.name} has built all {c.gates} {gates}")
    n_sp = ctx.cat.track_spaces
    if not isinstance(a.space, int) or not 0 <= a.space < n_sp:
        raise RuleError(rule, f"there is no space {a.space} on the track")
    if gate_owner(ctx.st, a.space) != NOBODY:
        raise RuleError(rule, f"space {a.space} already holds {ctx.cat.a_term('gate')}")
    if not any((g + 1) % n_sp == a.space or (g - 1) % n_sp == a.space for g in p.gates):
        raise RuleError(rule, f"space {a.space} is not next to one of {p.name}'s {gates}")
    _pay(ctx, a.player, c.gate_cost, term("a gate bought"), rule)
    _pay_extra(ctx, a.player, a.extra)
    ctx.set_player(a.player, gates=ctx.player(a.player).gates + (a.space,))
    if not ctx.quiet:
        ctx.log("invest", f"{p.name} builds {term('a gate bought')} on space {a.space}.", a.player)
    _invested(ctx, "gate", a.extra)


def _check_upgrades(ctx: Ctx, kind: str) -> None:
    """G-2 promoters and the temple, or O-14, O-15 season tickets and the loge."""
    if ctx.cat.rules.upgrades == "ticket-loge":
        if kind in ("promoter", "temple"):
            raise RuleError("O-14", "the original edition has season tickets and the Emperor's loge instead")
    elif kind in ("season_ticket", "loge"):
        raise RuleError("G-2", "season tickets and the Emperor's loge belong to the original edition")


def _hire_promoter(ctx: Ctx, a: HirePromoter) -> None:
    _check_upgrades(ctx, "promoter")
    _check_investment(ctx, "promoter", a.extra)
    if ctx.st.promoters_left <= 0:
        raise RuleError("G-2", "no promoter is left in the supply")
    _pay(ctx, a.player, ctx.cat.promoter_price, "a promoter", "G-2")
    _pay_extra(ctx, a.player, a.extra)
    p = ctx.set_player(a.player, promoters=ctx.player(a.player).promoters + 1)
    ctx.st = replace(ctx.st, promoters_left=ctx.st.promoters_left - 1)
    if not ctx.quiet:
        ctx.log("invest", f"{p.name} hires a promoter ({p.promoters} in all).", a.player)
    _invested(ctx, "promoter", a.extra)


def _buy_season_ticket(ctx: Ctx, a: BuySeasonTicket) -> None:
    _check_upgrades(ctx, "season_ticket")
    _check_investment(ctx, "season_ticket", a.extra)
    if ctx.st.promoters_left <= 0:
        raise RuleError("O-14", "no season ticket is left in the supply")
    _pay(ctx, a.player, ctx.cat.promoter_price, "a season ticket", "O-14")
    _pay_extra(ctx, a.player, a.extra)
    p = ctx.set_player(a.player, promoters=ctx.player(a.player).promoters + 1)
    ctx.st = replace(ctx.st, promoters_left=ctx.st.promoters_left - 1)
    if not ctx.quiet:
        ctx.log("invest", f"{p.name} buys a season ticket ({p.promoters} in all).", a.player)
    _invested(ctx, "season_ticket", a.extra)


def _plan_spectacle(ctx: Ctx, a: PlanSpectacle) -> None:
    _check_investment(ctx, "spectacle", a.extra)
    spec = spectacle_by_key(ctx.cat, a.spectacle)
    if spec.id not in ctx.st.display:
        raise RuleError("G-2", f"{spec.name} is not on the display")
    floor = numbering_floor(ctx.cat, ctx.player(a.player))
    if ctx.cat.rules.numbering and spec.number_2007 <= floor:
        raise RuleError(
            "O-12", f"{ctx.cat.label(spec)} is not numbered above #{floor}, the highest program performed so far"
        )
    _pay(ctx, a.player, spec.cost, ctx.cat.label(spec), "G-2")
    _pay_extra(ctx, a.player, a.extra)
    p = ctx.set_player(a.player, face_down=ctx.player(a.player).face_down + (spec.id,))
    ctx.st = replace(ctx.st, display=tuple(i for i in ctx.st.display if i != spec.id))
    if ctx.cat.rules.numbering:
        if not ctx.quiet:
            ctx.log("invest", f"{p.name} buys program {ctx.cat.label(spec)} for {spec.cost}.", a.player)
    else:
        if not ctx.quiet:
            ctx.log("invest", f"{p.name} plans {spec.name} for {spec.cost}.", a.player)
    _invested(ctx, "spectacle", a.extra)


def _build_loge(ctx: Ctx, a: BuildLoge) -> None:
    _build_once(
        ctx,
        a,
        "loge",
        "O-15",
        "the Emperor's loge",
        "an Emperor's loge",
        "each player builds one Emperor's loge at most",
    )


def _build_temple(ctx: Ctx, a: BuildTemple) -> None:
    _build_once(
        ctx,
        a,
        "temple",
        "G-2",
        "the Temple of Fortuna",
        "the Temple of Fortuna",
        "a Temple of Fortuna can be built once per game",
    )


def _build_once(ctx: Ctx, a: BuildLoge | BuildTemple, kind: str, rule: str, what: str, built: str, once: str) -> None:
    """The Temple of Fortuna (G-2) or, in the original edition, the Emperor's loge (O-15): one
    per player, paid at the catalog's price, held as ``Player.temple``."""
    _check_upgrades(ctx, kind)
    _check_investment(ctx, kind, a.extra)
    if ctx.player(a.player).temple:
        raise RuleError(rule, once)
    _pay(ctx, a.player, ctx.cat.temple_price, what, rule)
    _pay_extra(ctx, a.player, a.extra)
    p = ctx.set_player(a.player, temple=True)
    if not ctx.quiet:
        ctx.log("invest", f"{p.name} builds {built}.", a.player)
    _invested(ctx, kind, a.extra)


def _exchange_aquilas(ctx: Ctx, a: ExchangeAquilas) -> None:
    _invest_turn(ctx, "G-8")
    if not ctx.cat.rules.aquila_exchange:
        raise RuleError("O-11", "medals cannot be exchanged for coins in the original edition")
    p = ctx.player(a.player)
    if not isinstance(a.count, int) or a.count < 1 or a.count > p.aquilas:
        raise RuleError("G-8", f"{p.name} can exchange 1 to {p.aquilas} Aquilas, not {a.count}")
    gain = a.count * ctx.cat.common.aquila_coins
    ctx.set_player(a.player, aquilas=p.aquilas - a.count, coins=p.coins + gain)
    if not ctx.quiet:
        ctx.log(
            "aquila", f"{p.name} exchanges {a.count} Aquila{'s' if a.count > 1 else ''} for {gain} coins.", a.player
        )


def _next_investor(ctx: Ctx) -> None:
    st = ctx.st
    turn = st.turn + 1
    if turn < len(st.players):
        ctx.st = replace(ctx.st, turn=turn, invest=InvestTurn(player=(st.first + turn) % len(st.players)))
        return
    ctx.st = replace(ctx.st, invest=None, phase="hire", turn=0)
    if not ctx.quiet:
        ctx.log("phase", f"Phase 2: {ctx.cat.term('hire phase')}.")
    start_hire_turn(ctx)


def to_act(state: State) -> int:
    assert state.invest is not None
    return state.invest.player


def end_turn(ctx: Ctx, a: EndTurn) -> None:
    if not ctx.quiet:
        ctx.log("end", f"{ctx.name(a.player)} ends the investment turn.", a.player)
    _next_investor(ctx)


@cache
def _plan(seat: int, key: str, extra: Extra) -> Action:
    return PlanSpectacle(player=seat, spectacle=key, extra=extra)


@cache
def _plans(seat: int, extra: Extra, variant: str) -> tuple[Action, ...]:
    """:func:`_plan` of every spectacle of ``variant``, by id."""
    return tuple(_plan(seat, spec.key, extra) for spec in load_catalog(variant).spectacles)


@lru_cache(maxsize=4096)  # bounded: the gates on the board take many shapes over many games
def _gates(seat: int, extra: Extra, n_sp: int, gates: tuple[tuple[int, ...], ...]) -> tuple[Action, ...]:
    """The gates ``seat`` may build next to its own (``gates``: every seat's), by space."""
    taken = {g for q in gates for g in q}
    spaces = sorted({s for g in gates[seat] for s in ((g + 1) % n_sp, (g - 1) % n_sp) if s not in taken})
    return tuple(_gate(seat, s, extra) for s in spaces)


@cache
def _gate(seat: int, space: int, extra: Extra) -> Action:
    return BuildGate(player=seat, space=space, extra=extra)


@cache
def _investment(kind: type, seat: int, extra: Extra) -> Action:
    action: Action = kind(player=seat, extra=extra)
    return action


@cache
def _exchanges(seat: int, count: int) -> tuple[Action, ...]:
    return tuple(ExchangeAquilas(player=seat, count=k) for k in range(1, count + 1))


def offer(state: State, seat: int, cat: Catalog, acts: list[Action], bids: list[BidOption]) -> bool:
    """The investments ``seat`` can afford and may still make this turn (G-2, C-3), Aquila
    exchanges (G-8), and the end of the turn."""
    turn = state.invest
    assert turn is not None
    p = state.players[seat]
    rules = cat.rules
    c = cat.common
    normal = len(turn.made) - turn.extras
    pays: list[Extra] = []
    if normal < rules.investments_per_turn:
        pays.append("")
    elif rules.extra_investment_aquilas > 0 and not 0 <= rules.max_extras <= turn.extras:
        if p.aquilas >= rules.extra_investment_aquilas:
            pays.append("aquilas")
        if p.tiles[cat.construction] > 0:
            pays.append("construction")
    distinct = rules.investment_kinds_distinct
    n_sp = cat.track_spaces
    tickets = rules.upgrades == "ticket-loge"
    floor = numbering_floor(cat, p) if rules.numbering else -1  # O-12
    coins = p.coins
    specs = cat.spectacles
    for extra in pays:
        made = turn.made if (extra == "" and distinct) else ()
        if "gate" not in made and len(p.gates) < c.gates and p.coins >= c.gate_cost:
            acts += _gates(seat, extra, n_sp, tuple([q.gates for q in state.players]))
        if state.promoters_left > 0 and p.coins >= cat.promoter_price:
            if tickets:
                acts.append(_investment(BuySeasonTicket, seat, extra))
            elif "promoter" not in made:
                acts.append(_investment(HirePromoter, seat, extra))
        if "spectacle" not in made:
            plans = _plans(seat, extra, cat.variant)
            for sid in state.display:
                spec = specs[sid]
                if spec.cost <= coins and spec.number_2007 > floor:
                    acts.append(plans[sid])
        if not p.temple and p.coins >= cat.temple_price:
            if tickets:
                acts.append(_investment(BuildLoge, seat, extra))
            elif "temple" not in made:
                acts.append(_investment(BuildTemple, seat, extra))
    if p.aquilas and rules.aquila_exchange:
        acts += _exchanges(seat, p.aquilas)
    acts.append(simple(EndTurn, seat))
    return False


HANDLERS: dict[type, Handler] = {
    BuildGate: _build_gate,
    HirePromoter: _hire_promoter,
    PlanSpectacle: _plan_spectacle,
    BuildTemple: _build_temple,
    BuySeasonTicket: _buy_season_ticket,
    BuildLoge: _build_loge,
    ExchangeAquilas: _exchange_aquilas,
}
