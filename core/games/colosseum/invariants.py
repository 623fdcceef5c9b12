"""Invariants every reachable state satisfies.  Used by ``simulate --check`` and property tests.

``check(state, previous=None)`` returns a list of violations (empty when all hold).
"""

from __future__ import annotations

from colosseum.core.games.colosseum.components import load_catalog
from colosseum.core.games.colosseum.engine import NO_STAR, NOBODY
from colosseum.core.games.colosseum.model import State


def check(state: State, previous: State | None = None) -> list[str]:
    cat = load_catalog(state.setup.variant)
    out: list[str] = []
    nk = len(cat.tiles)
    # every tile accounted for: bag + markets + players + box (G-1, G-3, G-6)
    for k in range(nk):
        total = state.bag[k] + state.box[k] + sum(1 for t in state.aside if t == k)
        total += sum(1 for m in state.markets for t in m if t == k)
        total += sum(p.tiles[k] for p in state.players)
        if total != cat.counts[k]:
            out.append(f"tile {cat.codes[k]}: {total} accounted for, {cat.counts[k]} exist")
        if state.bag[k] < 0 or state.box[k] < 0:
            out.append(f"tile {cat.codes[k]}: negative count in bag or box")
    if any(len(m) > 3 for m in state.markets):
        out.append("a market holds more than 3 tiles")
    # G-3.5: a pillar stands only in a market emptied by its owner's win; without the 2007
    # option (A07-2) a missing pillar is always standing in a market.
    for i, owner in enumerate(state.pillars):
        if owner != NOBODY and (state.markets[i] or state.players[owner].pillar):
            out.append(f"market {i}: pillar of seat {owner} in a market that is not theirs to hold")
    if "auction-2007" not in state.setup.options and not cat.rules.one_win_per_phase:
        for seat, p in enumerate(state.players):
            if not p.pillar and seat not in state.pillars:
                out.append(f"{p.name}'s pillar is nowhere")
    # exactly the current phase has its turn record
    for name in ("invest", "hire", "trade", "perform", "closing"):
        if (getattr(state, name) is not None) != (state.phase == name):
            out.append(f"phase {state.phase} with a {name} turn record")
    for seat, p in enumerate(state.players):
        who = f"{p.name}"
        if p.coins < 0:
            out.append(f"{who} has {p.coins} coins")
        if p.aquilas < 0:
            out.append(f"{who} has {p.aquilas} Aquilas")
        if any(t < 0 for t in p.tiles):
            out.append(f"{who} holds a negative number of tiles")
        if p.tiles[cat.aquila_tile]:
            out.append(f"{who} holds an Aquila tile (G-3.6: it becomes a token at once)")
        # gates: at most 4, contiguous (each built next to another), distinct, owned by one player
        g = p.gates
        if len(g) > cat.common.gates or len(set(g)) != len(g):
            out.append(f"{who} has gates {g}")
        if g and state.phase != "setup" and not _contiguous(set(g), cat.track_spaces):
            out.append(f"{who}'s gates {g} are not adjacent")
        if p.acclaim < 0:
            out.append(f"{who}'s marker is at {p.acclaim}")
        if previous is not None:
            q = previous.players[seat]
            if p.acclaim < q.acclaim:
                out.append(f"{who}'s marker moved back from {q.acclaim} to {p.acclaim}")
        owned = (*p.face_down, *p.face_up) + ((p.arena,) if p.arena != NOBODY else ())
        if len(set(owned)) != len(owned):
            out.append(f"{who} owns a spectacle twice")
        if (p.arena == NOBODY) != (not p.arena_used):
            out.append(f"{who}: arena and matched tiles disagree")
    all_gates = [s for p in state.players for s in p.gates]
    if len(set(all_gates)) != len(all_gates):
        out.append("two gates share a space")
    # spectacles: each at most once among display and players
    specs = list(state.display)
    for p in state.players:
        specs += [*p.face_down, *p.face_up] + ([p.arena] if p.arena != NOBODY else [])
    if len(set(specs)) != len(specs):
        out.append("a spectacle is in two places")
    # nobles on the track; with G-5.1 skipping, never two on one space
    if not all(0 <= x < cat.track_spaces for x in state.nobles):
        out.append("a noble is off the track")
    if cat.rules.skip_occupied and len(set(state.nobles)) != len(state.nobles):
        out.append("two nobles share a space (G-5.1)")
    # G-7: Star Performers exactly where the rule puts them, checked statelessly:
    # the holder has >= 3 and nobody has more; if on the board, no single player has a
    # strict majority of >= 3 (a tie at the top keeps it where it was, so only these hold).
    for k in range(nk):
        h = state.stars[k]
        if k not in cat.star_types:
            if h != NO_STAR:
                out.append(f"{cat.codes[k]} has a Star Performer it should not")
            continue
        counts = [p.tiles[k] for p in state.players]
        m = max(counts)
        if h != NOBODY:
            if counts[h] < cat.common.star_minimum or counts[h] != m:
                out.append(f"G-7: {state.players[h].name} holds the {cat.codes[k]} star with {counts[h]} (max {m})")
        elif m >= cat.common.star_minimum and counts.count(m) == 1:
            out.append(f"G-7: the {cat.codes[k]} star is on the board but one player has {m}")
    if previous is not None and previous.setup == state.setup:
        # G-7 rule 1: a holder who still has the highest count (>= 3) keeps the star.
        for k in cat.star_types:
            h = previous.stars[k]
            if h >= 0 and state.stars[k] != h:
                counts = [p.tiles[k] for p in state.players]
                if counts[h] == max(counts) and counts[h] >= cat.common.star_minimum:
                    out.append(f"G-7: {state.players[h].name} lost the {cat.codes[k]} star on a tie")
        if state.round < previous.round or state.gifts_left > previous.gifts_left:
            out.append("the game went back in time")
    if state.promoters_left < 0 or state.gifts_left < 0:
        out.append("negative supply")
    promoters = sum(p.promoters for p in state.players) + state.promoters_left
    if promoters != cat.promoter_supply:
        out.append(f"{promoters} promoters accounted for")
    gifts = sum(p.gifts for p in state.players) + state.gifts_left
    if gifts != cat.rules.gifts:
        out.append(f"{gifts} gifts accounted for")
    if state.phase == "over":
        if state.result is None:
            out.append("the game is over without a result")
        if state.round != cat.rounds:
            out.append(f"the game ended in round {state.round}")
        elif state.result is not None:
            top = state.result.standings[0]
            tied = [s.seat for s in state.result.standings if s.rank == 1]
            if state.result.winner != top.seat or (len(tied) > 1) != bool(state.result.shared):
                out.append("the result's winners disagree with its standings")
    # O-2: 18 medals in the original; O-9: the aside holds starting tiles only
    limit = cat.rules.aquila_supply
    if limit and sum(p.aquilas for p in state.players) > limit:
        out.append(f"more than {limit} medals held")
    if any(cat.starting[k] == 0 for k in state.aside):
        out.append("a tile left aside is not a starting tile")
    if cat.rules.one_win_per_phase and state.phase == "hire":
        # O-17: a player who has won a lot this phase never bids again in it
        auc = state.hire.auction if state.hire else None
        if auc is not None and not state.players[auc.bidder].pillar:
            out.append(f"{state.players[auc.bidder].name} bids after winning a lot this phase")
    seqs = [p.seq for p in state.players]
    if len(set(seqs)) != len(seqs):
        out.append("two markers share a stack position")
    return out


def _contiguous(spaces: set[int], n: int) -> bool:
    if len(spaces) <= 1:
        return True
    # a contiguous arc of length L has exactly L-1 inner adjacencies (or L when it closes the ring)
    links = sum(1 for s in spaces if (s + 1) % n in spaces)
    return links >= len(spaces) - 1
