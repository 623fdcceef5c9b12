"""The engine's log in each edition's words: the original 2007 edition's sentences say spectators,
arena pieces (an arena extension bought), programs, medals, season tickets, podiums and the
Emperor's loge (the catalog's terms, O-2), never The Grand Spectacle's Acclaim, gates,
spectacles, Aquilas, promoters, gifts or Temple; the 2026 editions keep their words.  And the
log's grammar in every edition: "an" before a vowel ("retires an Elephant"), the singular for
one ("returns 1 Aquila", "1 medal is worth nothing")."""

from __future__ import annotations

import re

import pytest
from builders import give_spectacle, play, set_player, set_tiles, skip_to, start, texts
from msgspec.structs import replace

from colosseum.core.games.colosseum import apply, new_game, to_act
from colosseum.core.games.colosseum.actions import ChooseDice, EndTurn, MoveNoble, Perform, Retire, Roll, Steal
from colosseum.core.games.colosseum.components import load_catalog
from colosseum.core.games.colosseum.summary import turn_line
from colosseum.core.simulate import make_bots, make_setup

#: The Grand Spectacle's words (whole words, any case), which the original never says
WORDS_2026 = re.compile(r"\b(acclaim|acclaimed|gates?|spectacles?|aquilas?|promoters?|gifts?|temple)\b", re.I)
A_BEFORE_VOWEL = re.compile(r"\ba [aeiouAEIOU]")
ONE_AND_A_PLURAL = re.compile(r"(?<!Round )(?<![\d.,])\b1 [A-Za-z]+s\b")


def without_names(variant: str, text: str) -> str:
    """``text`` without the names of tiles and spectacles, which may hold such a word (the
    "Aquila tile" is a tile's name)."""
    cat = load_catalog(variant)
    for name in sorted({t.name for t in cat.tiles} | {s.name for s in cat.spectacles}, key=len, reverse=True):
        text = text.replace(name, "")
    return text


def played(variant: str, players: int, seed: int, bot: str = "easy") -> list[str]:
    """Every log sentence of a whole seeded game of bots."""
    state = new_game(make_setup(players, seed, variant=variant))
    bots = make_bots([bot] * players, seed)
    out = []
    while (seat := to_act(state)) >= 0:
        state, events = apply(state, bots[seat].act(state))
        out += [e.text for e in events]
    return out


GAMES = [(players, seed, bot) for players in (3, 4, 5) for seed in range(3) for bot in ("easy", "random")]


@pytest.fixture(scope="module")
def logs() -> dict[str, list[str]]:
    return {v: [t for g in GAMES for t in played(v, *g)] for v in ("original", "grand", "classic")}


def test_the_original_logs_no_2026_word(logs):
    said = logs["original"]
    wrong = sorted({t for t in said if WORDS_2026.search(without_names("original", t))})
    assert not wrong, wrong[:20]
    joined = "\n".join(said)
    for words in (
        "Phase 4: Perform a Program.",
        " spectators; moves the marker",
        " builds an arena extension on space ",
        "'s arena piece).",
        " wins with ",
    ):
        assert words in joined, words
    assert re.search(r"The game is over\. .+ (wins|share the win) with \d+ spectators\.", joined)


def test_the_2026_editions_keep_their_words(logs):
    for variant in ("grand", "classic"):
        joined = "\n".join(logs[variant])
        for words in (
            "Phase 4: Perform a Spectacle.",
            " Acclaim; moves the marker",
            " builds a gate on space ",
            "'s gate).",
        ):
            assert words in joined, (variant, words)
        assert re.search(r"The game is over\. .+ (wins|share the win) with \d+ Acclaim\.", joined), variant
        assert "spectators" not in joined and "arena piece" not in joined and "medal" not in joined


def test_no_a_before_a_vowel_and_no_plural_for_one(logs):
    for variant, said in logs.items():
        assert not [t for t in said if A_BEFORE_VOWEL.search(t)], variant
        assert not [t for t in said if ONE_AND_A_PLURAL.search(t)], variant


# ------------------------------------------------------------------ one of a kind, at the end


def _last_round(variant: str, aquilas: tuple[int, ...]):
    rounds = load_catalog(variant).rounds
    st = skip_to(start(3, seed=8, variant=variant), "perform")
    st = replace(st, round=rounds, gifts_left=0)
    for seat in range(3):
        st = set_player(st, seat, acclaim=10 + seat, aquilas=aquilas[seat])
    while st.phase != "over":
        st, ev = play(st, EndTurn(player=to_act(st)))
    return st, texts(ev)


@pytest.mark.parametrize(
    ("variant", "one", "two"),
    [
        ("grand", "Becky returns 1 Aquila for 3 Acclaim: 10 to 13.", "Kat returns 2 Aquilas for 6 Acclaim: 11 to 17."),
        (
            "classic",
            "Becky discards 1 Aquila (no Acclaim in the classic game).",
            "Kat discards 2 Aquilas (no Acclaim in the classic game).",
        ),
        ("original", "Becky's 1 medal is worth nothing at the end.", "Kat's 2 medals are worth nothing at the end."),
    ],
)
def test_one_aquila_or_medal_at_the_end_is_singular(variant, one, two):
    _, said = _last_round(variant, (1, 2, 0))
    assert one in said and two in said, said


def test_the_original_game_ends_in_spectators():
    st, said = _last_round("original", (0, 0, 0))
    assert "The game is over. Laura wins with 12 spectators." in said, said
    st, said = _last_round("grand", (0, 0, 0))
    assert "The game is over. Laura wins with 12 Acclaim." in said, said


#: The Grand Spectacle's names of tiles, star cards and phases, which the original never says (D-100)
NAMES_2026 = re.compile(
    r"Fire Eater|Shipmaster|Scenery Builder|Decorator|Charioteer|Elephant|Aquila tile|Star Performer|Performers"
)


def test_the_original_names_its_tiles_star_cards_and_phases_in_its_words(logs):
    said = logs["original"]
    wrong = sorted({t for t in said if NAMES_2026.search(t)})
    assert not wrong, wrong[:20]
    joined = "\n".join(said)
    for words in ("Phase 2: Acquire Asset Tiles.", "Phase 3: Trade Asset Tiles.", " star card"):
        assert words in joined, words
    assert re.search(r"\b(Torch|Cage|Ship|Chariot|Decoration|Scenery)\b", joined)
    grand = "\n".join(logs["grand"])
    assert "Phase 2: Hire Performers." in grand and " Star Performer" in grand and "star card" not in grand


def test_each_editions_tile_names_and_plurals():
    cat, grand = load_catalog("original"), load_catalog("grand")
    names = {t.code: (t.name, t.short, cat.name_of(k, 2)) for k, t in enumerate(cat.tiles)}
    assert names["FE"] == ("Torch", "Tor", "Torches")
    assert names["E"] == ("Cage", "Cag", "Cages")
    assert names["Sc"] == ("Scenery", "Sce", "Sceneries")
    assert names["Aq"] == ("Emperor medal tile", "Med", "Emperor medal tiles")
    assert len({t.short for t in cat.tiles}) == len(cat.tiles)  # no two alike
    assert cat.codes == grand.codes  # logs keep the codes: an older log replays
    assert [grand.name_of(k, 2) for k in (grand.index["FE"], grand.index["E"])] == ["Fire Eaters", "Elephants"]
    assert (cat.term("star"), grand.term("star")) == ("star card", "Star Performer")


# ------------------------------------------------------------------ an Elephant


def test_an_elephant_is_retired_and_stolen():
    """G-6.1, G-6.2: a tile whose name begins with a vowel takes "an"."""
    becky, kat, laura = 0, 1, 2
    st = skip_to(start(3, seed=6, first=becky), "perform")
    st = give_spectacle(st, becky, "pugnae-bestiae")
    st = set_tiles(st, becky, {"L": 2, "E": 2, "G": 1})
    st = set_tiles(st, kat, {"H": 3})
    st = set_tiles(st, laura, {"S": 1})
    for seat, acclaim in enumerate((0, 5, 1)):
        st = set_player(st, seat, acclaim=acclaim)
    st, _ = play(st, Roll(player=becky), ChooseDice(player=becky, mode="sum"))
    st, _ = play(st, MoveNoble(player=becky, noble=5, die=-1, steps=sum(st.perform.dice)))
    st, _ = play(st, Perform(player=becky, spectacle="pugnae-bestiae"))
    st, _ = play(st, EndTurn(player=kat), EndTurn(player=laura))
    st, ev = play(st, Retire(player=becky, tile="E"))
    assert "Becky retires an Elephant; " in texts(ev)
    st, ev = play(st, Steal(player=laura, tile="E"))
    assert "Laura steals an Elephant from Becky." in texts(ev)


# ------------------------------------------------------------------ the turn's summary line


def test_a_turns_line_says_the_editions_score():
    """``summary.turn_line`` (Since your last turn) shortens a performance to its score in the
    words the log used."""
    from colosseum.core.events import Event
    from colosseum.core.games.colosseum.summary import Step

    st = start(3, variant="original")

    def line(text: str) -> str:
        ev = Event(kind="perform", text=text, seat=0, round=1, phase="perform")
        step = Step(actor=0, owner=0, round=1, phase="perform", events=(ev,), before=st, after=st)
        return turn_line([step], [p.name for p in st.players])

    said = "Becky performs Venatio: 9 + 5 = 14 spectators; moves the marker from 0 to 14, takes 14 coins."
    assert line(said) == "Becky performs Venatio for 14 spectators"
    said = "Becky performs Venatio: 9 + 5 = 14 Acclaim; moves the marker from 0 to 14, takes 14 coins."
    assert line(said) == "Becky performs Venatio for 14 Acclaim"


def test_the_hint_and_the_ranking_say_the_editions_score():
    """A hint's sentence and the end ranking say "spectators" in the original, "Acclaim" in 2026
    (``Rules.score_word``)."""
    from colosseum.core.hint import hint_line
    from colosseum.core.registry import rules

    r = rules("colosseum")
    for variant, word, other in (("original", "spectators", "Acclaim"), ("grand", "Acclaim", "spectators")):
        state = new_game(make_setup(3, 5, variant=variant))
        assert r.score_word(state) == word
        bots = make_bots(["easy"] * 3, 5)
        while not (chat := hint_line(r, state, playouts=2).chat).count("playouts"):
            state, _ = apply(state, bots[to_act(state)].act(state))
        assert f"playouts, {word} " in chat and other not in chat, chat


def test_the_short_phase_title_in_each_editions_words():
    """The header's and the dialogs' short title of Phase 2: the original acquires asset tiles,
    it hires no performers."""
    from colosseum.core.games.colosseum.queries import phase_title

    for variant, title in (("original", "Phase 2 Acquire"), ("grand", "Phase 2 Hire"), ("classic", "Phase 2 Hire")):
        st = new_game(make_setup(3, 1, variant=variant))
        assert phase_title(replace(st, phase="hire")) == title, variant
        assert phase_title(replace(st, phase="trade")) == "Phase 3 Trade", variant
