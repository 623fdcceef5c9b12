"""The rules engine: ``new_game(setup)``, ``to_act(state)`` and ``apply(state, action)``.

``apply`` is a pure reducer: it returns a new state and the events the action caused, or raises
:class:`RuleError` naming the rule broken.  States are immutable, so a rejected action leaves
the state exactly as it was.  Rule ids refer to shared/rules/RULES.md (G-*, C-*, A07-*).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from msgspec.structs import replace

from . import rng
from .actions import (
    AcceptDeal,
    Action,
    AquilaMove,
    BuildGate,
    BuildTemple,
    CancelDeal,
    ChooseDice,
    ChooseFirstPlayer,
    CloseDeal,
    ConstructionForAquila,
    EndTurn,
    ExchangeAquilas,
    HirePromoter,
    MoveNoble,
    OpenAuction,
    PassBid,
    Perform,
    PlaceStartGates,
    PlanSpectacle,
    ProposeDeal,
    Raise,
    RejectDeal,
    Retire,
    Roll,
    Steal,
)
from .catalog import OPTIONS, Catalog, Spectacle, load_catalog
from .errors import RuleError
from .model import (
    NOBODY,
    Auction,
    ClosingTurn,
    Deal,
    Event,
    GameSetup,
    HireTurn,
    InvestTurn,
    PerformTurn,
    Player,
    Result,
    Standing,
    State,
    TradeTurn,
    Transfer,
)

NO_STAR = -2
NOBLE_NAMES = ("the emperor", "a consul", "a consul", "a senator", "a senator", "a senator")
MARKET_NAMES = "ABCDE"
MAX_TRANSFERS = 24


def catalog(state: State) -> Catalog:
    return load_catalog(state.setup.variant)


# ====================================================================== setup


def new_game(setup: GameSetup) -> State:
    """The state before the first decision (G-1): nobles placed, first player chosen, markers
    stacked in turn order.  Players then choose starting gates (G-1.6); dealing follows."""
    n = len(setup.players)
    if not 3 <= n <= 5:
        raise RuleError("G-0", f"Colosseum is played by 3 to 5 players, not {n}")
    names = [p.strip() for p in setup.players]
    if any(not p for p in names) or len(set(names)) != n:
        raise RuleError("G-1", "every player needs a distinct, non-empty name")
    cat = load_catalog(setup.variant)  # raises CatalogError for an unknown variant
    for opt in setup.options:
        if opt not in OPTIONS:
            raise RuleError("G-1", f"unknown option {opt!r}")
    state_rng = rng.seed_state(setup.seed)
    if setup.first_player is None:
        state_rng, first = rng.below(state_rng, n)
    else:
        first = setup.first_player
        if not isinstance(first, int) or not 0 <= first < n:
            raise RuleError("G-1.4", f"first player must be a seat from 0 to {n - 1}")
    nk = len(cat.tiles)
    players = []
    for seat in range(n):
        players.append(
            Player(
                name=names[seat],
                coins=cat.common.starting_coins,
                tiles=(0,) * nk,
                # G-1.5 decision: markers stacked in turn order, first player at the bottom.
                seq=(seat - first) % n,
            )
        )
    stars = tuple(NOBODY if k in cat.star_types else NO_STAR for k in range(nk))
    return State(
        setup=replace(setup, players=tuple(names)),
        rng=state_rng,
        first=first,
        players=tuple(players),
        bag=(0,) * nk,
        markets=((), (), (), (), ()),
        pillars=(NOBODY,) * 5,
        display=cat.display,
        nobles=cat.noble_starts,
        stars=stars,
        promoters_left=cat.common.promoters,
        gifts_left=cat.rules.gifts,
        box=cat.counts,  # everything starts in the box; setup moves tiles out of it
        next_seq=n,
    )


def setup_order_seat(state: State) -> int:
    """G-1.6: starting gates are chosen in reverse turn order."""
    n = len(state.players)
    return (state.first + n - 1 - state.turn) % n


# ====================================================================== queries


def to_act(state: State) -> int:
    """The seat whose decision the game waits for, or -1 when the game is over."""
    ph = state.phase
    if ph == "trade":
        t = state.trade
        if t.deal is not None:  # type: ignore[union-attr]
            pending = _pending(t.active, t.deal.answers)  # type: ignore[union-attr]
            if pending != NOBODY:
                return pending
        return t.active  # type: ignore[union-attr]
    if ph == "perform":
        return state.perform.player  # type: ignore[union-attr]
    if ph == "invest":
        return state.invest.player  # type: ignore[union-attr]
    if ph == "hire":
        h = state.hire
        return h.auction.to_bid if h.auction else h.active  # type: ignore[union-attr]
    if ph == "closing":
        return state.closing.player  # type: ignore[union-attr]
    if ph == "setup":
        return setup_order_seat(state)
    return NOBODY


def deal_pending(state: State) -> int:
    """The next party (clockwise from the active player) who has not answered the deal."""
    t = state.trade
    if t is None or t.deal is None:
        return NOBODY
    return _pending(t.active, t.deal.answers)


def _pending(active: int, answers: tuple[str, ...]) -> int:
    if "pending" not in answers:
        return NOBODY
    n = len(answers)
    for k in range(n):
        seat = (active + k) % n
        if answers[seat] == "pending":
            return seat
    return NOBODY


def credit(p: Player) -> int:
    """G-3.4: what a player can bid: coins + 6 per Aquila."""
    return p.coins + 6 * p.aquilas


def star_count(state: State, seat: int) -> int:
    return sum(1 for h in state.stars if h == seat)


def turn_order(state: State) -> list[int]:
    n = len(state.players)
    return [(state.first + k) % n for k in range(n)]


def gate_owner(state: State, space: int) -> int:
    for seat, p in enumerate(state.players):
        if space in p.gates:
            return seat
    return NOBODY


def stack_key(p: Player) -> tuple[int, int]:
    """Order on the Acclaim track: further along first; on one space, lower in the stack first
    counts as *further* (G-5.4 ties go to the bottom marker)."""
    return (p.acclaim, -p.seq)


def most_acclaimed(state: State) -> int:
    """Furthest along; tie: bottom marker of the stack (G-5.4, G-6.2)."""
    return max(range(len(state.players)), key=lambda s: stack_key(state.players[s]))


def least_acclaimed(state: State) -> int:
    """Furthest back; tie: top marker of the stack (G-6.2)."""
    return min(range(len(state.players)), key=lambda s: stack_key(state.players[s]))


class Match:
    """How a player's tiles fill a spectacle (G-5.2)."""

    __slots__ = ("matched", "missing", "used")

    def __init__(self, matched: int, missing: int, used: tuple[int, ...]) -> None:
        self.matched = matched
        self.missing = missing
        self.used = used


def match(cat: Catalog, tiles: tuple[int, ...], spec: Spectacle) -> Match:
    used = [0] * len(tiles)
    matched = 0
    for k, need in spec.req:
        u = tiles[k] if tiles[k] < need else need
        used[k] = u
        matched += u
    bal = cat.balatro
    gap = spec.total - matched
    wild = tiles[bal] if tiles[bal] < gap else gap
    used[bal] = wild
    matched += wild
    return Match(matched, spec.total - matched, tuple(used))


def missing(cat: Catalog, tiles: tuple[int, ...], spec: Spectacle) -> int:
    """How many performers ``tiles`` lack for ``spec`` (G-5.2), as ``match(...).missing``."""
    matched = 0
    for k, need in spec.req:
        have = tiles[k]
        matched += have if have < need else need
    gap = spec.total - matched
    bal = tiles[cat.balatro]
    return gap - (bal if bal < gap else gap)


def spectacle_by_key(cat: Catalog, key: str) -> Spectacle:
    sid = cat.spectacle_index.get(key) if isinstance(key, str) else None
    if sid is None:
        raise RuleError("G-5.2", f"there is no spectacle {key!r}")
    return cat.spectacles[sid]


def why_not_performable(state: State, seat: int, spec: Spectacle) -> str | None:
    """None if ``seat`` may perform ``spec`` now (G-5.2), else the reason."""
    p = state.players[seat]
    if spec.id not in p.face_down and spec.id not in p.face_up:
        return f"{p.name} does not own {spec.name}"
    if len(p.gates) < spec.gates:
        return f"{spec.name} needs {spec.gates} gates; {p.name} has {len(p.gates)}"
    cat = catalog(state)
    if missing(cat, p.tiles, spec) > spec.max_missing:
        least = spec.total - spec.max_missing
        m = match(cat, p.tiles, spec)
        return f"{spec.name} needs at least {least} of its {spec.total} performers; {p.name} has {m.matched}"
    return None


class Breakdown:
    """G-5.3: the Acclaim of one performance, step by step."""

    __slots__ = ("lines", "total", "missing", "matched", "used")

    def __init__(self, lines, total, missing, matched, used) -> None:
        self.lines: tuple[tuple[str, int], ...] = lines
        self.total: int = total
        self.missing: int = missing
        self.matched: int = matched
        self.used: tuple[int, ...] = used


def breakdown(state: State, seat: int, spec: Spectacle, aquilas: int = 0) -> Breakdown:
    """The full G-5.3 breakdown of ``seat`` performing ``spec`` now, spending ``aquilas``."""
    cat = catalog(state)
    c = cat.common
    p = state.players[seat]
    m = match(cat, p.tiles, spec)
    base = spec.acclaim_for_missing(m.missing) or 0
    earlier = len(p.face_up) - (1 if spec.id in p.face_up else 0)
    stars = sum(1 for k, h in enumerate(state.stars) if h == seat and spec.need[k])
    nobles = 0
    for i, pos in enumerate(state.nobles):
        if pos in p.gates:
            kind = cat.noble_kinds[i]
            nobles += (
                c.emperor_acclaim if kind == "emperor" else c.consul_acclaim if kind == "consul" else c.senator_acclaim
            )
    short = f"{m.missing} short" if m.missing else "complete"
    lines = (
        (f"{spec.name} ({short})", base),
        (f"Earlier performances x{earlier}", earlier * c.performed_acclaim),
        (f"Star Performers x{stars}", stars * c.star_acclaim),
        ("Nobles at your gates", nobles),
        (f"Promoters x{p.promoters}", p.promoters * c.promoter_acclaim),
        (f"Gifts x{p.gifts}", p.gifts * c.gift_acclaim),
        (f"Aquilas spent x{aquilas}", aquilas * c.aquila_acclaim),
    )
    total = sum(v for _, v in lines)
    return Breakdown(lines, total, m.missing, m.matched, m.used)


# ====================================================================== the reducer


class _Ctx:
    """A state under construction plus the events produced so far."""

    __slots__ = ("st", "cat", "events")

    def __init__(self, st: State, cat: Catalog) -> None:
        self.st = st
        self.cat = cat
        self.events: list[Event] = []

    def log(self, kind: str, text: str, seat: int = NOBODY) -> None:
        self.events.append(Event(kind=kind, text=text, seat=seat, round=self.st.round, phase=self.st.phase))

    def name(self, seat: int) -> str:
        return self.st.players[seat].name

    def player(self, seat: int) -> Player:
        return self.st.players[seat]

    def set_player(self, seat: int, **changes) -> Player:
        players = list(self.st.players)
        p = replace(players[seat], **changes)
        players[seat] = p
        self.st = replace(self.st, players=tuple(players))
        return p

    def set(self, **changes) -> None:
        self.st = replace(self.st, **changes)

    def draw(self) -> int:
        """Draw one tile from the bag (uniform over tiles); -1 if the bag is empty."""
        bag = self.st.bag
        total = sum(bag)
        if total == 0:
            return NOBODY
        s, r = rng.below(self.st.rng, total)
        kind = 0
        while r >= bag[kind]:
            r -= bag[kind]
            kind += 1
        nb = list(bag)
        nb[kind] -= 1
        self.st = replace(self.st, rng=s, bag=tuple(nb))
        return kind

    def roll(self) -> int:
        s, r = rng.below(self.st.rng, 6)
        self.st = replace(self.st, rng=s)
        return r + 1

    def tile_name(self, kind: int, count: int = 1) -> str:
        return self.cat.name_of(kind, count)

    def tiles_text(self, kinds) -> str:
        return ", ".join(self.cat.tiles[k].name for k in kinds) or "nothing"


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Apply ``action``; return the new state and its events.  Raises RuleError if illegal."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise RuleError("G-0", f"unknown action {type(action).__name__}")
    if state.phase == "over":
        raise RuleError("G-9", "the game is over")
    seat = action.player
    if not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise RuleError("G-0", f"there is no seat {seat!r}")
    if type(action) not in _ANY_SEAT:
        actor = to_act(state)
        if seat != actor:
            raise RuleError("G-0", f"it is {state.players[actor].name}'s turn, not {state.players[seat].name}'s")
    ctx = _Ctx(state, load_catalog(state.setup.variant))
    try:
        handler(ctx, action)
    except TypeError as exc:  # a field of the wrong type (actions built in code, not decoded)
        raise RuleError("G-0", f"malformed {type(action).__name__}: {exc}") from None
    ctx.st = replace(ctx.st, actions=state.actions + 1)
    return ctx.st, ctx.events


# ---------------------------------------------------------------------- setup


def _place_start_gates(ctx: _Ctx, a: PlaceStartGates) -> None:
    st = ctx.st
    if st.phase != "setup":
        raise RuleError("G-1.6", "starting gates are placed only during setup")
    pairs = ctx.cat.gate_pairs[len(st.players)]
    pair = next((p for p in pairs if p[0] == a.space), None)
    if pair is None:
        offered = ", ".join(f"{x}-{y}" for x, y in pairs)
        raise RuleError("G-1.6", f"{a.space} does not start a starting gate pair ({offered})")
    if gate_owner(st, pair[0]) != NOBODY or gate_owner(st, pair[1]) != NOBODY:
        raise RuleError("G-1.6", f"gate pair {pair[0]}-{pair[1]} is taken")
    ctx.set_player(a.player, gates=pair)
    ctx.log("gate", f"{ctx.name(a.player)} places starting gates on {pair[0]} and {pair[1]}.", a.player)
    ctx.set(turn=st.turn + 1)
    if ctx.st.turn == len(st.players):
        _deal(ctx)


def _deal(ctx: _Ctx) -> None:
    """G-1.7 to G-1.9: small spectacles, starting tiles, stars, markets."""
    cat = ctx.cat
    st = ctx.st
    n = len(st.players)
    order = turn_order(st)
    s = st.rng
    smalls: dict[int, list[int]] = {seat: [] for seat in range(n)}
    if cat.rules.small_deal == "piles":
        piles = {}
        for name in "ABC":
            s, piles[name] = rng.shuffled(s, tuple(i for i in cat.smalls if cat.spectacles[i].pile == name))
        pos = {"A": 0, "B": 0, "C": 0}
        for seat in order:
            a_tile = piles["A"][pos["A"]]
            pos["A"] += 1
            icon = cat.spectacles[a_tile].icon
            b_tile = piles[icon][pos[icon]]
            pos[icon] += 1
            smalls[seat] = [a_tile, b_tile]
    else:  # C-2: shuffle all and deal two each
        s, deck = rng.shuffled(s, cat.smalls)
        for i, seat in enumerate(order):
            smalls[seat] = [deck[2 * i], deck[2 * i + 1]]
    ctx.set(rng=s)
    for seat in range(n):
        ctx.set_player(seat, face_down=tuple(smalls[seat]))
        names = " and ".join(cat.spectacles[i].name for i in smalls[seat])
        ctx.log("deal", f"{ctx.name(seat)} is dealt {names}.", seat)
    # G-1.8 starting tiles
    box = list(cat.counts)
    start = list(cat.starting)
    for k in range(len(box)):
        box[k] -= start[k]
    ctx.set(bag=tuple(start))
    per = cat.common.starting_tiles[str(n)]
    for seat in order:
        tiles = list(ctx.player(seat).tiles)
        got = []
        for _ in range(per):
            k = ctx.draw()
            tiles[k] += 1
            got.append(k)
        ctx.set_player(seat, tiles=tuple(tiles))
        ctx.log("deal", f"{ctx.name(seat)} draws {ctx.tiles_text(sorted(got))}.", seat)
    # G-1.9 the rest of the standard tiles join the undealt starting tiles
    bag = list(ctx.st.bag)
    for k in range(len(bag)):
        bag[k] += box[k]
        box[k] = 0
    ctx.set(bag=tuple(bag), box=tuple(box))
    _recheck_stars(ctx, cat.star_types)
    _refill_markets(ctx)
    ctx.set(phase="invest", turn=0, invest=InvestTurn(player=ctx.st.first))
    ctx.log("phase", f"Round 1 begins. {ctx.name(ctx.st.first)} is first player.", ctx.st.first)


# ---------------------------------------------------------------------- Phase 1


def _invest_turn(ctx: _Ctx, rule: str = "G-2") -> InvestTurn:
    if ctx.st.phase != "invest" or ctx.st.invest is None:
        raise RuleError(rule, "investments are made in Phase 1")
    return ctx.st.invest


def _check_investment(ctx: _Ctx, kind: str, extra: str) -> None:
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
        p = ctx.player(turn.player)
        if extra == "aquilas" and p.aquilas < rules.extra_investment_aquilas:
            raise RuleError("C-3", f"an extra investment costs {rules.extra_investment_aquilas} Aquilas")
        if extra == "construction" and p.tiles[ctx.cat.construction] < 1:
            raise RuleError("C-3", "you have no construction tile")
    else:
        if normal >= rules.investments_per_turn:
            n_inv = rules.investments_per_turn
            if rules.extra_investment_aquilas > 0:  # classic: one investment, then extras
                raise RuleError(
                    "C-3",
                    f"you have made your investment this turn; an extra one costs "
                    f"{rules.extra_investment_aquilas} Aquilas or a construction tile",
                )
            raise RuleError("G-2", f"you have made your {n_inv} investment{'s' if n_inv > 1 else ''} this turn")
        if rules.investment_kinds_distinct and kind in turn.made:
            raise RuleError("G-2", "your two investments must be of different kinds")


def _pay_extra(ctx: _Ctx, seat: int, extra: str) -> None:
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
        ctx.set(box=tuple(box))


def _pay(ctx: _Ctx, seat: int, cost: int, what: str, rule: str) -> None:
    p = ctx.player(seat)
    if p.coins < cost:
        hint = " (exchange Aquilas for coins first)" if credit(p) >= cost else ""
        raise RuleError(rule, f"{what} costs {cost} coins; {p.name} has {p.coins}{hint}")
    ctx.set_player(seat, coins=p.coins - cost)


def _invested(ctx: _Ctx, kind: str, extra: str) -> None:
    turn = ctx.st.invest
    assert turn is not None
    turn = replace(turn, made=turn.made + (kind,), extras=turn.extras + (1 if extra else 0))
    ctx.set(invest=turn)
    rules = ctx.cat.rules
    # G-2: after the last investment allowed there is nothing left to do: the turn ends.
    if rules.extra_investment_aquilas <= 0 and len(turn.made) >= rules.investments_per_turn:
        _next_investor(ctx)


def _build_gate(ctx: _Ctx, a: BuildGate) -> None:
    _check_investment(ctx, "gate", a.extra)
    p = ctx.player(a.player)
    c = ctx.cat.common
    if len(p.gates) >= c.gates:
        raise RuleError("G-2", f"{p.name} has built all {c.gates} gates")
    n_sp = ctx.cat.track_spaces
    if not isinstance(a.space, int) or not 0 <= a.space < n_sp:
        raise RuleError("G-2", f"there is no space {a.space} on the track")
    if gate_owner(ctx.st, a.space) != NOBODY:
        raise RuleError("G-2", f"space {a.space} already holds a gate")
    if not any((g + 1) % n_sp == a.space or (g - 1) % n_sp == a.space for g in p.gates):
        raise RuleError("G-2", f"space {a.space} is not next to one of {p.name}'s gates")
    _pay(ctx, a.player, c.gate_cost, "a gate", "G-2")
    _pay_extra(ctx, a.player, a.extra)
    ctx.set_player(a.player, gates=ctx.player(a.player).gates + (a.space,))
    ctx.log("invest", f"{p.name} builds a gate on space {a.space}.", a.player)
    _invested(ctx, "gate", a.extra)


def _hire_promoter(ctx: _Ctx, a: HirePromoter) -> None:
    _check_investment(ctx, "promoter", a.extra)
    if ctx.st.promoters_left <= 0:
        raise RuleError("G-2", "no promoter is left in the supply")
    _pay(ctx, a.player, ctx.cat.common.promoter_cost, "a promoter", "G-2")
    _pay_extra(ctx, a.player, a.extra)
    p = ctx.set_player(a.player, promoters=ctx.player(a.player).promoters + 1)
    ctx.set(promoters_left=ctx.st.promoters_left - 1)
    ctx.log("invest", f"{p.name} hires a promoter ({p.promoters} in all).", a.player)
    _invested(ctx, "promoter", a.extra)


def _plan_spectacle(ctx: _Ctx, a: PlanSpectacle) -> None:
    _check_investment(ctx, "spectacle", a.extra)
    spec = spectacle_by_key(ctx.cat, a.spectacle)
    if spec.id not in ctx.st.display:
        raise RuleError("G-2", f"{spec.name} is not on the display")
    _pay(ctx, a.player, spec.cost, spec.name, "G-2")
    _pay_extra(ctx, a.player, a.extra)
    p = ctx.set_player(a.player, face_down=ctx.player(a.player).face_down + (spec.id,))
    ctx.set(display=tuple(i for i in ctx.st.display if i != spec.id))
    ctx.log("invest", f"{p.name} plans {spec.name} for {spec.cost}.", a.player)
    _invested(ctx, "spectacle", a.extra)


def _build_temple(ctx: _Ctx, a: BuildTemple) -> None:
    _check_investment(ctx, "temple", a.extra)
    if ctx.player(a.player).temple:
        raise RuleError("G-2", "a Temple of Fortuna can be built once per game")
    _pay(ctx, a.player, ctx.cat.common.temple_cost, "the Temple of Fortuna", "G-2")
    _pay_extra(ctx, a.player, a.extra)
    p = ctx.set_player(a.player, temple=True)
    ctx.log("invest", f"{p.name} builds the Temple of Fortuna.", a.player)
    _invested(ctx, "temple", a.extra)


def _exchange_aquilas(ctx: _Ctx, a: ExchangeAquilas) -> None:
    _invest_turn(ctx, "G-8")
    p = ctx.player(a.player)
    if not isinstance(a.count, int) or a.count < 1 or a.count > p.aquilas:
        raise RuleError("G-8", f"{p.name} can exchange 1 to {p.aquilas} Aquilas, not {a.count}")
    gain = a.count * ctx.cat.common.aquila_coins
    ctx.set_player(a.player, aquilas=p.aquilas - a.count, coins=p.coins + gain)
    ctx.log("aquila", f"{p.name} exchanges {a.count} Aquila{'s' if a.count > 1 else ''} for {gain} coins.", a.player)


def _construction_for_aquila(ctx: _Ctx, a: ConstructionForAquila) -> None:
    if not ctx.cat.rules.construction_for_aquila:
        raise RuleError("C-5", "construction tiles belong to the classic game")
    p = ctx.player(a.player)
    con = ctx.cat.construction
    if p.tiles[con] < 1:
        raise RuleError("C-5", f"{p.name} has no construction tile")
    tiles = list(p.tiles)
    tiles[con] -= 1
    box = list(ctx.st.box)
    box[con] += 1
    ctx.set_player(a.player, tiles=tuple(tiles), aquilas=p.aquilas + 1)
    ctx.set(box=tuple(box))
    ctx.log("aquila", f"{p.name} discards a construction tile for an Aquila.", a.player)


def _next_investor(ctx: _Ctx) -> None:
    st = ctx.st
    turn = st.turn + 1
    if turn < len(st.players):
        ctx.set(turn=turn, invest=InvestTurn(player=(st.first + turn) % len(st.players)))
        return
    ctx.set(invest=None, phase="hire", turn=0)
    ctx.log("phase", "Phase 2: Hire Performers.")
    _start_hire_turn(ctx)


# ---------------------------------------------------------------------- Phase 2


def can_open_auction(state: State, seat: int) -> bool:
    """Whether ``seat``, as active player, could open any auction now (G-3.1, G-3.2, A07-1)."""
    h = state.hire
    if h is None or not h.had_pillar or not state.players[seat].pillar:
        return False
    c = load_catalog(state.setup.variant).common
    if credit(state.players[seat]) < c.min_opening_bid:
        return False
    return any(len(m) == 3 and state.pillars[i] == NOBODY for i, m in enumerate(state.markets))


def _start_hire_turn(ctx: _Ctx) -> None:
    """Begin the hire turn of the player at ``turn``; a player who cannot open any auction
    passes at once (rulebook example: Laura 'must skip her auction')."""
    while True:
        st = ctx.st
        if st.turn >= len(st.players):
            _end_hire_phase(ctx)
            return
        seat = (st.first + st.turn) % len(st.players)
        ctx.set(hire=HireTurn(active=seat, had_pillar=st.players[seat].pillar))
        if can_open_auction(ctx.st, seat):
            return
        why = "has no pillar" if not st.players[seat].pillar else "cannot open an auction"
        ctx.log("pass", f"{ctx.name(seat)} {why} and passes.", seat)
        _finish_hire_turn(ctx, advance=False)
        ctx.set(turn=ctx.st.turn + 1)


def _finish_hire_turn(ctx: _Ctx, advance: bool = True) -> None:
    """End of an active player's turn (G-3): pillars back, markets refilled.  A07-2: the
    pillars leave the markets for the centre of the Colosseum instead of going back to their
    owners, so the emptied markets are refilled all the same."""
    if "auction-2007" in ctx.st.setup.options:
        if any(p != NOBODY for p in ctx.st.pillars):
            ctx.set(pillars=(NOBODY,) * 5)
    else:
        _return_pillars(ctx)
    _refill_markets(ctx)
    if advance:
        ctx.set(turn=ctx.st.turn + 1)
        _start_hire_turn(ctx)


def _return_pillars(ctx: _Ctx) -> None:
    if any(not p.pillar for p in ctx.st.players):
        players = tuple(p if p.pillar else replace(p, pillar=True) for p in ctx.st.players)
        ctx.set(players=players, pillars=(NOBODY,) * 5)


def _refill_markets(ctx: _Ctx) -> None:
    """Fill every market that is not full and has no pillar in it (G-3; bag may run dry)."""
    markets = list(ctx.st.markets)
    for i in range(5):
        if ctx.st.pillars[i] != NOBODY or len(markets[i]) >= 3:
            continue
        lot = list(markets[i])
        while len(lot) < 3:
            k = ctx.draw()
            if k == NOBODY:
                break
            lot.append(k)
        markets[i] = tuple(lot)
        if lot and len(lot) < 3:
            ctx.log("market", f"The bag is empty: market {MARKET_NAMES[i]} holds only {len(lot)} tiles.")
    ctx.set(markets=tuple(markets))


def _end_hire_phase(ctx: _Ctx) -> None:
    if "auction-2007" in ctx.st.setup.options:  # A07-2
        _return_pillars(ctx)
        _refill_markets(ctx)
    ctx.set(hire=None, phase="trade", turn=0, trade=TradeTurn(active=ctx.st.first))
    ctx.log("phase", "Phase 3: Trade Performers.")


def _open_auction(ctx: _Ctx, a: OpenAuction) -> None:
    st = ctx.st
    h = st.hire
    if st.phase != "hire" or h is None:
        raise RuleError("G-3", "auctions are held in Phase 2")
    if h.auction is not None:
        raise RuleError("G-3", "an auction is already running")
    if not h.had_pillar:
        raise RuleError("A07-1", "you may conduct an auction only if you had your pillar at the start of your turn")
    if not isinstance(a.market, int) or not 0 <= a.market < 5:
        raise RuleError("G-3.1", "markets are A to E")
    if len(st.markets[a.market]) != 3:
        raise RuleError("G-3.1", f"market {MARKET_NAMES[a.market]} does not hold 3 tiles")
    p = st.players[a.player]
    low = ctx.cat.common.min_opening_bid
    if not isinstance(a.bid, int):
        raise RuleError("G-3.2", "a bid is a whole number of coins")
    if a.bid < low:
        raise RuleError("G-3.2", f"opening bid must be at least {low}")
    if a.bid > credit(p):
        raise RuleError("G-3.4", f"{p.name} can bid at most {credit(p)} (coins + 6 per Aquila)")
    out = tuple(not q.pillar for q in st.players)
    lot = ctx.tiles_text(st.markets[a.market])
    ctx.log("auction", f"{p.name} opens market {MARKET_NAMES[a.market]} ({lot}) at {a.bid}.", a.player)
    auction = Auction(market=a.market, high=a.bid, bidder=a.player, out=out, to_bid=a.player)
    ctx.set(hire=replace(h, auction=auction, auctions=h.auctions + 1))
    _advance_auction(ctx, a.player)


def _advance_auction(ctx: _Ctx, after: int) -> None:
    """G-3.3: the next player clockwise who can still bid; those who cannot raise pass."""
    h = ctx.st.hire
    assert h is not None and h.auction is not None
    auc = h.auction
    n = len(ctx.st.players)
    out = list(auc.out)
    seat = after
    for _ in range(n):
        seat = (seat + 1) % n
        if seat == auc.bidder or out[seat]:
            continue
        if credit(ctx.player(seat)) <= auc.high:
            out[seat] = True
            ctx.log("pass", f"{ctx.name(seat)} cannot raise and passes.", seat)
            continue
        ctx.set(hire=replace(h, auction=replace(auc, out=tuple(out), to_bid=seat)))
        return
    ctx.set(hire=replace(h, auction=replace(auc, out=tuple(out))))
    _win_auction(ctx)


def _raise(ctx: _Ctx, a: Raise) -> None:
    h = ctx.st.hire
    if ctx.st.phase != "hire" or h is None or h.auction is None:
        raise RuleError("G-3.3", "there is no auction to bid in")
    auc = h.auction
    p = ctx.player(a.player)
    if not isinstance(a.bid, int):
        raise RuleError("G-3.3", "a bid is a whole number of coins")
    if a.bid <= auc.high:
        raise RuleError("G-3.3", f"a raise must be more than {auc.high}")
    if a.bid > credit(p):
        raise RuleError("G-3.4", f"{p.name} can bid at most {credit(p)} (coins + 6 per Aquila)")
    ctx.log("bid", f"{p.name} raises to {a.bid}.", a.player)
    ctx.set(hire=replace(h, auction=replace(auc, high=a.bid, bidder=a.player)))
    _advance_auction(ctx, a.player)


def _pass_bid(ctx: _Ctx, a: PassBid) -> None:
    h = ctx.st.hire
    if ctx.st.phase != "hire" or h is None or h.auction is None:
        raise RuleError("G-3.3", "there is no auction to pass in")
    auc = h.auction
    out = list(auc.out)
    out[a.player] = True
    ctx.log("pass", f"{ctx.name(a.player)} passes.", a.player)
    ctx.set(hire=replace(h, auction=replace(auc, out=tuple(out))))
    _advance_auction(ctx, a.player)


def _win_auction(ctx: _Ctx) -> None:
    """G-3.5 to G-3.7."""
    cat = ctx.cat
    h = ctx.st.hire
    assert h is not None and h.auction is not None
    auc = h.auction
    w = auc.bidder
    p = ctx.player(w)
    price = auc.high
    coins, aquilas = p.coins, p.aquilas
    sold = 0
    if coins < price:  # G-3.5: exchange Aquilas for 6 coins each until covered; change kept
        rate = cat.common.aquila_coins
        sold = -(-(price - coins) // rate)
        coins += sold * rate
        aquilas -= sold
    coins -= price
    lot = ctx.st.markets[auc.market]
    tiles = list(p.tiles)
    box = list(ctx.st.box)
    gained = 0
    for k in lot:
        if k == cat.aquila_tile:  # G-3.6
            box[k] += 1
            gained += 1
        else:
            tiles[k] += 1
    aquilas += gained
    ctx.set_player(w, coins=coins, aquilas=aquilas, tiles=tuple(tiles), pillar=False)
    markets = list(ctx.st.markets)
    markets[auc.market] = ()
    pillars = list(ctx.st.pillars)
    pillars[auc.market] = w
    ctx.set(markets=tuple(markets), pillars=tuple(pillars), box=tuple(box), hire=replace(h, auction=None))
    extra = ""
    if sold:
        extra += f", exchanging {sold} Aquila{'s' if sold > 1 else ''}"
    if gained:
        extra += (
            f"; the Aquila tile{'s become' if gained > 1 else ' becomes'} {gained} Aquila{'s' if gained > 1 else ''}"
        )
    ctx.log(
        "win",
        f"{p.name} wins market {MARKET_NAMES[auc.market]} ({ctx.tiles_text(lot)}) for {price}{extra}.",
        w,
    )
    _recheck_stars(ctx, set(lot))
    if w == h.active:  # G-3.7
        _finish_hire_turn(ctx)
    elif not can_open_auction(ctx.st, h.active):
        ctx.log("pass", f"{ctx.name(h.active)} cannot open another auction; the turn ends.", h.active)
        _finish_hire_turn(ctx)


def _end_turn(ctx: _Ctx, a: EndTurn) -> None:
    ph = ctx.st.phase
    if ph == "invest":
        ctx.log("end", f"{ctx.name(a.player)} ends the investment turn.", a.player)
        _next_investor(ctx)
    elif ph == "hire":
        if ctx.st.hire.auction is not None:  # type: ignore[union-attr]
            raise RuleError("G-3.3", "an auction is running: raise or pass")
        ctx.log("pass", f"{ctx.name(a.player)} passes.", a.player)
        _finish_hire_turn(ctx)
    elif ph == "trade":
        t = ctx.st.trade
        assert t is not None
        if t.deal is not None:
            raise RuleError("G-4", "a deal is on the table: close or cancel it first")
        ctx.log("end", f"{ctx.name(a.player)} ends the trade turn.", a.player)
        _next_trader(ctx)
    elif ph == "perform":
        pt = ctx.st.perform
        assert pt is not None
        if pt.stage in ("mode", "move"):
            raise RuleError("G-5", "once the dice are rolled the nobles must be moved")
        if pt.stage == "roll":
            ctx.log("pass", f"{ctx.name(a.player)} skips the performance.", a.player)
        else:
            ctx.log("pass", f"{ctx.name(a.player)} performs nothing this round.", a.player)
        _next_performer(ctx)
    elif ph == "closing":
        cl = ctx.st.closing
        assert cl is not None
        if cl.stage != "steal":
            raise RuleError("G-6", "this step of the Closing Ceremonies cannot be skipped")
        ctx.log("pass", f"{ctx.name(a.player)} steals nothing.", a.player)
        _closing_first(ctx)
    else:
        raise RuleError("G-1.6", "choose a starting gate pair")


# ---------------------------------------------------------------------- Phase 3

TRADABLE_EXTRA = ("coins", "aquilas")


def _tradable(cat: Catalog) -> frozenset[str]:
    """G-4: performer tiles (balatros too; construction tiles in the classic game, D-11),
    coins and Aquilas."""
    return _tradable_items(cat.variant)


@cache
def _tradable_items(variant: str) -> frozenset[str]:
    cat = load_catalog(variant)
    return frozenset({cat.codes[k] for k in cat.holdable} | set(TRADABLE_EXTRA))


def _holding(cat: Catalog, p: Player, item: str) -> int:
    if item == "coins":
        return p.coins
    if item == "aquilas":
        return p.aquilas
    return p.tiles[cat.index[item]]


def check_deal(state: State, transfers: tuple[Transfer, ...], proposer: int) -> None:
    """Raise RuleError if ``transfers`` is not a valid deal in this trade turn (G-4)."""
    cat = load_catalog(state.setup.variant)
    t = state.trade
    assert t is not None
    n = len(state.players)
    if not transfers:
        raise RuleError("G-4", "a deal needs at least one transfer")
    if len(transfers) > MAX_TRANSFERS:
        raise RuleError("G-4", f"a deal has at most {MAX_TRANSFERS} transfers")
    ok = _tradable(cat)
    need: dict[tuple[int, str], int] = {}
    parties = set()
    for tr in transfers:
        if not isinstance(tr, Transfer):
            raise RuleError("G-4", "malformed transfer")
        if not (0 <= tr.giver < n and 0 <= tr.receiver < n) or tr.giver == tr.receiver:
            raise RuleError("G-4", "each transfer goes from one player to another")
        if tr.item not in ok:
            raise RuleError("G-4", f"{tr.item!r} cannot be traded: only performer tiles, balatros, coins and Aquilas")
        if not isinstance(tr.count, int) or tr.count < 1:
            raise RuleError("G-4", "each transfer moves at least 1")
        need[(tr.giver, tr.item)] = need.get((tr.giver, tr.item), 0) + tr.count
        parties.add(tr.giver)
        parties.add(tr.receiver)
    if t.active not in parties:
        raise RuleError("G-4", f"every deal must include the active player, {state.players[t.active].name}")
    if proposer not in parties:
        raise RuleError("G-4", "you can propose only a deal you take part in")
    for (giver, item), cnt in need.items():
        have = _holding(cat, state.players[giver], item)
        if have < cnt:
            what = item if item in TRADABLE_EXTRA else cat.name_of(cat.index[item], 2)
            raise RuleError("G-4", f"{state.players[giver].name} has {have} {what}, not {cnt}")


def _propose(ctx: _Ctx, a: ProposeDeal) -> None:
    st = ctx.st
    t = st.trade
    if st.phase != "trade" or t is None:
        raise RuleError("G-4", "deals are made in Phase 3")
    if t.deal is not None:
        raise RuleError("G-4", "a deal is already on the table")
    limit = ctx.cat.common.max_deal_proposals
    if t.proposals >= limit:
        raise RuleError("G-4", f"at most {limit} deals may be proposed in one trade turn")
    transfers = tuple(a.transfers)
    check_deal(st, transfers, a.player)
    answers = [""] * len(st.players)
    for tr in transfers:
        answers[tr.giver] = answers[tr.receiver] = "pending"
    answers[a.player] = "accepted"
    deal = Deal(proposer=a.player, transfers=transfers, answers=tuple(answers))
    ctx.set(trade=replace(t, deal=deal, proposals=t.proposals + 1))
    ctx.log("deal", f"{ctx.name(a.player)} proposes: {describe_deal(st, transfers)}.", a.player)


def describe_deal(state: State, transfers) -> str:
    cat = load_catalog(state.setup.variant)
    parts = []
    for tr in transfers:
        if tr.item in TRADABLE_EXTRA:
            what = f"{tr.count} {tr.item if tr.count > 1 else tr.item[:-1]}"
        else:
            what = f"{tr.count} {cat.name_of(cat.index[tr.item], tr.count)}"
        parts.append(f"{state.players[tr.giver].name} gives {state.players[tr.receiver].name} {what}")
    return "; ".join(parts)


def _answer(ctx: _Ctx, seat: int, accept: bool) -> None:
    t = ctx.st.trade
    if ctx.st.phase != "trade" or t is None or t.deal is None:
        raise RuleError("G-4", "there is no deal to answer")
    if t.deal.answers[seat] != "pending":
        raise RuleError("G-4", f"{ctx.name(seat)} has no answer to give on this deal")
    if accept:
        answers = list(t.deal.answers)
        answers[seat] = "accepted"
        ctx.set(trade=replace(t, deal=replace(t.deal, answers=tuple(answers))))
        ctx.log("deal", f"{ctx.name(seat)} accepts.", seat)
    else:
        ctx.set(trade=replace(t, deal=None))
        ctx.log("deal", f"{ctx.name(seat)} rejects the deal.", seat)


def _close_deal(ctx: _Ctx, a: CloseDeal) -> None:
    t = ctx.st.trade
    if ctx.st.phase != "trade" or t is None or t.deal is None:
        raise RuleError("G-4", "there is no deal to close")
    if a.player != t.active:
        raise RuleError("G-4", "only the active player closes deals")
    if "pending" in t.deal.answers:
        raise RuleError("G-4", "every party must accept before the deal is closed")
    deal = t.deal
    check_deal(ctx.st, deal.transfers, deal.proposer)  # G-4: givers must own what they give now
    cat = ctx.cat
    players = list(ctx.st.players)
    kinds = set()
    for tr in deal.transfers:
        g, r = players[tr.giver], players[tr.receiver]
        if tr.item == "coins":
            g, r = replace(g, coins=g.coins - tr.count), replace(r, coins=r.coins + tr.count)
        elif tr.item == "aquilas":
            g, r = replace(g, aquilas=g.aquilas - tr.count), replace(r, aquilas=r.aquilas + tr.count)
        else:
            k = cat.index[tr.item]
            kinds.add(k)
            gt, rt = list(g.tiles), list(r.tiles)
            gt[k] -= tr.count
            rt[k] += tr.count
            g, r = replace(g, tiles=tuple(gt)), replace(r, tiles=tuple(rt))
        players[tr.giver], players[tr.receiver] = g, r
    ctx.set(players=tuple(players), trade=replace(t, deal=None, deals_closed=t.deals_closed + 1))
    ctx.log("trade", f"Deal closed: {describe_deal(ctx.st, deal.transfers)}.", a.player)
    _recheck_stars(ctx, kinds)  # G-4, G-7


def _cancel_deal(ctx: _Ctx, a: CancelDeal) -> None:
    t = ctx.st.trade
    if ctx.st.phase != "trade" or t is None or t.deal is None:
        raise RuleError("G-4", "there is no deal to cancel")
    if a.player not in (t.active, t.deal.proposer):
        raise RuleError("G-4", "only the active player or the proposer can withdraw a deal")
    ctx.set(trade=replace(t, deal=None))
    ctx.log("deal", f"{ctx.name(a.player)} withdraws the deal.", a.player)


def _next_trader(ctx: _Ctx) -> None:
    st = ctx.st
    turn = st.turn + 1
    if turn < len(st.players):
        ctx.set(turn=turn, trade=TradeTurn(active=(st.first + turn) % len(st.players)))
        return
    ctx.set(trade=None, phase="perform", turn=0, perform=PerformTurn(player=st.first))
    ctx.log("phase", "Phase 4: Perform a Spectacle.")


# ---------------------------------------------------------------------- Phase 4


def _perform_turn(ctx: _Ctx, stage: str, rule: str) -> PerformTurn:
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


def _roll(ctx: _Ctx, a: Roll) -> None:
    pt = _perform_turn(ctx, "roll", "G-5.1")
    rules = ctx.cat.rules
    n_dice = rules.temple_dice if ctx.player(a.player).temple else rules.dice
    dice = tuple(ctx.roll() for _ in range(n_dice))
    if n_dice == 1:
        pt = replace(pt, stage="move", dice=dice, mode="split", used=(False,))
    else:
        pt = replace(pt, stage="mode", dice=dice)
    ctx.set(perform=pt)
    ctx.log("roll", f"{ctx.name(a.player)} rolls {' and '.join(map(str, dice))}.", a.player)


def _choose_dice(ctx: _Ctx, a: ChooseDice) -> None:
    pt = _perform_turn(ctx, "mode", "G-5.1")
    if a.mode == "split":
        pt = replace(pt, stage="move", mode="split", used=(False,) * len(pt.dice))
    elif a.mode == "sum":
        pt = replace(pt, stage="move", mode="sum", used=(False,))
    else:
        raise RuleError("G-5.1", "choose 'split' (one noble per die) or 'sum' (one noble by the sum)")
    ctx.set(perform=pt)


def noble_step_range(state: State, die: int) -> tuple[int, int]:
    """The distances a noble may move with ``die`` (index, or -1 for the sum), G-5.1 / C-4."""
    pt = state.perform
    assert pt is not None
    cat = load_catalog(state.setup.variant)
    ranges = cat.rules.temple_ranges and state.players[pt.player].temple
    if die == -1:
        total = sum(pt.dice)
        return (len(pt.dice) if ranges else total, total)
    face = pt.dice[die]
    return (1 if ranges else face, face)


def walk(state: State, noble: int, steps: int) -> int:
    """Where ``noble`` ends after ``steps`` (negative: counter-clockwise).  G-5.1: spaces occupied
    by another noble are skipped and not counted; C-4: classic counts every space."""
    cat = load_catalog(state.setup.variant)
    n_sp = cat.track_spaces
    pos = state.nobles[noble]
    if not cat.rules.skip_occupied:
        return (pos + steps) % n_sp
    occupied = {p for i, p in enumerate(state.nobles) if i != noble}
    d = 1 if steps > 0 else -1
    left = abs(steps)
    while left:
        pos = (pos + d) % n_sp
        if pos not in occupied:
            left -= 1
    return pos


def _move_noble(ctx: _Ctx, a: MoveNoble) -> None:
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
    dest = walk(ctx.st, a.noble, a.steps)
    nobles = list(ctx.st.nobles)
    nobles[a.noble] = dest
    ctx.set(nobles=tuple(nobles))
    text = f"{ctx.name(a.player)} moves {NOBLE_NAMES[a.noble]} {a.steps} to space {dest}"
    owner = gate_owner(ctx.st, dest)
    if owner != NOBODY:
        text += f" ({ctx.name(owner)}'s gate)"
    if dest in ctx.cat.aquila_spaces:
        p = ctx.player(a.player)
        ctx.set_player(a.player, aquilas=p.aquilas + 1)
        text += " and takes an Aquila"
    ctx.log("noble", text + ".", a.player)
    used = list(pt.used)
    used[slot] = True
    done = all(used)
    ctx.set(perform=replace(pt, used=tuple(used), moved=pt.moved + (a.noble,), stage="after" if done else "move"))


def _aquila_move(ctx: _Ctx, a: AquilaMove) -> None:
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
    ctx.set(nobles=tuple(nobles), perform=pt)
    ctx.set_player(a.player, aquilas=p.aquilas - 1)
    way = "clockwise" if a.steps > 0 else "counter-clockwise"
    text = f"{p.name} spends an Aquila to move {NOBLE_NAMES[a.noble]} {abs(a.steps)} {way} to space {dest}"
    owner = gate_owner(ctx.st, dest)
    if owner != NOBODY:
        text += f" ({ctx.name(owner)}'s gate)"
    ctx.log("noble", text + ".", a.player)


def _perform(ctx: _Ctx, a: Perform) -> None:
    _perform_turn(ctx, "after", "G-5.2")
    spec = spectacle_by_key(ctx.cat, a.spectacle)
    why = why_not_performable(ctx.st, a.player, spec)
    if why:
        raise RuleError("G-5.2", why)
    p = ctx.player(a.player)
    if not isinstance(a.aquilas, int) or not 0 <= a.aquilas <= p.aquilas:
        raise RuleError("G-5.3", f"{p.name} can spend 0 to {p.aquilas} Aquilas")
    b = breakdown(ctx.st, a.player, spec, a.aquilas)
    moved = b.total > p.acclaim
    seq = p.seq
    nseq = ctx.st.next_seq
    if moved:
        seq, nseq = nseq, nseq + 1
    ctx.set_player(
        a.player,
        coins=p.coins + b.total,
        aquilas=p.aquilas - a.aquilas,
        acclaim=max(p.acclaim, b.total),
        seq=seq,
        face_down=tuple(i for i in p.face_down if i != spec.id),
        face_up=tuple(i for i in p.face_up if i != spec.id),
        arena=spec.id,
        arena_used=b.used,
        history=p.history + (b.total,),
    )
    ctx.set(next_seq=nseq)
    detail = " + ".join(str(v) for _, v in b.lines if v)
    where = f"moves the marker from {p.acclaim} to {b.total}" if moved else f"the marker stays at {p.acclaim}"
    ctx.log(
        "perform",
        f"{p.name} performs {spec.name}: {detail} = {b.total} Acclaim; {where}, takes {b.total} coins.",
        a.player,
    )
    _next_performer(ctx)


def _next_performer(ctx: _Ctx) -> None:
    st = ctx.st
    turn = st.turn + 1
    if turn < len(st.players):
        ctx.set(turn=turn, perform=PerformTurn(player=(st.first + turn) % len(st.players)))
        return
    # everyone has performed or passed: fill the round's score history
    players = tuple(p if len(p.history) >= st.round else replace(p, history=p.history + (0,)) for p in st.players)
    ctx.set(players=players, perform=None)
    if st.gifts_left <= 0:  # G-5.4: no gift left -> the game ends instead
        _end_game(ctx)
        return
    top = most_acclaimed(ctx.st)
    p = ctx.set_player(top, gifts=ctx.player(top).gifts + 1)
    ctx.set(gifts_left=st.gifts_left - 1)
    ctx.log("gift", f"{p.name} is the most acclaimed and takes a gift ({p.gifts} in all).", top)
    ctx.set(phase="closing", turn=0)
    ctx.log("phase", "Phase 5: Closing Ceremonies.")
    _closing_retire(ctx, 0)


# ---------------------------------------------------------------------- Phase 5


def _closing_retire(ctx: _Ctx, start: int) -> None:
    """G-6.1: in turn order, each player who performed retires one matched tile."""
    st = ctx.st
    for k in range(start, len(st.players)):
        seat = (st.first + k) % len(st.players)
        if st.players[seat].arena != NOBODY:
            ctx.set(turn=k, closing=ClosingTurn(stage="retire", player=seat))
            return
    _closing_steal(ctx)


def _retire(ctx: _Ctx, a: Retire) -> None:
    cl = ctx.st.closing
    if ctx.st.phase != "closing" or cl is None or cl.stage != "retire":
        raise RuleError("G-6.1", "performers are retired at the start of the Closing Ceremonies")
    cat = ctx.cat
    k = cat.index.get(a.tile, NOBODY)
    p = ctx.player(a.player)
    if k == NOBODY or not p.arena_used or p.arena_used[k] < 1 or p.tiles[k] < 1:
        usable = ", ".join(cat.codes[i] for i, u in enumerate(p.arena_used) if u and p.tiles[i])
        raise RuleError("G-6.1", f"retire a performer used in your spectacle ({usable})")
    tiles = list(p.tiles)
    tiles[k] -= 1
    box = list(ctx.st.box)
    box[k] += 1
    spec = cat.spectacles[p.arena]
    ctx.set_player(a.player, tiles=tuple(tiles), face_up=p.face_up + (p.arena,), arena=NOBODY, arena_used=())
    ctx.set(box=tuple(box))
    ctx.log("retire", f"{p.name} retires a {cat.tiles[k].name}; {spec.name} goes face up.", a.player)
    _recheck_stars(ctx, (k,))
    _closing_retire(ctx, ctx.st.turn + 1)


def _stealable(cat: Catalog, p: Player) -> list[int]:
    """G-6.2: a tile of any type, balatros (and classic construction tiles, D-11) included."""
    return [k for k in cat.holdable if p.tiles[k] > 0]


def _closing_steal(ctx: _Ctx) -> None:
    least = least_acclaimed(ctx.st)
    most = most_acclaimed(ctx.st)
    if _stealable(ctx.cat, ctx.player(most)):
        ctx.set(closing=ClosingTurn(stage="steal", player=least, victim=most))
        return
    ctx.log("steal", f"{ctx.name(most)} has no performer for {ctx.name(least)} to steal.", least)
    _closing_first(ctx)


def _steal(ctx: _Ctx, a: Steal) -> None:
    cl = ctx.st.closing
    if ctx.st.phase != "closing" or cl is None or cl.stage != "steal":
        raise RuleError("G-6.2", "the least acclaimed steals after performers are retired")
    cat = ctx.cat
    k = cat.index.get(a.tile, NOBODY)
    victim = ctx.player(cl.victim)
    if k not in _stealable(cat, victim):
        raise RuleError("G-6.2", f"{victim.name} has no {a.tile} to steal")
    vt, tt = list(victim.tiles), list(ctx.player(a.player).tiles)
    vt[k] -= 1
    tt[k] += 1
    ctx.set_player(cl.victim, tiles=tuple(vt))
    ctx.set_player(a.player, tiles=tuple(tt))
    ctx.log("steal", f"{ctx.name(a.player)} steals a {cat.tiles[k].name} from {victim.name}.", a.player)
    _recheck_stars(ctx, (k,))
    _closing_first(ctx)


def _closing_first(ctx: _Ctx) -> None:
    least = least_acclaimed(ctx.st)
    ctx.set(closing=ClosingTurn(stage="first", player=least))


def _choose_first(ctx: _Ctx, a: ChooseFirstPlayer) -> None:
    cl = ctx.st.closing
    if ctx.st.phase != "closing" or cl is None or cl.stage != "first":
        raise RuleError("G-6.3", "the first player is chosen at the end of the Closing Ceremonies")
    if not isinstance(a.first, int) or not 0 <= a.first < len(ctx.st.players):
        raise RuleError("G-6.3", f"choose a seat from 0 to {len(ctx.st.players) - 1}")
    ctx.log("first", f"{ctx.name(a.player)} chooses {ctx.name(a.first)} as first player.", a.player)
    rnd = ctx.st.round + 1
    ctx.set(
        closing=None,
        round=rnd,
        first=a.first,
        phase="invest",
        turn=0,
        invest=InvestTurn(player=a.first),
    )
    ctx.log("phase", f"Round {rnd} begins. Phase 1: Make Investments.", a.first)


# ---------------------------------------------------------------------- stars and the end


def _recheck_stars(ctx: _Ctx, kinds) -> None:
    """G-7, for each tile kind whose counts may have changed."""
    stars = ctx.st.stars
    new = list(stars)
    players = ctx.st.players
    for k in kinds:
        h = stars[k]
        if h == NO_STAR:
            continue
        counts = [p.tiles[k] for p in players]
        m = max(counts)
        minimum = ctx.cat.common.star_minimum
        if h >= 0 and counts[h] == m and m >= minimum:
            continue
        holder = counts.index(m) if m >= minimum and counts.count(m) == 1 else NOBODY
        if holder != h:
            new[k] = holder
            name = ctx.cat.tiles[k].name
            if holder == NOBODY:
                ctx.log("star", f"The {name} Star Performer returns to the board.", h)
            elif h == NOBODY:
                ctx.log("star", f"{players[holder].name} takes the {name} Star Performer.", holder)
            else:
                ctx.log(
                    "star", f"{players[holder].name} takes the {name} Star Performer from {players[h].name}.", holder
                )
    if new != list(stars):
        ctx.set(stars=tuple(new))


def _end_game(ctx: _Ctx) -> None:
    """G-9 (C-6: no Acclaim for Aquilas in the classic game)."""
    st = ctx.st
    per = ctx.cat.rules.endgame_aquila_acclaim
    ctx.set(phase="over")
    for seat in turn_order(st):
        p = ctx.player(seat)
        if not p.aquilas:
            continue
        if per:
            gain = per * p.aquilas
            new = p.acclaim + gain
            ctx.set_player(seat, acclaim=new, aquilas=0, seq=ctx.st.next_seq)
            ctx.set(next_seq=ctx.st.next_seq + 1)
            ctx.log("aquila", f"{p.name} returns {p.aquilas} Aquilas for {gain} Acclaim: {p.acclaim} to {new}.", seat)
        else:
            ctx.set_player(seat, aquilas=0)
            ctx.log("aquila", f"{p.name} discards {p.aquilas} Aquilas (no Acclaim in the classic game).", seat)
    result = rank(ctx.st)
    ctx.set(result=result)
    w = ctx.name(result.winner)
    ctx.log("over", f"The game is over. {w} wins with {ctx.player(result.winner).acclaim} Acclaim.", result.winner)


def rank(state: State) -> Result:
    """G-9: highest marker; ties: most coins, most Star Performers, bottom of the stack."""

    def key(seat: int):
        p = state.players[seat]
        return (-p.acclaim, -p.coins, -star_count(state, seat), p.seq)

    order = sorted(range(len(state.players)), key=key)
    standings = []
    for i, seat in enumerate(order):
        k = key(seat)
        decided = ""
        if i + 1 < len(order):
            other = key(order[i + 1])
            for name, a_, b_ in zip(("acclaim", "coins", "stars", "stack"), k, other, strict=False):
                if a_ != b_:
                    decided = name
                    break
        p = state.players[seat]
        standings.append(
            Standing(
                seat=seat,
                rank=i + 1,
                acclaim=p.acclaim,
                coins=p.coins,
                stars=star_count(state, seat),
                seq=p.seq,
                decided_by=decided,
            )
        )
    return Result(winner=order[0], standings=tuple(standings))


_HANDLERS: dict[type, Callable[[_Ctx, object], None]] = {
    PlaceStartGates: _place_start_gates,
    BuildGate: _build_gate,
    HirePromoter: _hire_promoter,
    PlanSpectacle: _plan_spectacle,
    BuildTemple: _build_temple,
    ExchangeAquilas: _exchange_aquilas,
    ConstructionForAquila: _construction_for_aquila,
    OpenAuction: _open_auction,
    Raise: _raise,
    PassBid: _pass_bid,
    ProposeDeal: _propose,
    AcceptDeal: lambda ctx, a: _answer(ctx, a.player, True),
    RejectDeal: lambda ctx, a: _answer(ctx, a.player, False),
    CloseDeal: _close_deal,
    CancelDeal: _cancel_deal,
    Roll: _roll,
    ChooseDice: _choose_dice,
    MoveNoble: _move_noble,
    AquilaMove: _aquila_move,
    Perform: _perform,
    Retire: _retire,
    Steal: _steal,
    ChooseFirstPlayer: _choose_first,
    EndTurn: _end_turn,
}

# Actions a player may take when the game is not waiting on them (checked by their handlers).
_ANY_SEAT = frozenset({ProposeDeal, CancelDeal, ConstructionForAquila})
