"""Statistics across saved games: summaries cached by the log's digest (a changed log read
anew, a copied one not, a removed one forgotten), tallies per game, edition and opponent, and
text that fits 80 columns."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len

from colosseum.core.gamelog import make_header
from colosseum.core.logwriter import LogWriter
from colosseum.core.registry import rules
from colosseum.tui.stats import load_summaries, render, tally


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
    col, muni = t.games["colosseum"], t.games["municipium"]
    assert col.record.games == 2 and muni.record.games == 1
    assert set(col.by_edition) == {"standard", "Edition Original 2007"}
    assert {"normal", "easy", "hard"} <= set(col.by_opponent)
    assert col.plays and col.by_round() and col.best == max(col.scores)
    assert tally(summaries, player="nobody").games == {}
    text = render(t)
    assert "Colosseum" in text and "Municipium" in text
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
    assert "Colosseum of the people at this keyboard: 1 game" in text and "Municipium" in text
    assert text.endswith(f"\n(2 saved games in {folder})\n")  # the folder's path whole
    assert all(cell_len(line) <= 80 for line in text.splitlines()[:-1])
    assert main(["stats", "--dir", str(folder), "--json", "--player", "BECKY"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["logs"] == 2 and data["player"] == "BECKY"
    col = data["games"]["colosseum"]
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
    assert "Colosseum of the people at this keyboard: 1 game" in capsys.readouterr().out
