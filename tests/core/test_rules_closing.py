"""G-6 Phase 5: Closing Ceremonies, and G-9 End of game."""

from __future__ import annotations

from builders import (
    assert_illegal,
    assert_ok,
    code_index,
    give_spectacle,
    play,
    set_player,
    set_tiles,
    skip_to,
    spec_id,
    start,
    texts,
)
from msgspec.structs import replace

from colosseum.core.games.colosseum import legal, rank, to_act
from colosseum.core.games.colosseum.actions import (
    ChooseDice,
    ChooseFirstPlayer,
    EndTurn,
    MoveNoble,
    Perform,
    Retire,
    Roll,
    Steal,
)
from colosseum.core.games.colosseum.engine import NOBODY

BECKY, KAT, LAURA = 0, 1, 2


def perform_amphitryon(st, seat):
    """``seat`` rolls, moves a noble by the sum, performs Amphitryon."""
    st, _ = play(st, Roll(player=seat), ChooseDice(player=seat, mode="sum"))
    steps = sum(st.perform.dice)
    st, _ = play(st, MoveNoble(player=seat, noble=5, die=-1, steps=steps))
    st, _ = play(st, Perform(player=seat, spectacle="amphitryon"))
    return st


def closing_start(acclaims=(10, 5, 0)):
    """Round 1, Phase 4: Becky (2 comedians, a balatro, 1 gladiator) performs Amphitryon
    (2Co 1D) using the balatro for the decorator; the others skip."""
    st = skip_to(start(3, seed=6, first=BECKY), "perform")
    st = give_spectacle(st, BECKY, "amphitryon")
    st = set_tiles(st, BECKY, {"Co": 2, "Bal": 1, "G": 1})
    st = set_tiles(st, KAT, {"H": 3, "M": 1})
    st = set_tiles(st, LAURA, {"S": 1})
    for seat, a in enumerate(acclaims):
        st = set_player(st, seat, acclaim=a)
    st = perform_amphitryon(st, BECKY)
    st, _ = play(st, EndTurn(player=KAT), EndTurn(player=LAURA))
    return st


def test_g6_retire_a_matched_tile_including_a_balatro_then_face_up():
    """G-6.1: a player who performed retires 1 tile used in the spectacle (a balatro used as
    a wild counts) to the box; the spectacle goes face up."""
    st = closing_start()
    assert st.phase == "closing" and st.closing.stage == "retire" and to_act(st) == BECKY
    assert {a.tile for a in legal(st).actions} == {"Co", "Bal"}
    assert_illegal(st, Retire(player=BECKY, tile="G"), "G-6.1")  # not used in the spectacle
    assert_illegal(st, EndTurn(player=BECKY), "G-6")  # cannot be skipped
    bal = code_index(st, "Bal")
    box = st.box[bal]
    st2, ev = play(st, Retire(player=BECKY, tile="Bal"))
    p = st2.players[BECKY]
    assert p.tiles[bal] == 0 and st2.box[bal] == box + 1
    assert spec_id(st, "amphitryon") in p.face_up and p.arena == NOBODY
    assert_ok(st2, st)


def test_g6_steal_least_from_most_then_least_chooses_first_player():
    """G-6.2 / G-6.3: the least acclaimed steals a tile of any type (balatro too) from the
    most acclaimed, then chooses next round's first player (themselves allowed)."""
    st = closing_start(acclaims=(0, 5, 1))  # Becky scores above 5 and is most acclaimed
    st, _ = play(st, Retire(player=BECKY, tile="Co"))
    assert st.closing.stage == "steal" and to_act(st) == LAURA and st.closing.victim == BECKY
    assert {a.tile for a in legal(st).actions if isinstance(a, Steal)} == {"Co", "Bal", "G"}
    assert_illegal(st, Steal(player=LAURA, tile="H"), "G-6.2")
    st, ev = play(st, Steal(player=LAURA, tile="Bal"))
    assert st.players[LAURA].tiles[code_index(st, "Bal")] == 1
    assert st.closing.stage == "first" and to_act(st) == LAURA
    assert [a.first for a in legal(st).actions] == [0, 1, 2]
    st, ev = play(st, ChooseFirstPlayer(player=LAURA, first=LAURA))
    assert st.round == 2 and st.phase == "invest" and st.first == LAURA and to_act(st) == LAURA
    assert_ok(st)


def test_d8_steal_may_be_declined():
    st = closing_start(acclaims=(0, 5, 1))
    st, _ = play(st, Retire(player=BECKY, tile="Co"))
    st, ev = play(st, EndTurn(player=LAURA))
    assert st.closing.stage == "first" and "steals nothing" in texts(ev)


def test_g6_ties_least_is_top_of_stack_most_is_bottom():
    """G-6.2: tie for least: the top marker; tie for most: the bottom marker."""
    st = closing_start(acclaims=(0, 0, 0))
    st, _ = play(st, Retire(player=BECKY, tile="Co"))
    # Becky scored; Kat and Laura both at 0: Kat's seq 1, Laura's 2 -> Laura is on top
    assert st.players[KAT].seq < st.players[LAURA].seq
    assert to_act(st) == LAURA
    # most acclaimed tie: put Kat on Becky's space, below her
    st = closing_start(acclaims=(0, 0, 0))
    score = st.players[BECKY].acclaim
    st = set_player(st, KAT, acclaim=score, seq=-1)
    st, _ = play(st, Retire(player=BECKY, tile="Co"))
    assert st.closing.victim == KAT and to_act(st) == LAURA


def test_g6_nothing_to_steal():
    st = closing_start(acclaims=(0, 50, 1))  # Kat is most acclaimed
    st = set_tiles(st, KAT, {})
    st, ev = play(st, Retire(player=BECKY, tile="Co"))
    assert st.closing.stage == "first" and "has no performer" in texts(ev)


def test_g6_retire_in_turn_order_only_those_who_performed():
    st = skip_to(start(3, seed=6, first=KAT), "perform")
    for seat in (KAT, LAURA):
        st = give_spectacle(st, seat, "amphitryon" if seat == KAT else "ode-to-aurora")
    st = set_tiles(st, KAT, {"Co": 1})
    st = set_tiles(st, LAURA, {"M": 1})
    st = perform_amphitryon(st, KAT)
    st, _ = play(st, Roll(player=LAURA), ChooseDice(player=LAURA, mode="sum"))
    st, _ = play(st, MoveNoble(player=LAURA, noble=5, die=-1, steps=sum(st.perform.dice)))
    st, _ = play(st, Perform(player=LAURA, spectacle="ode-to-aurora"), EndTurn(player=BECKY))
    assert st.phase == "closing" and to_act(st) == KAT
    st, _ = play(st, Retire(player=KAT, tile="Co"))
    assert to_act(st) == LAURA and st.closing.stage == "retire"
    st, _ = play(st, Retire(player=LAURA, tile="M"))
    assert st.closing.stage in ("steal", "first")


# ---------------------------------------------------------------------------- G-9


def last_round(acclaims, aquilas, coins=(10, 10, 10), seqs=(0, 1, 2)):
    st = skip_to(start(3, seed=8, first=BECKY), "perform")
    st = replace(st, round=4, gifts_left=0)
    st = set_player(st, KAT, gifts=3)
    for seat in range(3):
        st = set_player(st, seat, acclaim=acclaims[seat], aquilas=aquilas[seat], coins=coins[seat], seq=seqs[seat])
    return replace(st, next_seq=3)


def end(st):
    while st.phase != "over":
        st, ev = play(st, EndTurn(player=to_act(st)))
    return st, ev


def test_g9_aquilas_plus_3_each_in_turn_order_onto_top_of_stack():
    """G-9: after the last Perform phase, in turn order, Aquilas give +3 Acclaim each and the
    marker goes on top of any stack."""
    st = last_round(acclaims=(20, 23, 26), aquilas=(2, 1, 0))
    st, ev = end(st)
    b, k, la = st.players
    assert (b.acclaim, k.acclaim, la.acclaim) == (26, 26, 26)
    assert b.aquilas == k.aquilas == 0
    # Laura was there first, then Becky arrived, then Kat: Laura bottom, Kat top
    assert la.seq < b.seq < k.seq
    assert st.result.winner == LAURA, "tie on Acclaim and coins and stars: bottom marker"
    assert [s.decided_by for s in st.result.standings] == ["stack", "stack", ""]
    assert "Becky returns 2 Aquilas for 6 Acclaim: 20 to 26" in texts(ev)
    assert_ok(st)


def test_g9_ties_broken_by_coins_then_stars_then_bottom_of_stack():
    st = last_round(acclaims=(30, 30, 29), aquilas=(0, 0, 0), coins=(5, 9, 50))
    st, _ = end(st)
    assert st.result.winner == KAT and st.result.standings[0].decided_by == "coins"
    assert [s.seat for s in st.result.standings] == [KAT, BECKY, LAURA]
    st = last_round(acclaims=(30, 30, 29), aquilas=(0, 0, 0), coins=(9, 9, 50), seqs=(1, 0, 2))
    st = set_tiles(st, BECKY, {"G": 3})
    assert st.stars[code_index(st, "G")] == BECKY
    st, _ = end(st)
    assert st.result.winner == BECKY and st.result.standings[0].decided_by == "stars"
    st = last_round(acclaims=(30, 30, 29), aquilas=(0, 0, 0), coins=(9, 9, 50), seqs=(1, 0, 2))
    st, _ = end(st)
    assert st.result.winner == KAT and st.result.standings[0].decided_by == "stack"


def test_g9_game_over_refuses_actions():
    st, _ = end(last_round(acclaims=(1, 2, 3), aquilas=(0, 0, 0)))
    assert to_act(st) == NOBODY and legal(st).actions == ()
    assert_illegal(st, EndTurn(player=0), "G-9")
    assert rank(st) == st.result
