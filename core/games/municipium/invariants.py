"""Invariants every reachable Municipium state satisfies (property tests, ``play_game(check=True)``).

``check(state, previous=None)`` returns the list of violations, empty when all hold.
"""

from __future__ import annotations

from collections import Counter

from colosseum.core.games.municipium.catalog import load_catalog
from colosseum.core.games.municipium.model import NO_KIND, CardFrame, CitizenEventFrame, State


def check(state: State, previous: State | None = None) -> list[str]:
    cat = load_catalog()
    out: list[str] = []
    n = state.n
    # 60 citizens: bag + banners + chambers + players + held for placement (components file)
    for k in range(4):
        total = state.bag[k] + state.held[k]
        total += sum(b[k] for b in state.banners)
        total += sum(1 for c in state.chamber if c == k)
        total += sum(p.citizens[k] for p in state.players)
        if total != cat.kind_total[k]:
            out.append(f"{cat.kinds[k].id}: {total} accounted for, {cat.kind_total[k]} exist")
    if min(state.bag) < 0 or min(state.held) < 0 or any(min(b) < 0 for b in state.banners):
        out.append("a negative citizen count")
    # 15 favours, 10 wreaths
    favours = state.favour_supply + sum(state.favour_spaces) + sum(p.favours for p in state.players)
    if favours != cat.counts.favours or state.favour_supply < 0:
        out.append(f"favours: {favours} accounted for, {cat.counts.favours} exist")
    if state.favour_spaces[0]:
        out.append("the Temple has no favour space")
    wreaths = state.wreaths + sum(sum(p.crowned) for p in state.players)
    if wreaths != cat.counts.wreaths or state.wreaths < 0:
        out.append(f"wreaths: {wreaths} accounted for, {cat.counts.wreaths} exist")
    # 12 common cards: deck + discard + the card in play
    common = Counter(state.deck) + Counter(state.discard)
    if state.in_play and cat.cards[state.in_play].deck == "common":
        common[state.in_play] += 1
    if common != Counter(cat.common_deck):
        out.append(f"common cards: {sorted(common.elements())} is not the common deck")
    # members: 7 per family once placed; family cards face up + face down + in play = 3
    for s, p in enumerate(state.players):
        on_board = sum(p.plain) + sum(p.crowned)
        if state.phase != "place" and on_board != cat.counts.members:
            out.append(f"{p.name} has {on_board} members on the board")
        if state.phase == "place" and on_board > cat.counts.members:
            out.append(f"{p.name} placed more than {cat.counts.members} members")
        if min(p.plain) < 0 or min(p.crowned) < 0 or min(p.citizens) < 0 or p.favours < 0:
            out.append(f"{p.name} has a negative count")
        playing = 1 if state.in_play in cat.family_cards and state.stack and state.stack[0].player == s else 0
        if sorted((*p.family, *p.spent, *([state.in_play] * playing))) != sorted(cat.family_cards):
            out.append(f"{p.name}'s family cards do not add up")
        # M-9.2: a complete set never stays in a hand
        if p.favours >= sum(1 for c in p.citizens if c == 0):
            out.append(f"{p.name} holds a complete set")
        if previous is not None and p.decurions < previous.players[s].decurions:
            out.append(f"{p.name} lost a decurion (M-9.4)")
    # the Temple order is a permutation once set (M-3.3)
    if state.phase != "place" and sorted(state.temple) != list(range(n)):
        out.append(f"Temple order {state.temple} is not a permutation of the seats")
    # banners: at most 2 at rest; 3 only where a citizen event waits (M-7.2)
    waiting = {f.institution for f in state.stack if isinstance(f, CitizenEventFrame)}
    for i, b in enumerate(state.banners):
        limit = 3 if i in waiting else 2
        if sum(b) > limit:
            out.append(f"banner {i} holds {sum(b)} citizens")
    # chambers (M-2.5, M-13.2): none with 2 players, never on the Temple
    if n < 3 and any(c != NO_KIND for c in state.chamber):
        out.append("chamber citizens in a 2-player game")
    if state.chamber[0] != NO_KIND:
        out.append("the Temple has no chamber")
    if "single-chamber" in state.setup.options and sum(1 for c in state.chamber if c != NO_KIND) > 1:
        out.append("more than one chamber citizen in the single-chamber option")
    if state.governor not in cat.chambers:
        out.append("the governor is not on a governor space")
    # the stack: a card frame only at the bottom, and only in the card phase
    for depth, f in enumerate(state.stack):
        if isinstance(f, CardFrame) and (depth != 0 or state.phase != "card"):
            out.append(f"card frame at depth {depth} in phase {state.phase}")
    if state.phase == "card" and state.stack and not isinstance(state.stack[0], CardFrame):
        out.append("pending work in the card phase without a card")
    if bool(state.in_play) != (state.phase == "card" and bool(state.stack)):
        out.append("a card is in play exactly while its frames run")
    if (state.phase == "over") != (state.result is not None):
        out.append("a result exists exactly when the game is over")
    if state.phase == "over" and state.stack:
        out.append("the game ended with pending work")
    return out
