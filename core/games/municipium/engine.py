"""Municipium's rules engine: ``new_game(setup)``, ``to_act(state)`` and ``apply(state, action)``.

``apply`` is a pure reducer returning the new state and the log events, or raising
:class:`~colosseum.core.errors.RuleError` with the M- rule id (the given state is untouched).
A turn is: optional move (M-5.1), one card (M-5.2) carried out as frames on ``State.stack``
(M-10), end-of-turn check (M-11).  Card drivers are here; events in ``events.py``; powers in
``powers.py``; moves in ``moves.py``.
"""

from __future__ import annotations

import msgspec

from colosseum.core import rng
from colosseum.core.errors import RuleError
from colosseum.core.events import Event
from colosseum.core.games.municipium import powers
from colosseum.core.games.municipium.actions import (
    BasilicaDraw,
    DrawCommon,
    EmporiumDraw,
    Exchange,
    GreatFamilyOption,
    KeepCitizens,
    Move,
    MuniAction,
    Pass,
    PlaceChamber,
    PlaceCitizen,
    PlaceMember,
    PlayFamily,
    Pull,
    Relocate,
    Take,
    UsePower,
)
from colosseum.core.games.municipium.board import Ctx, add, held_total, led_by, ranking, temple_pos
from colosseum.core.games.municipium.catalog import load_catalog
from colosseum.core.games.municipium.events import (
    draw_single_chamber,
    finish_citizen_event,
    governor_event,
    place_chamber,
    place_citizen,
)
from colosseum.core.games.municipium.model import (
    NO_KIND,
    NOBODY,
    OPTION_SHORT,
    OPTION_SINGLE,
    OPTIONS,
    BasilicaFrame,
    CardFrame,
    ChamberFrame,
    CitizenEventFrame,
    EmporiumFrame,
    ForumFrame,
    GreatFamilyFrame,
    MuniSetup,
    OfferFrame,
    PlaceFrame,
    Player,
    RearrangeFrame,
    Result,
    Standing,
    State,
    TavernFrame,
)
from colosseum.core.games.municipium.moves import apply_move

# ====================================================================== setup


def new_game(setup: MuniSetup) -> State:
    """M-2: the board laid out, chamber citizens drawn, the start player chosen (M-3.1)."""
    cat = load_catalog()
    n = len(setup.players)
    if not 2 <= n <= 4:
        raise RuleError("M-0.1", f"Municipium is played by 2 to 4 players, not {n}")
    names = tuple(p.strip() for p in setup.players)
    if any(not p for p in names) or len(set(names)) != n:
        raise RuleError("M-2.7", "every player needs a distinct, non-empty name")
    for opt in setup.options:
        if opt not in OPTIONS:
            raise RuleError("M-13", f"unknown option {opt!r}; options are {', '.join(OPTIONS)}")
    try:
        key = rng.key_of(setup.secret)
    except ValueError as err:
        raise RuleError("M-2", f"the setup's secret is not usable: {err}") from None
    r = rng.seed_state(setup.seed, key)
    r, start = rng.below(r, n, key)
    r, deck = rng.shuffled(r, cat.common_deck, key)  # M-2.8
    bag = list(cat.kind_total)
    banners = []
    for k in cat.banner:  # M-2.2
        bag[k] -= 1
        banners.append(add((0, 0, 0, 0), k, 1))
    fav = tuple(i in cat.chambers for i in range(7))  # M-2.3
    players = tuple(
        Player(
            name=names[s],
            colour=cat.raw.families[s].id,
            plain=(0,) * 7,
            crowned=(0,) * 7,
            family=cat.family_cards,
        )
        for s in range(n)
    )
    st = State(
        # (the whole setup: its secret keys every draw to come; an older log's game kept only
        # the names, the seed and the options, D-96)
        setup=(
            MuniSetup(players=names, seed=setup.seed, options=setup.options)
            if setup.legacy_draws
            else msgspec.structs.replace(setup, players=names)
        ),
        rng=r,
        start=start,
        active=start,
        players=players,
        banners=tuple(banners),
        favour_spaces=fav,
        chamber=(NO_KIND,) * 7,
        governor=cat.start_governor,  # M-2.4
        bag=tuple(bag),
        favour_supply=cat.counts.favours - len(cat.chambers),
        wreaths=cat.counts.wreaths,
        deck=tuple(deck),
    )
    ctx = Ctx(st)
    if n >= 3:  # M-2.5
        if OPTION_SINGLE in setup.options:
            draw_single_chamber(ctx, start)
        else:
            for i in cat.chambers:
                ctx.set_chamber(i, ctx.draw())
    return ctx.st


def target(state: State) -> int:
    c = load_catalog().counts
    return c.short_target if OPTION_SHORT in state.setup.options else c.target


# ====================================================================== queries


def to_act(state: State) -> int:
    """The seat whose decision the game waits for, or -1 when the game is over."""
    if state.phase == "over":
        return NOBODY
    if state.stack:
        return state.stack[-1].player
    if state.phase == "place":
        return (state.start + state.placed) % state.n
    return state.active


# ====================================================================== apply


def apply(state: State, action: MuniAction) -> tuple[State, list[Event]]:
    if state.phase == "over":
        raise RuleError("M-11", "the game is over")
    seat = to_act(state)
    if action.player != seat:
        raise RuleError("M-10.7", f"it is {state.players[seat].name}'s decision, not seat {action.player}'s")
    ctx = Ctx(state)
    if state.stack:
        _answer_frame(ctx, action)
    elif state.phase == "place":
        _place_member(ctx, action)
    elif state.phase == "move":
        if isinstance(action, Pass):
            ctx.set(phase="card")
        elif isinstance(action, Move):
            apply_move(ctx, action)
            ctx.set(phase="card")
        else:
            raise RuleError("M-5.1", "first move (or pass), then play a card")
    else:
        _play_card(ctx, action)
    _run(ctx)
    ctx.set(actions=ctx.st.actions + 1)
    return ctx.st, ctx.events


def _place_member(ctx: Ctx, a: MuniAction) -> None:
    if not isinstance(a, PlaceMember):
        raise RuleError("M-3.2", "place one member on an institution")
    if not 0 <= a.institution < 7:
        raise RuleError("M-3.2", f"no institution {a.institution}")
    st = ctx.st
    p = st.players[a.player]
    ctx.set_player(a.player, plain=add(p.plain, a.institution, 1))
    ctx.set(placed=st.placed + 1)
    ctx.log("place", f"{p.name} places a member at the {ctx.cat.inst_name(a.institution)}.", a.player)
    if ctx.st.placed < ctx.cat.counts.members * st.n:
        return
    # M-3.3: most Temple members on space I; ties from the start player clockwise
    order = sorted(range(st.n), key=lambda s: (-ctx.st.players[s].plain[0], (s - st.start) % st.n))
    ctx.set(temple=tuple(order), phase="move", active=st.start, turn=1)
    ctx.log("temple", "Temple order: " + ", ".join(ctx.name(s) for s in order) + ".")
    ctx.log("turn", f"{ctx.name(st.start)} takes the first turn.", st.start)


def _play_card(ctx: Ctx, a: MuniAction) -> None:
    st = ctx.st
    p = st.players[a.player]
    if isinstance(a, DrawCommon):
        if not st.deck:  # M-5.4: reshuffle when a draw finds the deck empty
            r, deck = rng.shuffled(st.rng, st.discard, rng.key_of(st.setup.secret))
            ctx.set(rng=r, deck=deck, discard=())
            ctx.log("card", "The common discard is shuffled into a new deck.")
        card = ctx.st.deck[0]
        ctx.set(deck=ctx.st.deck[1:])
        ctx.log("card", f"{p.name} turns over {ctx.cat.card_name(card)}.", a.player)
    elif isinstance(a, PlayFamily):
        if a.card not in p.family:
            raise RuleError("M-5.2", f"{p.name} has no face-up family card {a.card!r}")
        i = p.family.index(a.card)
        ctx.set_player(a.player, family=p.family[:i] + p.family[i + 1 :])
        card = a.card
        ctx.log("card", f"{p.name} plays the family card {ctx.cat.card_name(card)}.", a.player)
    else:
        raise RuleError("M-5.2", "play a card: the top common card or one of your family cards")
    ctx.set(in_play=card)
    ctx.push(CardFrame(player=a.player, card=card))


def _answer_frame(ctx: Ctx, a: MuniAction) -> None:
    top = ctx.st.stack[-1]
    seat = a.player
    if isinstance(top, PlaceFrame) and isinstance(a, PlaceCitizen):
        k = ctx.cat.kind_index.get(a.kind, NO_KIND)
        if k == NO_KIND or ctx.st.held[k] == 0:
            raise RuleError("M-7.2", f"no {a.kind} is waiting to be placed")
        if not 0 <= a.institution < 7:
            raise RuleError("M-7.2", f"no institution {a.institution}")
        if sum(ctx.st.held) == 1:
            ctx.pop()
        place_citizen(ctx, seat, k, a.institution)
    elif isinstance(top, CitizenEventFrame) and isinstance(a, KeepCitizens):
        k = ctx.cat.kind_index.get(a.leave, NO_KIND)
        if k == NO_KIND:
            raise RuleError("M-7.2", f"unknown citizen kind {a.leave!r}")
        ctx.pop()
        finish_citizen_event(ctx, top.institution, k)
    elif isinstance(top, GreatFamilyFrame) and isinstance(a, GreatFamilyOption):
        if a.option == "governor":
            ctx.pop()
            governor_event(ctx)
        else:
            ctx.replace_top(RearrangeFrame(player=seat, left=ctx.cat.counts.members))
    elif isinstance(top, OfferFrame) and isinstance(a, UsePower):
        if a.institution not in top.options:
            raise RuleError("M-7.3", "use the power of an institution where you have most influence")
        ctx.pop()
        powers.use_power(ctx, seat, a.institution)
    elif isinstance(top, OfferFrame | EmporiumFrame | RearrangeFrame) and isinstance(a, Pass):
        ctx.pop()
        if isinstance(top, OfferFrame):
            where = " or ".join(f"the {ctx.cat.inst_name(i)}" for i in top.options)
            ctx.log("power", f"{ctx.name(seat)} does not use {where}.", seat)
    elif isinstance(top, TavernFrame) and isinstance(a, Pull):
        powers.pull(ctx, a)
    elif isinstance(top, EmporiumFrame) and isinstance(a, EmporiumDraw):
        powers.emporium_draw(ctx, seat)
    elif isinstance(top, BasilicaFrame) and isinstance(a, Exchange):
        powers.exchange(ctx, a)
    elif isinstance(top, BasilicaFrame) and isinstance(a, BasilicaDraw):
        powers.basilica_draw(ctx, seat)
    elif isinstance(top, ForumFrame) and isinstance(a, Take):
        powers.take(ctx, a)
    elif isinstance(top, RearrangeFrame) and isinstance(a, Relocate):
        powers.relocate(ctx, a)
    elif isinstance(top, ChamberFrame) and isinstance(a, PlaceChamber):
        place_chamber(ctx, seat, a.institution)
    else:
        raise RuleError("M-10.7", f"{type(a).__name__} does not answer the pending {top.__struct_config__.tag}")


# ====================================================================== the stack (M-10)


def _run(ctx: Ctx) -> None:
    """Carry out frames until one waits for a choice (M-10)."""
    while ctx.st.stack:
        top = ctx.st.stack[-1]
        if isinstance(top, CardFrame):
            _drive(ctx, top)
        elif isinstance(top, PlaceFrame) and sum(ctx.st.held) == 0:
            ctx.pop()
        elif isinstance(top, EmporiumFrame) and (ctx.st.citizen_events != top.mark or sum(ctx.st.bag) == 0):
            ctx.pop()
        elif isinstance(top, RearrangeFrame) and top.left <= 0:
            ctx.pop()
        elif isinstance(top, TavernFrame) and not powers.pull_options(ctx):
            ctx.pop()
        elif isinstance(top, BasilicaFrame) and not powers.exchange_options(ctx, top.player) and sum(ctx.st.bag) == 0:
            ctx.pop()
        elif isinstance(top, ForumFrame) and not powers.take_options(ctx, top.player):
            ctx.pop()
            ctx.log("power", "There is no citizen to take.")
        else:
            return


def _drive(ctx: Ctx, f: CardFrame) -> None:
    """One step of the card in play (M-6, M-10.1)."""
    st = ctx.st
    n = st.n
    nxt = CardFrame(player=f.player, card=f.card, i=f.i + 1)
    c = f.card
    if c == "governors_visit" and f.i == 0:
        ctx.replace_top(nxt)
        governor_event(ctx)
    elif c == "great_family" and f.i == 0:
        ctx.replace_top(nxt)
        ctx.push(GreatFamilyFrame(player=f.player))
    elif c == "citizens_visit" and f.i < n:
        ctx.replace_top(nxt)
        seat = (f.player + f.i) % n
        k = ctx.draw()
        if k == NO_KIND:
            ctx.log("draw", f"The bag is empty: {ctx.name(seat)} places nothing.", seat)
        else:
            ctx.set(held=add(ctx.st.held, k, 1))
            ctx.log("draw", f"{ctx.name(seat)} draws {ctx.cat.a_kind(k)}.", seat)
            ctx.push(PlaceFrame(player=seat))
    elif c == "citizens_invitation" and f.i == 0:
        ctx.replace_top(nxt)
        drawn = [k for k in (ctx.draw() for _ in range(4)) if k != NO_KIND]
        for k in drawn:
            ctx.set(held=add(ctx.st.held, k, 1))
        text = ", ".join(ctx.cat.kind_name(k) for k in drawn) or "nothing (the bag is empty)"
        ctx.log("draw", f"{ctx.name(f.player)} draws {text}.", f.player)
        ctx.push(PlaceFrame(player=f.player))
    elif c in ("all_powers", "your_powers") and f.i < 7:
        ctx.replace_top(nxt)
        r = ranking(st, f.i)
        if r and (c == "all_powers" or r[0] == f.player):
            ctx.push(OfferFrame(player=r[0], options=(f.i,)))
    elif c == "one_power" and f.i < n:
        ctx.replace_top(nxt)
        seat = (f.player + f.i) % n
        led = led_by(st, seat)
        if led:
            ctx.push(OfferFrame(player=seat, options=led))
    else:
        _finish_card(ctx, f.player, c)


def _finish_card(ctx: Ctx, seat: int, card: str) -> None:
    """M-5.3: a common card to the discard, a family card face down."""
    ctx.pop()
    ctx.set(in_play="")
    if ctx.cat.cards[card].deck == "common":
        ctx.set(discard=ctx.st.discard + (card,))
    else:
        p = ctx.st.players[seat]
        ctx.set_player(seat, spent=p.spent + (card,))
    _end_turn(ctx)  # M-5.5: the card frame is the bottom of the stack


def _end_turn(ctx: Ctx) -> None:
    """M-5.5, M-11.1: the game ends at the end of a turn in which someone reached the target."""
    st = ctx.st
    if any(p.decurions >= target(st) for p in st.players):
        result = final_result(st)
        ctx.set(phase="over", result=result)
        ctx.log("end", f"The game ends. {ctx.name(result.winner)} wins.", result.winner)
        return
    nxt = (st.active + 1) % st.n
    ctx.set(active=nxt, phase="move", turn=st.turn + 1)


def final_result(state: State) -> Result:
    """M-11.2: decurions, then favours + citizens held, then the Temple order."""

    def key(s: int) -> tuple[int, int, int]:
        p = state.players[s]
        return (-p.decurions, -held_total(p), temple_pos(state, s))

    order = sorted(range(state.n), key=key)
    standings = []
    for rank, s in enumerate(order, 1):
        nxt = order[rank] if rank < len(order) else None
        decided = ""
        if nxt is not None:
            a, b = key(s), key(nxt)
            decided = "decurions" if a[0] != b[0] else "held" if a[1] != b[1] else "temple"
        p = state.players[s]
        standings.append(
            Standing(
                seat=s,
                rank=rank,
                decurions=p.decurions,
                held=held_total(p),
                temple=temple_pos(state, s) + 1,
                decided_by=decided,
            )
        )
    return Result(winner=order[0], standings=tuple(standings))
