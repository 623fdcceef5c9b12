"""G-7 Star Performers: rechecked whenever a count changes (auctions, trades, retiring,
stealing), through the engine's own actions."""

from __future__ import annotations

from builders import (
    assert_ok,
    code_index,
    give_spectacle,
    play,
    recheck_stars,
    set_player,
    set_tiles,
    skip_to,
    start,
    texts,
)
from msgspec.structs import replace
from test_rules_closing import perform_amphitryon

from colosseum.core.games.colosseum import Transfer, breakdown, spectacle_by_key
from colosseum.core.games.colosseum.actions import AcceptDeal, CloseDeal, EndTurn, ProposeDeal, Retire, Steal
from colosseum.core.games.colosseum.components import load_catalog
from colosseum.core.games.colosseum.engine import NOBODY

BECKY, KAT, LAURA = 0, 1, 2


def lions(b, k, la, holder):
    st = skip_to(start(3, seed=12, first=BECKY), "trade")
    st = set_tiles(st, BECKY, {"L": b, "G": 1}, recheck=False)
    st = set_tiles(st, KAT, {"L": k, "G": 1}, recheck=False)
    st = set_tiles(st, LAURA, {"L": la, "G": 1}, recheck=False)
    st = recheck_stars(st)
    lion = code_index(st, "L")
    stars = list(st.stars)
    stars[lion] = holder
    st = replace(st, stars=tuple(stars))
    return assert_ok(st), lion


def deal(st, *transfers):
    """Becky (active) proposes; every other party accepts; Becky closes."""
    st, ev = play(st, ProposeDeal(player=BECKY, transfers=tuple(Transfer(*t) for t in transfers)))
    parties = {x for t in transfers for x in t[:2]} - {BECKY}
    for seat in sorted(parties):
        st, e = play(st, AcceptDeal(player=seat))
        ev += e
    st, e = play(st, CloseDeal(player=BECKY))
    return assert_ok(st), ev + e


def test_g7_a_tie_does_not_take_the_star_away():
    st, lion = lions(3, 2, 1, holder=BECKY)
    st, ev = deal(st, (LAURA, KAT, "L", 1), (BECKY, LAURA, "coins", 1))
    assert [p.tiles[lion] for p in st.players] == [3, 3, 0]
    assert st.stars[lion] == BECKY and "Star" not in texts(ev)


def test_g7_exceeding_takes_it_from_the_holder():
    st, lion = lions(3, 3, 1, holder=BECKY)
    st, ev = deal(st, (LAURA, KAT, "L", 1), (BECKY, LAURA, "coins", 1))
    assert st.stars[lion] == KAT
    assert "Kat takes the Lion Star Performer from Becky" in texts(ev)


def test_g7_two_challengers_tied_above_the_holder_return_it_to_the_board():
    st, lion = lions(4, 3, 3, holder=BECKY)
    st, ev = deal(st, (BECKY, KAT, "L", 1), (BECKY, LAURA, "L", 1))
    assert [p.tiles[lion] for p in st.players] == [2, 4, 4]
    assert st.stars[lion] == NOBODY and "returns to the board" in texts(ev)


def test_g7_dropping_to_two_returns_it_unless_someone_has_a_lone_majority_of_three():
    st, lion = lions(3, 1, 0, holder=BECKY)
    out, ev = deal(st, (BECKY, KAT, "L", 1))
    assert [p.tiles[lion] for p in out.players] == [2, 2, 0] and out.stars[lion] == NOBODY
    st, lion = lions(3, 3, 0, holder=BECKY)
    out, ev = deal(st, (BECKY, LAURA, "L", 1))
    assert out.stars[lion] == KAT, "Kat alone has the most, and at least 3"


def test_g7_three_is_the_minimum():
    st, lion = lions(2, 0, 0, holder=NOBODY)
    st, _ = deal(st, (KAT, BECKY, "G", 1))
    assert st.stars[lion] == NOBODY
    st2 = set_tiles(st, KAT, {"L": 1}, keep_others=True, recheck=False)
    st2, _ = deal(st2, (KAT, BECKY, "L", 1))
    assert st2.stars[lion] == BECKY


def test_g7_balatros_never_count():
    """G-7: balatros are wild only when performing; never for a Star Performer."""
    st, lion = lions(2, 0, 0, holder=NOBODY)
    st = set_tiles(st, KAT, {"Bal": 4}, keep_others=True, recheck=False)
    st, _ = deal(st, (KAT, BECKY, "Bal", 4))
    assert st.stars[lion] == NOBODY and st.stars[code_index(st, "Bal")] < NOBODY
    # a balatro filling a lion gap in a spectacle earns no lion star bonus either
    cat = load_catalog("grand")
    ven = spectacle_by_key(cat, "venatio")  # 2H 2L 1E
    st = give_spectacle(st, BECKY, "venatio")
    assert breakdown(st, BECKY, ven).lines[2][1] == 0


def test_g7_recheck_after_retire_and_steal():
    """G-7 after G-6.1 retiring and G-6.2 stealing."""
    st = skip_to(start(3, seed=6, first=BECKY), "perform")
    st = give_spectacle(st, BECKY, "amphitryon")  # 2Co 1D
    st = set_tiles(st, BECKY, {"Co": 3, "D": 3})
    st = set_tiles(st, LAURA, {"Co": 2, "D": 2})
    co, dec = code_index(st, "Co"), code_index(st, "D")
    assert st.stars[co] == st.stars[dec] == BECKY
    st = set_player(st, BECKY, acclaim=0)
    st = perform_amphitryon(st, BECKY)
    st, _ = play(st, EndTurn(player=KAT), EndTurn(player=LAURA))
    st, ev = play(st, Retire(player=BECKY, tile="D"))
    assert st.stars[dec] == NOBODY, "Becky 2, Laura 2: back to the board"
    assert st.closing.stage == "steal" and st.closing.victim == BECKY
    assert st.closing.player == LAURA, "Kat and Laura at 0: Laura's marker is on top"
    st, ev = play(st, Steal(player=LAURA, tile="Co"))
    assert [p.tiles[co] for p in st.players] == [2, 0, 3]
    assert st.stars[co] == LAURA
    assert_ok(st)
