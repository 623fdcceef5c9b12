"""G-5 Phase 4: move nobles (G-5.1), choose (G-5.2) and perform a spectacle (G-5.3), gifts
(G-5.4), with the rulebook's worked examples."""

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
    start,
    texts,
    with_dice,
)
from msgspec.structs import replace

from colosseum.core.games.colosseum import breakdown, legal, performable, spectacle_by_key, to_act, why_not_performable
from colosseum.core.games.colosseum.actions import AquilaMove, ChooseDice, EndTurn, MoveNoble, Perform, Roll
from colosseum.core.games.colosseum.components import load_catalog

BECKY, KAT, LAURA = 0, 1, 2
EMPEROR, CONSUL1, CONSUL2, SENATOR1, SENATOR2, SENATOR3 = range(6)


def perform_start(first=BECKY, n=3):
    """Phase 4 of round 1, ``first`` to roll; gates Becky 21-22, Kat 8-9, Laura 32-33."""
    st = skip_to(start(n, seed=3, first=first), "perform")
    gates = {BECKY: (21, 22), KAT: (8, 9), LAURA: (32, 33)}
    for seat in range(n):
        st = set_player(st, seat, gates=gates.get(seat, (2 + 3 * seat, 3 + 3 * seat)), aquilas=0)
    return st


# ---------------------------------------------------------------------------- G-5.3 example


def becky_example():
    """Becky: Ships of Triton (face down), Amphitryon (performed last round, face up),
    Satyricon of Momus (face down); 4 comedians, 1 priest, 1 fire eater, 1 decorator and the
    comedian Star Performer; 3 gates (32-34), the Temple; marker at 7."""
    st = perform_start()
    st = set_player(st, BECKY, gates=(32, 33, 34), temple=True, acclaim=7, face_down=(), face_up=())
    st = set_player(st, LAURA, gates=(21, 22))
    for key, up in (("ships-of-triton", False), ("amphitryon", True), ("satyricon-of-momus", False)):
        st = give_spectacle(st, BECKY, key, face_up=up)
    st = set_tiles(st, BECKY, {"Co": 4, "P": 1, "FE": 1, "D": 1})
    for seat in (KAT, LAURA):
        st = set_tiles(st, seat, {"G": 2, "H": 1})
    co = code_index(st, "Co")
    assert st.stars[co] == BECKY
    # A consul 3 spaces (a senator at 30 skipped) before her gate 33; a senator 2 spaces
    # before the Aquila space 19.
    st = replace(st, nobles=(0, 12, 29, 6, 17, 30))
    return assert_ok(st)


def test_g53_becky_worked_example_26_acclaim():
    """G-5.3 worked example: 9 + 5 + 4 + 5 + 0 + 0 + 3 = 26; marker 7 -> 26; +26 coins."""
    st = with_dice(becky_example(), 3, 3)
    coins = st.players[BECKY].coins
    st, ev = play(st, Roll(player=BECKY))
    assert st.perform.dice == (3, 3)
    st, _ = play(st, ChooseDice(player=BECKY, mode="split"))
    # Temple of Fortuna: each die counts 1 up to its face.
    st, ev = play(st, MoveNoble(player=BECKY, noble=CONSUL2, die=1, steps=3))
    assert st.nobles[CONSUL2] == 33, "the senator on 30 is skipped and not counted"
    st, ev = play(st, MoveNoble(player=BECKY, noble=SENATOR2, die=0, steps=2))
    assert st.nobles[SENATOR2] == 19
    assert st.players[BECKY].aquilas == 1 and "takes an Aquila" in texts(ev)
    # Choosing: Ships of Triton has no performer she owns; Amphitryon and Satyricon are open.
    cat = load_catalog("grand")
    assert why_not_performable(st, BECKY, spectacle_by_key(cat, "ships-of-triton")) is not None
    performs = {a.spectacle for a in legal(st).actions if isinstance(a, Perform)}
    assert performs == {"amphitryon", "satyricon-of-momus"}
    sat = spectacle_by_key(cat, "satyricon-of-momus")
    b = breakdown(st, BECKY, sat, aquilas=1)
    assert b.missing == 3
    assert [v for _, v in b.lines] == [9, 5, 4, 5, 0, 0, 3]
    assert b.total == 26
    # Performing Amphitryon again earns no bonus for "another" earlier performance.
    amph = spectacle_by_key(cat, "amphitryon")
    assert breakdown(st, BECKY, amph).lines[1][1] == 0
    prev = st
    st, ev = play(st, Perform(player=BECKY, spectacle="satyricon-of-momus", aquilas=1))
    assert_ok(st, prev)
    becky = st.players[BECKY]
    assert becky.acclaim == 26 and becky.coins == coins + 26 and becky.aquilas == 0
    assert becky.arena == sat.id and sat.id not in becky.face_down
    assert "9 + 5 + 4 + 5 + 3 = 26 Acclaim; moves the marker from 7 to 26, takes 26 coins" in texts(ev)
    assert to_act(st) == KAT and st.perform.stage == "roll"


def test_g53_marker_never_moves_back_but_coins_are_collected():
    """G-0 / G-5.3: the marker records the best single performance; coins come anyway."""
    st = becky_example()
    st = set_player(st, BECKY, acclaim=30)
    st, _ = play(st, Roll(player=BECKY), ChooseDice(player=BECKY, mode="sum"))
    lo = 2
    st, _ = play(st, MoveNoble(player=BECKY, noble=SENATOR1, die=-1, steps=lo))
    coins = st.players[BECKY].coins
    b = breakdown(st, BECKY, spectacle_by_key(load_catalog("grand"), "satyricon-of-momus"))
    st, ev = play(st, Perform(player=BECKY, spectacle="satyricon-of-momus"))
    assert b.total < 30
    assert st.players[BECKY].acclaim == 30 and st.players[BECKY].coins == coins + b.total
    assert "the marker stays at 30" in texts(ev)


def test_g53_marker_moving_onto_occupied_space_goes_on_top():
    """G-5.3: moving onto an occupied space puts the marker on top of the stack."""
    st = becky_example()
    st = set_player(st, KAT, acclaim=26, seq=0)
    st = set_player(st, BECKY, seq=5)
    st = replace(st, next_seq=6)
    st = with_dice(st, 3, 3)
    st, _ = play(
        st,
        Roll(player=BECKY),
        ChooseDice(player=BECKY, mode="split"),
        MoveNoble(player=BECKY, noble=CONSUL2, die=1, steps=3),
        MoveNoble(player=BECKY, noble=SENATOR2, die=0, steps=2),
        Perform(player=BECKY, spectacle="satyricon-of-momus", aquilas=1),
    )
    assert st.players[BECKY].acclaim == st.players[KAT].acclaim == 26
    assert st.players[BECKY].seq > st.players[KAT].seq


# ---------------------------------------------------------------------------- G-5.1


def kat_example():
    """Kat (no temple) to roll 3 and 5; the emperor 4 spaces (the senator on 6 skipped) from
    her first gate 8, 5 from her second gate 9."""
    st = perform_start(first=KAT)
    st = replace(st, nobles=(3, 12, 26, 6, 19, 30))
    return with_dice(st, 3, 5)


def test_g51_kat_example_exact_dice_without_temple():
    """G-5.1 example: without the Temple a die moves exactly its face; the 5 takes the
    emperor to Kat's second gate, the 4 she would need for the first is not allowed."""
    st, ev = play(kat_example(), Roll(player=KAT))
    assert st.perform.dice == (3, 5) and "Kat rolls 3 and 5" in texts(ev)
    st, _ = play(st, ChooseDice(player=KAT, mode="split"))
    moves = [a for a in legal(st).actions if isinstance(a, MoveNoble)]
    assert {(a.die, a.steps) for a in moves} == {(0, 3), (1, 5)}
    assert {a.noble for a in moves} == set(range(6))
    assert_illegal(st, MoveNoble(player=KAT, noble=EMPEROR, die=1, steps=4), "G-5.1")
    st, ev = play(st, MoveNoble(player=KAT, noble=EMPEROR, die=1, steps=5))
    assert st.nobles[EMPEROR] == 9 and "(Kat's gate)" in texts(ev)
    # The same noble cannot take the other die; the used die cannot be used again.
    assert_illegal(st, MoveNoble(player=KAT, noble=EMPEROR, die=0, steps=3), "G-5.1")
    assert_illegal(st, MoveNoble(player=KAT, noble=SENATOR2, die=1, steps=5), "G-5.1")
    # The 3 cannot bring another noble to her gates; she moves a senator 19 -> 22.
    st, _ = play(st, MoveNoble(player=KAT, noble=SENATOR2, die=0, steps=3))
    assert st.nobles[SENATOR2] == 22
    assert st.perform.stage == "after"


def test_g51_sum_moves_one_noble_and_skips_occupied_spaces():
    """G-5.1: one noble by the sum; occupied spaces are skipped and not counted."""
    st, _ = play(kat_example(), Roll(player=KAT), ChooseDice(player=KAT, mode="sum"))
    moves = [a for a in legal(st).actions if isinstance(a, MoveNoble)]
    assert {(a.die, a.steps) for a in moves} == {(-1, 8)}
    assert_illegal(st, MoveNoble(player=KAT, noble=EMPEROR, die=0, steps=8), "G-5.1")
    # emperor 3 -> 4 5 (6 skipped) 7 8 9 10 11 (12 skipped) 13
    st, _ = play(st, MoveNoble(player=KAT, noble=EMPEROR, die=-1, steps=8))
    assert st.nobles[EMPEROR] == 13
    assert st.perform.stage == "after", "the sum moves a single noble"


def test_g51_temple_turns_dice_into_ranges():
    """G-5.1: with the Temple each die is 1..face and the sum 2..sum."""
    st = set_player(kat_example(), KAT, temple=True)
    st, _ = play(st, Roll(player=KAT))
    split, _ = play(st, ChooseDice(player=KAT, mode="split"))
    steps = {(a.die, a.steps) for a in legal(split).actions if isinstance(a, MoveNoble)}
    assert steps == {(0, s) for s in range(1, 4)} | {(1, s) for s in range(1, 6)}
    split, _ = play(split, MoveNoble(player=KAT, noble=EMPEROR, die=1, steps=4))
    assert split.nobles[EMPEROR] == 8, "her first gate, with the Temple"
    total, _ = play(st, ChooseDice(player=KAT, mode="sum"))
    steps = {a.steps for a in legal(total).actions if isinstance(a, MoveNoble)}
    assert steps == set(range(2, 9))
    assert_illegal(total, MoveNoble(player=KAT, noble=EMPEROR, die=-1, steps=1), "G-5.1")
    assert_illegal(total, MoveNoble(player=KAT, noble=EMPEROR, die=-1, steps=9), "G-5.1")


def test_g51_aquila_space_pays_on_dice_moves_only_and_only_the_final_space():
    """G-5.1: a noble ending a dice move on an Aquila space gives the roller an Aquila; with
    the sum only the final space counts; Aquila moves never earn one."""
    cat = load_catalog("grand")
    assert 19 in cat.aquila_spaces and 12 in cat.aquila_spaces
    # sum passing over the Aquila space 19 (senator moved away) but ending at 20: nothing
    st = replace(kat_example(), nobles=(3, 12, 26, 6, 15, 30))
    st = with_dice(st, 2, 3)
    st, _ = play(st, Roll(player=KAT), ChooseDice(player=KAT, mode="sum"))
    passed, ev = play(st, MoveNoble(player=KAT, noble=SENATOR2, die=-1, steps=5))
    assert passed.nobles[SENATOR2] == 20 and passed.players[KAT].aquilas == 0
    # sum ending on 19: one Aquila
    st = replace(st, nobles=(3, 12, 26, 6, 14, 30))
    landed, ev = play(st, MoveNoble(player=KAT, noble=SENATOR2, die=-1, steps=5))
    assert landed.nobles[SENATOR2] == 19 and landed.players[KAT].aquilas == 1
    # split: each die move ending on an Aquila space earns one (two here)
    st = replace(kat_example(), nobles=(3, 9, 26, 6, 16, 30))
    st = with_dice(st, 3, 3)
    st, _ = play(st, Roll(player=KAT), ChooseDice(player=KAT, mode="split"))
    st, _ = play(
        st,
        MoveNoble(player=KAT, noble=SENATOR2, die=0, steps=3),  # 16 -> 19
        MoveNoble(player=KAT, noble=CONSUL1, die=1, steps=3),  # 9 -> 10, 11, 12
    )
    assert st.nobles[SENATOR2] == 19 and st.nobles[CONSUL1] == 12
    assert st.players[KAT].aquilas == 2
    # an Aquila spent to move a noble onto an Aquila space earns nothing: emperor 3 -> 0
    st, ev = play(st, AquilaMove(player=KAT, noble=EMPEROR, steps=-3))
    assert st.nobles[EMPEROR] == 0 and st.players[KAT].aquilas == 1
    assert "takes an Aquila" not in texts(ev)


def test_g51_aquila_moves_either_way_one_to_three_skipping_occupied():
    """G-5.1: after the dice, each Aquila moves any noble 1-3 spaces either way; Aquilas
    gained this turn can be used; occupied spaces are skipped."""
    st = set_player(kat_example(), KAT, aquilas=2)
    st, _ = play(st, Roll(player=KAT), ChooseDice(player=KAT, mode="split"))
    assert_illegal(st, AquilaMove(player=KAT, noble=EMPEROR, steps=1), "G-5.1")  # dice first
    st, _ = play(
        st,
        MoveNoble(player=KAT, noble=CONSUL1, die=0, steps=3),
        MoveNoble(player=KAT, noble=SENATOR3, die=1, steps=5),
    )
    aq = {(a.noble, a.steps) for a in legal(st).actions if isinstance(a, AquilaMove)}
    assert aq == {(nb, s) for nb in range(6) for s in (-3, -2, -1, 1, 2, 3)}
    for bad in (0, 4, -4):
        assert_illegal(st, AquilaMove(player=KAT, noble=EMPEROR, steps=bad), "G-5.1")
    # senator 6 counter-clockwise 3: 5, 4, (3: the emperor, skipped), 2
    st, _ = play(st, AquilaMove(player=KAT, noble=SENATOR1, steps=-3))
    assert st.nobles[SENATOR1] == 2
    # emperor clockwise 3: 4, 5, 6
    st, _ = play(st, AquilaMove(player=KAT, noble=EMPEROR, steps=3))
    assert st.nobles[EMPEROR] == 6
    assert st.players[KAT].aquilas == 0
    assert_illegal(st, AquilaMove(player=KAT, noble=EMPEROR, steps=1), "G-8")


def test_g5_once_rolled_nobles_must_move_but_the_turn_may_be_skipped_before():
    """G-5 decision: skip the whole turn before rolling; after rolling the nobles move;
    after moving a player may still decline to perform (D-7)."""
    st = kat_example()
    skipped, ev = play(st, EndTurn(player=KAT))
    assert to_act(skipped) == LAURA and "skips the performance" in texts(ev)
    st, _ = play(st, Roll(player=KAT))
    assert_illegal(st, EndTurn(player=KAT), "G-5")
    st, _ = play(st, ChooseDice(player=KAT, mode="sum"))
    assert_illegal(st, EndTurn(player=KAT), "G-5")
    assert_illegal(st, Perform(player=KAT, spectacle="amphitryon"), "G-5.2")
    st, _ = play(st, MoveNoble(player=KAT, noble=EMPEROR, die=-1, steps=8))
    st, ev = play(st, EndTurn(player=KAT))
    assert to_act(st) == LAURA and "performs nothing" in texts(ev)
    assert st.players[KAT].history == ()


# ---------------------------------------------------------------------------- G-5.2


def neptune(st, seat, n_tiles, gates):
    st = give_spectacle(st, seat, "neptunes-fury")
    # Neptune's Fury: 3G 4S 2Co 1P 2FE 1D (13)
    order = [("G", 3), ("S", 4), ("Co", 2), ("P", 1), ("FE", 2), ("D", 1)]
    tiles: dict[str, int] = {}
    left = n_tiles
    for code, need in order:
        take = min(need, left)
        if take:
            tiles[code] = take
        left -= take
    st = set_tiles(st, seat, tiles)
    return set_player(st, seat, gates=gates)


def test_g52_neptunes_fury_needs_4_gates_and_7_of_13():
    """G-5.2 example: Neptune's Fury (13 performers) with all 4 gates and 7 performers."""
    cat = load_catalog("grand")
    nf = spectacle_by_key(cat, "neptunes-fury")
    assert nf.total == 13 and nf.gates == 4
    st = perform_start()
    four = (20, 21, 22, 23)
    ok = neptune(st, BECKY, 7, four)
    assert why_not_performable(ok, BECKY, nf) is None
    assert nf.id in performable(ok, BECKY)
    assert breakdown(ok, BECKY, nf).lines[0][1] == nf.strip[6] == 8
    six = neptune(st, BECKY, 6, four)
    assert "at least 7 of its 13" in why_not_performable(six, BECKY, nf)
    three_gates = neptune(st, BECKY, 13, (20, 21, 22))
    assert "needs 4 gates" in why_not_performable(three_gates, BECKY, nf)
    # a balatro fills a gap: 6 performers + 1 balatro make 7
    bal = set_tiles(six, BECKY, {"Bal": 1}, keep_others=True)
    assert why_not_performable(bal, BECKY, nf) is None


def test_g52_medium_needs_3_gates_and_requirement_minus_5():
    cat = load_catalog("grand")
    sat = spectacle_by_key(cat, "satyricon-of-momus")  # 8 performers: at least 3
    st = give_spectacle(perform_start(), BECKY, "satyricon-of-momus")
    st = set_tiles(st, BECKY, {"Co": 2, "P": 1})
    assert "needs 3 gates" in why_not_performable(st, BECKY, sat)
    st = set_player(st, BECKY, gates=(20, 21, 22))
    assert why_not_performable(st, BECKY, sat) is None
    st = set_tiles(st, BECKY, {"Co": 2})
    assert "at least 3 of its 8" in why_not_performable(st, BECKY, sat)


def test_g52_strip_value_for_each_number_missing():
    """G-5.3 step 1: the strip value for 0, 1, 2, ... missing; surplus tiles of a type do not
    fill other gaps; balatros fill one gap each."""
    cat = load_catalog("grand")
    sat = spectacle_by_key(cat, "satyricon-of-momus")  # 2Co 2P 2FE 1Sc 1D: 18 [15 12 9 6 3]
    st = set_player(give_spectacle(perform_start(), BECKY, "satyricon-of-momus"), BECKY, gates=(20, 21, 22))
    full = {"Co": 2, "P": 2, "FE": 2, "Sc": 1, "D": 1}
    for missing, value in enumerate((18, 15, 12, 9, 6, 3)):
        tiles = dict(full)
        for code in ("P", "FE", "Co", "Sc", "D")[:missing]:
            tiles[code] -= 1
        s2 = set_tiles(st, BECKY, tiles)
        b = breakdown(s2, BECKY, sat)
        assert (b.missing, b.lines[0][1]) == (missing, value)
    s2 = set_tiles(st, BECKY, {"Co": 6, "P": 1, "FE": 1})
    assert breakdown(s2, BECKY, sat).missing == 4
    s2 = set_tiles(st, BECKY, {"Co": 2, "P": 1, "FE": 1, "Bal": 5})
    b = breakdown(s2, BECKY, sat)
    assert b.missing == 0 and b.used[code_index(st, "Bal")] == 4
    # small spectacles need 1 matched performer
    amph = spectacle_by_key(cat, "amphitryon")  # 2Co 1D: 7 [5 3]
    st3 = give_spectacle(st, BECKY, "amphitryon")
    assert why_not_performable(set_tiles(st3, BECKY, {"D": 1}), BECKY, amph) is None
    assert breakdown(set_tiles(st3, BECKY, {"D": 1}), BECKY, amph).lines[0][1] == 3
    assert why_not_performable(set_tiles(st3, BECKY, {"G": 4}), BECKY, amph) is not None


def test_g53_each_step_of_the_breakdown():
    """G-5.3 steps 2-7: earlier performances, stars of required types only, nobles, promoters,
    gifts, Aquilas spent."""
    cat = load_catalog("grand")
    amph = spectacle_by_key(cat, "amphitryon")  # 2Co 1D
    st = perform_start()
    st = give_spectacle(st, BECKY, "amphitryon")
    for key in ("venatio", "circus-maximus"):
        st = give_spectacle(st, BECKY, key, face_up=True)
    st = set_tiles(st, BECKY, {"Co": 3, "D": 3, "G": 3})
    assert {st.stars[code_index(st, c)] for c in ("Co", "D", "G")} == {BECKY}
    st = set_player(st, BECKY, gates=(20, 21, 22, 23), promoters=2, gifts=1, aquilas=2)
    # emperor, a consul and a senator at her gates; another senator next door
    st = replace(st, nobles=(20, 21, 26, 23, 24, 30))
    b = breakdown(st, BECKY, amph, aquilas=2)
    assert [v for _, v in b.lines] == [7, 10, 8, 7 + 5 + 3, 10, 3, 6]
    assert b.total == 7 + 10 + 8 + 15 + 10 + 3 + 6


# ---------------------------------------------------------------------------- G-5.4


def finish_perform(st):
    """Everyone still to perform skips."""
    while st.phase == "perform":
        st, _ = play(st, EndTurn(player=to_act(st)))
    return st


def test_g54_most_acclaimed_takes_a_gift_tie_bottom_of_stack():
    """G-5.4: the player furthest along takes a gift; tie: the bottom marker."""
    st = perform_start()
    st = set_player(st, BECKY, acclaim=20, seq=7)
    st = set_player(st, KAT, acclaim=20, seq=4)
    st = set_player(st, LAURA, acclaim=19, seq=1)
    end = finish_perform(st)
    assert end.players[KAT].gifts == 1 and end.gifts_left == 2
    st = set_player(st, LAURA, acclaim=21)
    end = finish_perform(st)
    assert end.players[LAURA].gifts == 1


def test_g54_no_gift_left_ends_the_game_instead():
    st = replace(perform_start(), gifts_left=0, round=4)
    st = set_player(st, KAT, gifts=3)
    end = finish_perform(st)
    assert end.phase == "over" and end.result is not None
    assert_ok(end)
