"""Statistics across saved games: summaries cached by the log's digest (a changed log read
anew, a copied one not, a removed one forgotten), tallies per game and edition (each in its own
words and rounds, D-97), per options and opponent, and text that fits 80 columns."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len

from colosseum.core.gamelog import make_header
from colosseum.core.logwriter import LogWriter
from colosseum.core.registry import rules
from colosseum.tui.stats import CACHE, CACHE_VERSION, figures, load_summaries, render, summarize, tally


def _save(folder: Path, name: str, game: str, seed: int, kinds: tuple[str, ...], **options) -> Path:
    r = rules(game)
    names = ("Becky", "小明", "Aurelia Maximiliana Cornelia", "Kat")[: len(kinds)]
    setup = r.spec.make_setup(names, seed=seed, **options)
    state, actions = r.new_game(setup), []
    bots = [r.make_bot("normal" if k == "human" else k, seed + i) for i, k in enumerate(kinds)]
    while not r.is_over(state):
        action = bots[r.to_act(state)].act(state)
        state, _ = r.apply(state, action)
        actions.append(action)
    w = LogWriter.create_at(folder / f"{name}.jsonl", make_header(setup, kinds), actions, end=True, fsync=False)
    w.close()
    return w.path


@pytest.mark.long(36)
def test_tallies_and_the_cache(tmp_path):
    games = tmp_path / "games"
    paths = [
        _save(games, "a", "colosseum", 1, ("human", "normal", "easy")),
        _save(games, "b", "colosseum", 2, ("human", "hard", "normal"), variant="original"),
        _save(games, "c", "municipium", 3, ("human", "normal")),
    ]
    summaries, read = load_summaries(paths, tmp_path)
    assert read == 3 and len(summaries) == 3
    again, read = load_summaries(paths, tmp_path)
    assert read == 0 and again == summaries  # all from the cache
    copy = games / "copy.jsonl"
    copy.write_bytes(paths[0].read_bytes())
    _, read = load_summaries([*paths, copy], tmp_path)
    assert read == 0  # the same digest: the same summary
    with open(paths[1], "ab") as f:
        f.write(b"\n")  # changed: read again
    _, read = load_summaries(paths, tmp_path)
    assert read == 1
    t = tally(summaries)
    assert list(t.games) == ["colosseum:grand", "colosseum:original", "municipium"]
    grand, orig, muni = t.games.values()
    assert grand.record.games == orig.record.games == muni.record.games == 1
    assert set(grand.by_options) == set(orig.by_options) == {"standard"}
    assert {"normal", "easy"} <= set(grand.by_opponent) and "hard" in orig.by_opponent
    assert grand.plays and grand.by_round() and grand.best == max(grand.scores)
    assert tally(summaries, player="nobody").games == {}
    text = render(t)
    assert "Colosseum - The Grand Spectacle\n" in text and "Colosseum - Original 2007\n" in text
    assert "Municipium" in text
    assert all(cell_len(line) <= 80 for line in text.splitlines())


def test_the_stats_command_text_json_and_an_empty_folder(tmp_path, capsys):
    """``colosseum stats``: the text over a folder (``--dir``), within 80 columns; ``--json``
    the same figures; one line when a folder holds no saved game; the games folder by default."""
    import json

    from colosseum.tui.cli import main
    from colosseum.tui.storage import games_dir

    folder = tmp_path / "elsewhere"
    _save(folder, "a", "colosseum", 5, ("human", "normal", "easy"))
    _save(folder, "b", "municipium", 6, ("human", "normal"))
    assert main(["stats", "--dir", str(folder)]) == 0
    text = capsys.readouterr().out
    assert "Colosseum - The Grand Spectacle\n  1 game of the people at this keyboard" in text
    assert "Municipium\n  1 game of the people at this keyboard" in text
    assert text.endswith(f"\n(2 saved games in {folder})\n")  # the folder's path whole
    assert all(cell_len(line) <= 80 for line in text.splitlines()[:-1])
    assert main(["stats", "--dir", str(folder), "--json", "--player", "BECKY"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["logs"] == 2 and data["player"] == "BECKY"
    col = data["games"]["colosseum:grand"]
    assert (col["game"], col["edition"], col["title"]) == ("colosseum", "grand", "Colosseum - The Grand Spectacle")
    assert data["games"]["municipium"]["edition"] == ""
    assert col["games"] == 1 and col["best"] == col["scores"][0] and sum(b["count"] for b in col["spread"]) == 1
    assert data["games"]["municipium"]["by_opponent"] == {
        "normal": {"games": 1, "wins": data["games"]["municipium"]["wins"]}
    }
    assert main(["stats", "--dir", str(tmp_path / "none")]) == 0
    assert capsys.readouterr().out == f"No saved games in {tmp_path / 'none'}.\n"
    assert main(["stats"]) == 0  # the games folder (of this test's data folder): empty
    assert capsys.readouterr().out == f"No saved games in {games_dir()}.\n"
    _save(games_dir(), "c", "colosseum", 7, ("normal", "human", "normal"))
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert "Colosseum - The Grand Spectacle\n  1 game of the people at this keyboard" in out
    assert out.endswith(f"\n(1 saved game in {games_dir()})\n"), out  # one game: no plural


@pytest.mark.long(30)
def test_each_edition_in_its_own_words_and_rounds(tmp_path, capsys):
    """A tester's data folder: a bots-only Original 2007 game (Spectators, 5 rounds) saved
    before a Grand Spectacle game with a person (Acclaim, 4 rounds).  The figures are the Grand
    Spectacle's in its words, by its 4 rounds (the last the final score: no fifth value for the
    end); a person's Original 2007 game is a section of its own, in Spectators over 5 rounds."""
    import json

    from colosseum.tui.cli import main

    folder = tmp_path / "games"
    _save(folder, "1-original", "colosseum", 1, ("easy", "easy", "easy", "easy"), variant="original")
    _save(folder, "2-grand", "colosseum", 2, ("human", "easy", "easy", "easy"))
    assert main(["stats", "--dir", str(folder)]) == 0
    text = capsys.readouterr().out
    assert "Spectators" not in text and "Original" not in text
    assert "  Acclaim: average" in text and "  average Acclaim at the end of each round:\n      1-4: " in text
    assert main(["stats", "--dir", str(folder), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data["games"]) == ["colosseum:grand"]
    grand = data["games"]["colosseum:grand"]
    assert grand["score_name"] == "Acclaim" and len(grand["by_round"]) == 4
    assert grand["by_round"][-1] == grand["average"]  # the last round's: the final score

    _save(folder, "3-original", "colosseum", 3, ("easy", "human", "easy"), variant="original")
    assert main(["stats", "--dir", str(folder), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data["games"]) == ["colosseum:grand", "colosseum:original"]
    orig = data["games"]["colosseum:original"]
    assert (orig["title"], orig["score_name"], orig["games"]) == ("Colosseum - Original 2007", "Spectators", 1)
    assert len(orig["by_round"]) == 5 and orig["by_round"][-1] == orig["average"]
    assert data["games"]["colosseum:grand"] == grand  # unchanged by the other edition's game
    assert main(["stats", "--dir", str(folder)]) == 0
    text = capsys.readouterr().out
    grand_part, orig_part = text.split("Colosseum - Original 2007\n")
    assert "Spectators" not in grand_part and "Acclaim" not in orig_part
    assert "  Spectators: average" in orig_part and "at the end of each round:\n      1-5: " in orig_part


def test_a_summary_holds_a_score_a_round_played(tmp_path):
    """The series: one value per round (Colosseum) or turn (Municipium, from turn 1, not the
    placement) played, the last the final score."""
    for game, kinds, options, rounds in (
        ("colosseum", ("human", "easy", "easy"), {}, 4),
        ("colosseum", ("human", "easy", "easy"), {"variant": "classic"}, 5),
        ("colosseum", ("human", "easy", "easy"), {"variant": "original"}, 5),
        ("municipium", ("human", "easy"), {}, None),
    ):
        path = _save(tmp_path, f"{game}-{options.get('variant', '')}", game, 11, kinds, **options)
        s = summarize(path.read_bytes(), path)
        assert s is not None and s.finished
        for seat in s.seats:
            assert seat.series[-1] == seat.score
            if rounds is not None:
                assert len(seat.series) == rounds
        if rounds is None:
            from colosseum.core.logread import parse_log

            final = parse_log(path.read_bytes(), path=path).timeline
            assert len(s.seats[0].series) == final.state(final.end).turn


def test_an_older_cache_is_read_anew(tmp_path):
    """Summaries of another shape (cache version 1: the end of the game as a value after the
    last round; 2: no mark of a fork) are not taken from the cache."""
    path = _save(tmp_path / "games", "a", "colosseum", 5, ("human", "easy", "easy"))
    summaries, read = load_summaries([path], tmp_path)
    assert read == 1
    cache = tmp_path / CACHE
    old = cache.read_text().replace(f'"v":{CACHE_VERSION}', '"v":2')
    cache.write_text(old)
    again, read = load_summaries([path], tmp_path)
    assert read == 1 and again == summaries
    assert figures(tally(again))["games"]["colosseum:grand"]["by_round"]


def test_a_fork_is_not_counted_as_a_game_played(tmp_path):
    """A game from a position of another was played from its start by others (a bot game forked
    at round 5 counted as a win of the person who played round 5), or is the person's game a
    second time (a fork of their own game): it is not counted, and the figures say so."""
    import msgspec

    from colosseum.core.logread import read_log

    games = tmp_path / "games"
    mine = _save(games, "a", "colosseum", 1, ("human", "normal", "easy"))
    log = read_log(mine)
    header = msgspec.structs.replace(make_header(log.setup, log.seats), fork_of="a.jsonl", fork_at=30)
    w = LogWriter.create_at(games / "a-fork-1.jsonl", header, log.actions, end=True, fsync=False)
    w.close()
    summaries, _ = load_summaries([mine, w.path], tmp_path)
    assert [s.fork for s in summaries] == [False, True]
    t = tally(summaries)
    assert t.games["colosseum:grand"].record.games == 1 and t.forks == 1
    assert "(1 game from a position (forks) not counted)" in render(t)
    assert figures(t)["forks"] == 1
