"""Position builders for the Municipium tests (a unique module name: test helpers are imported
by basename).

``board(n, members={seat: {inst: count}}, ...)`` gives a state after initial placement with
exactly the members given (tests that check rules in isolation need not place all 7); ``play``
applies actions in order.  Institutions: 0 Temple, 1 Tavern, 2 Baths, 3 Emporium, 4 Basilica,
5 Forum, 6 Praetorium.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from colosseum.core.events import Event
from colosseum.core.games.municipium import MuniSetup, apply, new_game
from colosseum.core.games.municipium.actions import DrawCommon, MuniAction, Pass
from colosseum.core.games.municipium.model import State

TEMPLE, TAVERN, BATHS, EMPORIUM, BASILICA, FORUM, PRAETORIUM = range(7)
PRIEST, SOLDIER, MERCHANT, ADVOCATE = range(4)
NAMES = ("A", "B", "C", "D")


def setup(n: int = 3, seed: int = 1, options: tuple[str, ...] = ()) -> MuniSetup:
    return MuniSetup(players=NAMES[:n], seed=seed, options=options)


def board(
    n: int = 3,
    members: dict[int, dict[int, int]] | None = None,
    crowned: dict[int, dict[int, int]] | None = None,
    temple: tuple[int, ...] | None = None,
    active: int = 0,
    seed: int = 1,
    options: tuple[str, ...] = (),
    phase: str = "move",
) -> State:
    st = new_game(setup(n, seed, options))
    players = []
    for s, p in enumerate(st.players):
        plain = tuple((members or {}).get(s, {}).get(i, 0) for i in range(7))
        crown = tuple((crowned or {}).get(s, {}).get(i, 0) for i in range(7))
        players.append(replace(p, plain=plain, crowned=crown))
    wreaths = st.wreaths - sum(sum(p.crowned) for p in players)
    return replace(
        st,
        players=tuple(players),
        temple=temple if temple is not None else tuple(range(n)),
        phase=phase,  # type: ignore[arg-type]
        active=active,
        start=0,
        turn=1,
        placed=7 * n,
        stack=(),
        held=(0, 0, 0, 0),
        wreaths=wreaths,
    )


def set_player(st: State, seat: int, **changes: Any) -> State:
    players = list(st.players)
    players[seat] = replace(players[seat], **changes)
    return replace(st, players=tuple(players))


def banners(st: State, **by_inst: tuple[int, ...]) -> State:
    """Set banners, e.g. ``banners(st, tavern=(0, 2, 0, 0))``; the citizens come out of the bag."""
    names = ("temple", "tavern", "baths", "emporium", "basilica", "forum", "praetorium")
    b = list(st.banners)
    bag = list(st.bag)
    for name, counts in by_inst.items():
        i = names.index(name)
        for k in range(4):
            bag[k] += b[i][k] - counts[k]
        b[i] = counts
    return replace(st, banners=tuple(b), bag=tuple(bag))


def only_in_bag(st: State, kind: int, count: int = 1) -> State:
    """Make the next draws certain: the bag holds only ``count`` of ``kind`` (accounting ignored)."""
    bag = [0, 0, 0, 0]
    bag[kind] = count
    return replace(st, bag=tuple(bag))


def deck(st: State, *cards: str) -> State:
    """Put ``cards`` on top of the common deck (taken from the deck, else from the discard)."""
    rest = list(st.deck)
    discard = list(st.discard)
    for c in cards:
        if c in rest:
            rest.remove(c)
        else:
            discard.remove(c)
    return replace(st, deck=(*cards, *rest), discard=tuple(discard))


def play(st: State, *actions: MuniAction) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for a in actions:
        st, ev = apply(st, a)
        events.extend(ev)
    return st, events


def draw_card(st: State, card: str) -> tuple[State, list[Event]]:
    """The active player passes the move and turns over ``card`` (placed on top)."""
    st = deck(st, card)
    return play(st, Pass(player=st.active), DrawCommon(player=st.active))


def texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)
