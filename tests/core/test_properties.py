"""Property tests: whole games of random bots, every state checked against the invariants
(core/invariants.py) and the previous state.

Default size keeps the suite fast; ``COLOSSEUM_SOAK=N`` plays N times as many games (and
lets hypothesis pick fresh examples instead of the derandomized ones).
"""

from __future__ import annotations

from collections import Counter

from builders import SOAK
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from colosseum.core.games.colosseum import GameSetup, RuleError, apply, encode_state, legal, new_game, rank, to_act
from colosseum.core.games.colosseum.bots.random_bot import RandomBot
from colosseum.core.games.colosseum.components import load_catalog
from colosseum.core.games.colosseum.invariants import check

PROPS = settings(
    max_examples=30 * SOAK,
    deadline=None,
    derandomize=SOAK == 1,
    suppress_health_check=[HealthCheck.too_slow],
)

VARIANTS = st_.sampled_from(
    [("grand", ()), ("classic", ()), ("grand", ("auction-2007",)), ("classic", ("auction-2007",)), ("original", ())]
)
MAX_ACTIONS = 5000


def play_checked(n: int, seed: int, variant: str, options: tuple[str, ...]):
    """Play a random game, checking every state; return the final state and all events."""
    st = new_game(GameSetup(players=tuple(f"P{i}" for i in range(n)), seed=seed, variant=variant, options=options))
    problems = check(st)
    assert not problems, problems
    bots = [RandomBot(seed * 7 + i) for i in range(n)]
    events = []
    steps = 0
    while st.phase != "over":
        seat = to_act(st)
        assert 0 <= seat < n
        action = bots[seat].act(st)
        prev = st
        st, ev = apply(st, action)
        events.extend(ev)
        problems = check(st, prev)
        assert not problems, (steps, action, problems)
        steps += 1
        assert steps < MAX_ACTIONS, "the game does not end"
    return st, events


@PROPS
@given(n=st_.integers(3, 5), seed=st_.integers(0, 2**32), variant=VARIANTS)
def test_random_games_keep_every_invariant_and_end_by_g9(n, seed, variant):
    """Tiles accounted, no negative coins or Aquilas, markers never move back, G-7 holds,
    gates at most 4 and adjacent; the game ends after the last round (4 grand, 5 classic and
    original) with a G-9 result (O-29 in the original: no stack, a shared win)."""
    name, options = variant
    st, events = play_checked(n, seed, name, options)
    cat = load_catalog(name)
    assert st.round == cat.rounds == cat.rules.gifts + 1 and st.gifts_left == 0
    assert st.result == rank(st)
    shared = cat.rules.end_tie == "shared"
    keys = [
        (-p.acclaim, -p.coins, -sum(1 for h in st.stars if h == i), 0 if shared else p.seq)
        for i, p in enumerate(st.players)
    ]
    assert [s.seat for s in st.result.standings] == sorted(range(n), key=lambda i: keys[i])
    assert st.result.winner == st.result.standings[0].seat
    tied = [i for i in range(n) if keys[i] == keys[st.result.winner]]
    assert st.result.shared == (tuple(sorted(tied)) if len(tied) > 1 else ())
    if cat.rules.endgame_aquila_acclaim == 0:
        assert all(p.aquilas == 0 for p in st.players)
    assert all(len(p.history) == cat.rounds for p in st.players)
    assert all(max(p.history, default=0) <= p.acclaim for p in st.players)
    if "auction-2007" in options or cat.rules.one_win_per_phase:
        # A07-2: nobody wins two lots in one Phase 2
        wins = Counter((e.round, e.seat) for e in events if e.kind == "win")
        assert max(wins.values(), default=0) <= 1, wins


@settings(max_examples=6 * SOAK, deadline=None, derandomize=SOAK == 1)
@given(n=st_.integers(3, 5), seed=st_.integers(0, 2**32), variant=VARIANTS)
def test_everything_legal_offers_is_accepted(n, seed, variant):
    """Every concrete action ``legal`` lists, and both ends of every bid range, apply without
    RuleError; an action by anyone but the player to act is refused."""
    name, options = variant
    st = new_game(GameSetup(players=tuple(f"P{i}" for i in range(n)), seed=seed, variant=name, options=options))
    bots = [RandomBot(seed + i) for i in range(n)]
    while st.phase != "over":
        ch = legal(st)
        seat = to_act(st)
        assert ch.player == seat and len(ch) > 0
        for a in ch.actions:
            apply(st, a)
        for b in ch.bids:
            assert b.low <= b.high
            apply(st, b.action(seat, b.low))
            apply(st, b.action(seat, b.high))
        other = (seat + 1) % n
        for a in ch.actions[:1]:
            if type(a).__name__ not in ("ProposeDeal", "CancelDeal", "ConstructionForAquila"):
                try:
                    apply(st, a.__class__(**{**_fields(a), "player": other}))
                except RuleError as e:
                    assert str(e).startswith("G-")
                else:
                    raise AssertionError(f"{a} accepted from seat {other}")
        st, _ = apply(st, bots[seat].act(st))


def _fields(a):
    return {f: getattr(a, f) for f in a.__struct_fields__}


def _candidates(st, seat):
    """A broad universe of actions for ``seat`` in ``st``: every finite choice, bids at and
    around the limits, but no deal proposals (their space is unbounded)."""
    from colosseum.core.games.colosseum import actions as A

    cat = load_catalog(st.setup.variant)
    p = st.players[seat]
    keys = [s.key for s in cat.spectacles]
    codes = list(cat.codes)
    out = [A.EndTurn(player=seat), A.ConstructionForAquila(player=seat)]
    out += [A.PlaceStartGates(player=seat, space=s) for s in range(36)]
    for extra in ("", "aquilas", "construction"):
        out += [A.BuildGate(player=seat, space=s, extra=extra) for s in range(36)]
        out += [A.HirePromoter(player=seat, extra=extra), A.BuildTemple(player=seat, extra=extra)]
        out += [A.BuySeasonTicket(player=seat, extra=extra), A.BuildLoge(player=seat, extra=extra)]
        out += [A.PlanSpectacle(player=seat, spectacle=k, extra=extra) for k in keys]
    out += [A.ExchangeAquilas(player=seat, count=c) for c in range(p.aquilas + 2)]
    credit = p.coins + 6 * p.aquilas
    high = st.hire.auction.high if st.hire and st.hire.auction else 8
    for bid in sorted({7, 8, high, high + 1, credit, credit + 1}):
        out += [A.OpenAuction(player=seat, market=m, bid=bid) for m in range(5)]
        out.append(A.Raise(player=seat, bid=bid))
    out += [A.PassBid(player=seat), A.AcceptDeal(player=seat), A.RejectDeal(player=seat)]
    out += [A.CloseDeal(player=seat), A.CancelDeal(player=seat)]
    out += [A.Roll(player=seat), A.ChooseDice(player=seat, mode="split"), A.ChooseDice(player=seat, mode="sum")]
    out += [
        A.MoveNoble(player=seat, noble=nb, die=d, steps=s) for nb in range(6) for d in (-1, 0, 1) for s in range(14)
    ]
    out += [A.AquilaMove(player=seat, noble=nb, steps=s) for nb in range(6) for s in range(-4, 5)]
    out += [A.Perform(player=seat, spectacle=k, aquilas=q) for k in keys for q in range(p.aquilas + 2)]
    out += [A.Retire(player=seat, tile=c) for c in codes] + [A.Steal(player=seat, tile=c) for c in codes]
    out += [A.ChooseFirstPlayer(player=seat, first=f) for f in range(st.n + 1)]
    return out


@settings(max_examples=4 * SOAK, deadline=None, derandomize=SOAK == 1)
@given(n=st_.integers(3, 5), seed=st_.integers(0, 2**32), variant=VARIANTS)
def test_legal_lists_exactly_what_apply_accepts(n, seed, variant):
    """``legal`` and ``apply`` agree: of a broad universe of candidate actions, apply accepts
    exactly those legal() lists (bids: those within a listed range)."""
    from colosseum.core.games.colosseum.actions import OpenAuction, Raise

    name, options = variant
    st = new_game(GameSetup(players=tuple(f"P{i}" for i in range(n)), seed=seed, variant=name, options=options))
    bots = [RandomBot(seed + 5 + i) for i in range(n)]
    while st.phase != "over":
        ch = legal(st)
        seat = ch.player
        listed = set(ch.actions)
        before = encode_state(st)
        for a in _candidates(st, seat):
            try:
                apply(st, a)
                ok = True
            except RuleError:
                ok = False
            if isinstance(a, (OpenAuction, Raise)):
                market = a.market if isinstance(a, OpenAuction) else -1
                expect = any(b.market == market and b.low <= a.bid <= b.high for b in ch.bids)
            else:
                expect = a in listed
            assert ok == expect, (st.phase, a, ok)
        assert encode_state(st) == before, "applying actions never changes the state applied to"
        st, _ = apply(st, bots[seat].act(st))


# ---------------------------------------------------------------------------- a referee


def _walk(cat, nobles, i, steps):
    """Independent G-5.1 / C-4 noble walk."""
    pos = nobles[i]
    others = {p for j, p in enumerate(nobles) if j != i}
    d = 1 if steps > 0 else -1
    left = abs(steps)
    while left:
        pos = (pos + d) % cat.track_spaces
        if not cat.rules.skip_occupied or pos not in others:
            left -= 1
    return pos


def _score(cat, st, seat, spec, aquilas):
    """Independent G-5.3 total."""
    p = st.players[seat]
    matched = sum(min(p.tiles[k], n) for k, n in enumerate(spec.need))
    matched += min(p.tiles[cat.index["Bal"]], spec.total - matched)
    total = spec.strip[spec.total - matched]
    total += 5 * sum(1 for s in p.face_up if s != spec.id)
    total += 4 * sum(1 for k, h in enumerate(st.stars) if h == seat and spec.need[k])
    worth = {"emperor": 7, "consul": 5, "senator": 3}
    total += sum(worth[cat.noble_kinds[i]] for i, pos in enumerate(st.nobles) if pos in p.gates)
    return total + 5 * p.promoters + 3 * p.gifts + 3 * aquilas


def _medals_left(cat, st):
    """O-2: medals left in the supply (None: unlimited)."""
    limit = cat.rules.aquila_supply
    return None if not limit else limit - sum(p.aquilas for p in st.players)


def referee(prev, action, st):
    """What each kind of action must have done, computed independently of the engine."""
    from colosseum.core.games.colosseum import actions as A

    cat = load_catalog(prev.setup.variant)
    seat = action.player
    before, after = prev.players[seat], st.players[seat]
    if isinstance(action, A.Perform):
        spec = cat.spectacles[cat.spectacle_index[action.spectacle]]
        total = _score(cat, prev, seat, spec, action.aquilas)
        assert after.coins == before.coins + total
        if st.phase == "over":  # the last performance of the game: G-9 follows at once
            return
        assert after.acclaim == max(before.acclaim, total)
        assert after.aquilas == before.aquilas - action.aquilas
        if total > before.acclaim:  # G-5.3: on top of any stack
            assert all(q.seq < after.seq for i, q in enumerate(st.players) if i != seat)
    elif isinstance(action, A.MoveNoble):
        dest = _walk(cat, prev.nobles, action.noble, action.steps)
        assert st.nobles[action.noble] == dest
        gained = 1 if dest in cat.aquila_spaces and _medals_left(cat, prev) != 0 else 0
        assert after.aquilas == before.aquilas + gained
    elif isinstance(action, A.AquilaMove):
        assert st.nobles[action.noble] == _walk(cat, prev.nobles, action.noble, action.steps)
        assert after.aquilas == before.aquilas - 1
    elif isinstance(
        action, (A.BuildGate, A.HirePromoter, A.BuildTemple, A.PlanSpectacle, A.BuySeasonTicket, A.BuildLoge)
    ):
        # G-2; O-13 to O-15: arena 10, season ticket 10, loge 5
        cost = {A.BuildGate: 10, A.HirePromoter: 7, A.BuildTemple: 7, A.BuySeasonTicket: 10, A.BuildLoge: 5}.get(
            type(action)
        )
        if cost is None:
            cost = cat.spectacles[cat.spectacle_index[action.spectacle]].cost
        assert after.coins == before.coins - cost
        assert after.aquilas == before.aquilas - (2 if action.extra == "aquilas" else 0)
    original = cat.rules.tie_break == "coins-dice"
    if prev.phase == "perform" and st.phase in ("closing", "over") and prev.gifts_left:
        # G-5.4: the furthest along, tie: the bottom marker, takes the gift; O-24: tie by coins
        # (then dice, not refereed here), in Phase 5 and never in the last round
        if original:
            assert (st.phase == "over") == (prev.round == cat.rounds)
            won = [i for i in range(st.n) if st.players[i].gifts > prev.players[i].gifts]
            if st.phase == "closing":
                top = max((q.acclaim, q.coins) for q in st.players)
                assert len(won) == 1 and (st.players[won[0]].acclaim, st.players[won[0]].coins) == top
            else:
                assert not won
        else:
            best = max(range(st.n), key=lambda i: (st.players[i].acclaim, -st.players[i].seq))
            assert st.players[best].gifts == prev.players[best].gifts + 1
    if (
        original
        and st.closing is not None
        and st.closing.stage == "steal"
        and (prev.closing is None or prev.closing.stage != "steal")
    ):
        # O-26: the lowest of the others (tie: fewest coins, then dice) takes from the podium
        victim = st.closing.victim
        assert victim == prev.closing.victim if prev.closing else True
        others = [i for i in range(st.n) if i != victim]
        low = min((st.players[i].acclaim, st.players[i].coins) for i in others)
        thief = st.players[st.closing.player]
        assert st.closing.player != victim and (thief.acclaim, thief.coins) == low
    elif (
        st.closing is not None
        and st.closing.stage == "steal"
        and (prev.closing is None or prev.closing.stage != "steal")
    ):
        least = min(range(st.n), key=lambda i: (st.players[i].acclaim, -st.players[i].seq))
        most = max(range(st.n), key=lambda i: (st.players[i].acclaim, -st.players[i].seq))
        assert (st.closing.player, st.closing.victim) == (least, most)
    if isinstance(action, (A.OpenAuction, A.Raise, A.PassBid)) and (st.hire is None or st.hire.auction is None):
        # G-3.5 / G-3.6: the auction just ended; the last bid won
        if isinstance(action, A.OpenAuction):
            winner, price, market = seat, action.bid, action.market
        elif isinstance(action, A.Raise):
            winner, price, market = seat, action.bid, prev.hire.auction.market
        else:
            auc = prev.hire.auction
            winner, price, market = auc.bidder, auc.high, auc.market
        w0, w1 = prev.players[winner], st.players[winner]
        lot = prev.markets[market]
        tiles_aq = sum(1 for k in lot if k == cat.aquila_tile)
        left = _medals_left(cat, prev)
        aq = tiles_aq if left is None else min(tiles_aq, left)  # O-2: a medal tile with no medal left
        sold = max(0, -(-(price - w0.coins) // 6))
        if not cat.rules.credit:  # O-18: coins only
            assert sold == 0
        assert w1.aquilas == w0.aquilas - sold + aq
        assert w1.coins == w0.coins + 6 * sold - price
        assert sum(w1.tiles) == sum(w0.tiles) + len(lot) - tiles_aq
        if ("auction-2007" in st.setup.options or cat.rules.one_win_per_phase) and st.phase == "hire":
            assert not w1.pillar, "A07-2: no pillar back until Phase 2 ends"


@PROPS
@given(n=st_.integers(3, 5), seed=st_.integers(0, 2**32), variant=VARIANTS)
def test_a_referee_agrees_with_every_transition(n, seed, variant):
    """Scores (G-5.3), noble walks and Aquila spaces (G-5.1, C-4), investment costs (G-2,
    C-3), gifts (G-5.4), thief and victim (G-6.2) and auction payments (G-3.5, G-3.6)
    recomputed independently of the engine for every action of random games."""
    name, options = variant
    st = new_game(GameSetup(players=tuple(f"P{i}" for i in range(n)), seed=seed, variant=name, options=options))
    bots = [RandomBot(seed * 3 + i) for i in range(n)]
    while st.phase != "over":
        action = bots[to_act(st)].act(st)
        prev = st
        st, _ = apply(st, action)
        referee(prev, action, st)
