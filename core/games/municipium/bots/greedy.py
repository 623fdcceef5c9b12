"""The ``greedy`` Municipium bot: a one-step valuation of the public position.

Deterministic choices (moves, placements, keeps, pulls, takes, relocations, exchanges, power
uses) are valued by the position they lead to and the best is taken: most of them without
making that position (``_Valuation``: what they change of the valuation is plain), the others
tried with ``apply``.  What an option changes restates some of the engine's rules (who gains
influence where, the citizen event, a set exchanged: ``events.next_set``, the engine's own), so
``tests/municipium/test_muni_greedy_choices.py`` checks every such value against the position
``apply`` makes, exactly, in every position of random and greedy games: a rule changed in the
engine and not here fails there.  Choices whose outcome is chance (the common card, the Emporium and
Basilica draws, the family cards) are valued by rules of thumb instead, so the bot never profits
from the hidden deck order or bag contents.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence

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
    PlaceCitizen,
    PlaceMember,
    PlayFamily,
    Pull,
    Relocate,
    Take,
    UsePower,
)
from colosseum.core.games.municipium.board import add, led_by, ranking
from colosseum.core.games.municipium.catalog import load_catalog
from colosseum.core.games.municipium.engine import apply, target
from colosseum.core.games.municipium.events import next_set
from colosseum.core.games.municipium.model import CitizenEventFrame, Player, State
from colosseum.core.games.municipium.offers import legal
from colosseum.core.games.municipium.powers import TAVERN

# A prior for powers whose value only shows in the choices that follow.
POWER_BONUS = (0.0, 4.0, 0.0, 6.0, 12.0, 10.0, 3.0)


def _order(state: State) -> list[int]:
    """Each seat's Temple space (before the Temple order exists: the seat itself)."""
    order = list(range(len(state.players)))
    for space, s in enumerate(state.temple):
        order[s] = space
    return order


def _held_score(citizens: tuple[int, ...], favours: int, decurions: int) -> float:
    """The terms of a seat's score that what it holds makes: decurions, progress towards a set,
    citizens beyond the first of each kind, favours."""
    kinds = len(citizens) - citizens.count(0)
    progress = kinds + favours
    if progress > 4:
        progress = 4
    return 100.0 * decurions + 18.0 * progress + 4.0 * (sum(citizens) - kinds) + 3.0 * favours


def _own_scores(state: State, order: list[int]) -> list[float]:
    """The terms of each seat's score that are its own (all but the leaderships): what it holds
    (``_held_score``), Temple rank, crowns."""
    n = len(state.players)
    temple = bool(state.temple)
    out = []
    for s, p in enumerate(state.players):
        score = _held_score(p.citizens, p.favours, p.decurions)
        if temple:
            score += 2.0 * (n - order[s])
        out.append(score + 3.0 * sum(p.crowned))
    return out


_UNCROWNED = (0,) * 7


def _influence(state: State) -> list[list[int]]:
    """Each seat's influence per institution (M-4.1: a crowned member counts 2)."""
    out = []
    for p in state.players:
        crowned = p.crowned
        out.append(
            list(p.plain)
            if crowned == _UNCROWNED
            else list(map(operator.add, p.plain, map(operator.add, crowned, crowned)))
        )
    return out


def _leaders(infl: list[list[int]], order: list[int], i: int) -> tuple[int, int]:
    """The first and second seats at institution ``i`` (-1: none), in one pass, by a key in
    which more influence wins and, at equal influence, the better Temple space (M-4.2)."""
    first = second = -1
    first_key = second_key = 0
    for s, row in enumerate(infl):
        v = row[i]
        if v:
            key = v * 64 - order[s]  # (fewer than 64 seats)
            if key > first_key:
                second, second_key = first, first_key
                first, first_key = s, key
            elif key > second_key:
                second, second_key = s, key
    return first, second


def _all_leaders(infl: list[list[int]], order: list[int]) -> list[tuple[int, int]]:
    """``_leaders`` at every institution."""
    return [_leaders(infl, order, i) for i in range(7)]


def seat_scores(state: State) -> list[float]:
    """Each seat's score: decurions, progress towards a set, citizens and favours held,
    leaderships (weighted by the citizens waiting on their banners) and second places, Temple
    rank, crowns.  Every term is a whole number, so the sum is exact in any order.

    The playouts of the search call this for every option of most decisions: the ranking at
    each institution is found in one pass (``_leaders``)."""
    order = _order(state)
    return _scores(state, order, _all_leaders(_influence(state), order), _bonus(state))


def _bonus(state: State) -> list[float]:
    """What leading each institution is worth: 7, and 2 a citizen waiting on its banner."""
    return [7.0 + 2.0 * sum(b) for b in state.banners]


def _scores(state: State, order: list[int], leaders: list[tuple[int, int]], bonus: list[float]) -> list[float]:
    """Every seat's score: its own terms (``_own_scores``), each institution's ``bonus`` to its
    first and 2 to its second (``leaders``)."""
    scores = _own_scores(state, order)
    for i, (first, second) in enumerate(leaders):
        if first >= 0:
            scores[first] += bonus[i]
            if second >= 0:
                scores[second] += 2.0
    return scores


def player_score(state: State, seat: int) -> float:
    return seat_scores(state)[seat]


def _against(scores: list[float], seat: int) -> float:
    """The seat's score against its strongest opponent."""
    best = scores[1] if seat == 0 else scores[0]
    for s, x in enumerate(scores):
        if x > best and s != seat:
            best = x
    return scores[seat] - 0.7 * best


def value(state: State, seat: int) -> float:
    """The seat's score against its strongest opponent."""
    return _against(seat_scores(state), seat)


#: (institution, change of influence) pairs, no institution twice
Changes = tuple[tuple[int, int], ...]
#: what an option changes of the valuation, where it can be told without the position after it
#: (``_Valuation.effect``): whose influence changes, where and by how much; (seat, change) pairs
#: of the scores besides (whole numbers); and a rule of thumb's bonus added to the value after
Effect = tuple[int, Changes, tuple[tuple[int, float], ...], float]
_SAME: Effect = (-1, (), (), 0.0)
#: the powers that only put a frame on the stack (the Tavern's, the Emporium's, the Basilica's,
#: the Forum's, the Praetorium's): the position after is valued as the position now
_FRAME_POWERS = (1, 3, 4, 5, 6)


def _move_changes(a: Move) -> Changes:
    """The influence a move changes (M-5.1), where its paths leave and arrive."""
    paths = a.paths
    p = paths[0]
    w = 2 if p.crowned else 1
    if len(paths) == 1:
        return ((p.frm, -w), (p.to, w))
    if len(paths) == 2:
        q = paths[1]
        u = 2 if q.crowned else 1
        pf, pt, qf, qt = p.frm, p.to, q.frm, q.to
        if pf != qf and pf != qt and pt != qf and pt != qt:
            return ((pf, -w), (pt, w), (qf, -u), (qt, u))
    net: dict[int, int] = {}  # (paths through one institution: their net change there)
    for path in paths:
        w = 2 if path.crowned else 1
        net[path.frm] = net.get(path.frm, 0) - w
        net[path.to] = net.get(path.to, 0) + w
    return tuple(net.items())


def _gain(p: Player, citizens: tuple[int, ...]) -> float:
    """The change of ``p``'s held score when it comes to hold ``citizens`` (and exchanges the
    complete sets they make, M-9.2)."""
    favours, decurions = p.favours, p.decurions
    while (found := next_set(citizens, favours)) is not None:
        citizens, used = found
        favours -= used
        decurions += 1
    return _held_score(citizens, favours, decurions) - _held_score(p.citizens, p.favours, p.decurions)


class _Valuation:
    """A position's valuation for ``seat``, and its valuation after an option without the
    position after it, where what the option changes of the valuation is plain (``effect``):
    the leaderships of the institutions where the influence changes are found again (once for
    each new influence there), the scores that change are changed, the rest stays.  The same
    whole-number terms as ``seat_scores`` of the position after, so the same scores exactly."""

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.order = order = _order(state)
        self.infl = infl = _influence(state)
        self.bonus = _bonus(state)
        self.leaders = _all_leaders(infl, order)
        self.scores = scores = _scores(state, order, self.leaders, self.bonus)
        self.now = _against(scores, seat)
        #: (a seat's new influence at an institution, as one number) -> what changes of the scores
        self.memo: dict[int, list[tuple[int, float]]] = {}

    def effect(self, a: MuniAction) -> Effect | None:
        """What ``a`` (a legal option) changes of the valuation, where that is plain without the
        position after it; None for the options valued by the position after them (the Temple's
        and the Baths' powers, the governor's event, the last placement, which orders the Temple).

        * members moved: a move (M-5.1), a relocation (M-6.4) or a pull (M-8.1), or a member
          placed (M-3.2): one seat's influence changes, nothing else that counts (the crowns
          held, the Temple order, citizens, favours, banners);
        * citizens and favours change hands: a citizen placed (its banner's weight, or the
          citizen event it makes, M-7.2), kept (M-7.2) or taken (M-8.5), a hand-in at the
          Basilica (M-8.4), each with the sets exchanged at once (M-9.2);
        * nothing that counts: a pass, a power that puts its frame on the stack, Great Family's
          rearrangement (and the Basilica's draw, valued by a rule of thumb: +12).

        What follows these in the turn (the card's next steps: offers, draws, the frames that
        end with nothing to do, the end of the turn) changes nothing that counts either."""
        if isinstance(a, Move):
            return a.player, _move_changes(a), (), 0.0
        if isinstance(a, Relocate):
            w = 2 if a.crowned else 1
            return a.player, ((a.frm, -w), (a.to, w)), (), 0.0
        if isinstance(a, Pass):
            return _SAME
        if isinstance(a, PlaceCitizen):
            return self._placed(a)
        if isinstance(a, Take):
            return self._taken(a)
        if isinstance(a, Pull):
            w = a.plain + 2 * a.crowned
            return a.owner, ((a.frm, -w), (TAVERN, w)), (), 0.0
        if isinstance(a, UsePower):
            return (-1, (), (), POWER_BONUS[a.institution]) if a.institution in _FRAME_POWERS else None
        if isinstance(a, PlaceMember):
            state = self.state
            if state.placed + 1 >= load_catalog().counts.members * len(state.players):
                return None  # (the last placement: the Temple order)
            return a.player, ((a.institution, 1),), (), 0.0
        if isinstance(a, Exchange):
            p = self.state.players[a.player]
            citizens = tuple(h - x for h, x in zip(p.citizens, a.citizens, strict=True))
            held = _held_score(citizens, p.favours - a.favours, p.decurions + 1)
            return -1, (), ((a.player, held - _held_score(p.citizens, p.favours, p.decurions)),), 0.0
        if isinstance(a, KeepCitizens):
            top = self.state.stack[-1]
            assert isinstance(top, CitizenEventFrame)
            banner = self.state.banners[top.institution]
            return self._event(top.institution, banner, load_catalog().kind_index[a.leave], sum(banner))
        if isinstance(a, BasilicaDraw):
            return -1, (), (), 12.0
        if isinstance(a, GreatFamilyOption) and a.option == "rearrange":
            return _SAME
        return None

    def _placed(self, a: PlaceCitizen) -> Effect | None:
        inst = a.institution
        banner = self.state.banners[inst]
        first = self.leaders[inst][0]
        if first < 0:
            return _SAME  # (nobody there: no weight, and the event sends the citizens back)
        weight = sum(banner)
        if weight < 2:
            return -1, (), ((first, 2.0),), 0.0
        if weight > 2:
            return None
        full = add(banner, load_catalog().kind_index[a.kind], 1)
        kinds = [k for k, c in enumerate(full) if c]
        if len(kinds) > 1:  # the first player there chooses what to leave: a weight of 3 meanwhile
            return -1, (), ((first, 2.0),), 0.0
        return self._event(inst, full, kinds[0], weight)

    def _event(self, inst: int, banner: tuple[int, ...], leave: int, weight: int) -> Effect:
        """The citizen event at ``inst`` on ``banner``, the first player leaving ``leave``
        (M-10.4); ``weight``: the citizens on the banner now."""
        players = self.state.players
        first, second = self.leaders[inst]
        p = players[first]
        kept = tuple(a + b for a, b in zip(p.citizens, add(banner, leave, -1), strict=True))
        adds = [(first, _gain(p, kept) - 2.0 * weight)]  # (the banner is emptied)
        if second >= 0:
            q = players[second]
            adds.append((second, _gain(q, add(q.citizens, leave, 1))))
        return -1, (), tuple(adds), 0.0

    def _taken(self, a: Take) -> Effect:
        players = self.state.players
        k = load_catalog().kind_index[a.kind]
        adds: list[tuple[int, float]] = []
        if a.seat >= 0:
            q = players[a.seat]
            citizens = add(q.citizens, k, -1)
            adds.append(
                (
                    a.seat,
                    _held_score(citizens, q.favours, q.decurions) - _held_score(q.citizens, q.favours, q.decurions),
                )
            )
        else:
            first = self.leaders[a.institution][0]
            if first >= 0:
                adds.append((first, -2.0))
        p = players[a.player]
        adds.append((a.player, _gain(p, add(p.citizens, k, 1))))
        return -1, (), tuple(adds), 0.0

    def value(self, effect: Effect) -> float:
        """``value`` for ``seat`` of the position after an option of this ``effect``."""
        who, changes, adds, bonus = effect
        scores: list[float] | None = None
        if changes:
            row = self.infl[who]
            memo = self.memo
            for i, d in changes:
                v = row[i] + d
                key = (v * 8 + i) * 8 + who  # (one number: i and who are below 8)
                found = memo.get(key)
                if found is None:
                    found = memo[key] = self._change(who, i, v)
                if found:
                    if scores is None:
                        scores = list(self.scores)
                    for s, x in found:
                        scores[s] += x
        if adds:
            if scores is None:
                scores = list(self.scores)
            for s, x in adds:
                scores[s] += x
        found_value = self.now if scores is None else _against(scores, self.seat)
        return found_value + bonus if bonus else found_value

    def _change(self, seat: int, i: int, v: int) -> list[tuple[int, float]]:
        """What changes of the scores when ``seat``'s influence at ``i`` becomes ``v``."""
        infl = list(self.infl)
        infl[seat] = list(infl[seat])
        infl[seat][i] = v
        old = self.leaders[i]
        new = _leaders(infl, self.order, i)
        if new == old:
            return []
        out: list[tuple[int, float]] = []
        for (first, second), sign in ((old, -1.0), (new, 1.0)):
            if first >= 0:
                out.append((first, sign * self.bonus[i]))
                if second >= 0:
                    out.append((second, sign * 2.0))
        return out


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def fork(self) -> GreedyBot:
        """A twin that makes the choices this bot would make from now on (its generator's
        state), without touching this one: the search's ``twin_of`` copies the attributes of a
        bot without ``fork``, which a compiled class (the mypyc build) has no ``vars()`` of."""
        twin = GreedyBot()
        twin.rng.setstate(self.rng.getstate())
        return twin

    def act(self, state: State) -> MuniAction:
        options = legal(state)
        seat = options[0].player
        if isinstance(options[0], DrawCommon):
            return self.card_choice(state, seat, options)
        if isinstance(options[0], EmporiumDraw):  # (``legal`` offers the Emporium's draw first)
            return options[0]
        best: list[MuniAction] = []
        best_v = float("-inf")
        for a, v in zip(options, self.values(state, seat, options), strict=True):
            if v > best_v + 1e-9:
                best, best_v = [a], v
            elif abs(v - best_v) <= 1e-9:
                best.append(a)
        return self.rng.choice(best)

    def values(self, state: State, seat: int, options: Sequence[MuniAction]) -> list[float]:
        """The value of each option for ``seat``: the position after it (a deterministic
        choice), or a rule of thumb (a draw).  Where what an option changes of the valuation is
        plain (most options), without making the position after it (``_Valuation.effect``)."""
        out = []
        shifted = _Valuation(state, seat)
        for a in options:
            effect = shifted.effect(a)
            if effect is not None:
                v = shifted.value(effect)
            else:
                after, _ = apply(state, a)
                v = value(after, seat)
                if isinstance(a, UsePower):
                    v += POWER_BONUS[a.institution]
            out.append(v)
        return out

    def ranked(self, state: State) -> list[MuniAction]:
        """Every legal option, best first by the values ``act`` compares (the card and the
        Emporium's choices, decided by rules of thumb, in the order offered)."""
        options = legal(state)
        if not options or isinstance(options[0], (DrawCommon, EmporiumDraw)):
            return list(options)
        vals = self.values(state, options[0].player, options)
        order = sorted(range(len(options)), key=lambda i: -vals[i])
        return [options[i] for i in order]

    def card_choice(self, state: State, seat: int, options: tuple[MuniAction, ...]) -> MuniAction:
        cat = load_catalog()
        p = state.players[seat]
        led = led_by(state, seat)
        late = max(q.decurions for q in state.players) >= target(state) - 1
        scores: dict[str, float] = {}
        for card in p.family:
            if card == "your_powers":
                scores[card] = len(led) + (2 if 4 in led or 5 in led else 0)
            elif card == "great_family":
                g = cat.route[state.governor]
                r = ranking(state, g)
                scores[card] = 4.0 if r and r[0] == seat and state.favour_spaces[g] else 1.0
            else:
                ready = sum(1 for i in led if sum(state.banners[i]) == 2)
                scores[card] = 1.0 + 1.5 * ready
        threshold = 2.0 if late else 4.0
        choice = max(scores, key=lambda c: scores[c], default="")
        if choice and scores[choice] >= threshold:
            return next(a for a in options if isinstance(a, PlayFamily) and a.card == choice)
        return options[0]
