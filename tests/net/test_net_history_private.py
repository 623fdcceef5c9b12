"""The finished games' pages leave out the private games the asker did not play, and count
only what the asker may see: full pages, the right total, no game twice or skipped."""

from __future__ import annotations

from types import SimpleNamespace

import msgspec

from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.finished import history_tables


def history(tmp_path, games: list[tuple[str, bool, list[str]]]) -> SimpleNamespace:
    """A data folder whose history holds ``games`` (id, private, who played), oldest first."""
    lines = [
        msgspec.json.encode(P.HistoryInfo(id=gid, name=gid, players=["A", "B"], private=private, holders=who))
        for gid, private, who in games
    ]
    (tmp_path / "history.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    return SimpleNamespace(data=tmp_path, history_count=len(lines))


def pages(server, player: str, limit: int) -> tuple[list[str], set[int]]:
    conn = SimpleNamespace(player=player)
    seen, totals, offset = [], set(), 0
    while True:
        page = history_tables(server, conn, P.ListTables(history=True), offset, limit)
        totals.add(page.total)
        if not page.history:
            return seen, totals
        assert len(page.history) == limit or offset + len(page.history) == page.total
        seen += [h.id for h in page.history]
        offset += limit


def test_private_games_are_left_out_of_the_pages_and_the_count_of_who_did_not_play_them(tmp_path):
    games = []
    for i in range(40):
        private = i % 3 == 0 or 20 <= i < 27  # scattered, and a run of them
        games.append((f"g{i:02d}", private, ["key:ann"] if private and i % 2 else ["key:bo"]))
    server = history(tmp_path, games)
    for player in ("key:ann", "key:bo", "key:eve"):
        shown = [g for g, private, who in reversed(games) if not private or player in who]
        for limit in (1, 4, 7, 100):
            seen, totals = pages(server, player, limit)
            assert seen == shown, (player, limit)
            assert totals == {len(shown)}


def test_games_finished_later_are_counted_without_reading_the_history_again(tmp_path):
    server = history(tmp_path, [("a", True, ["key:ann"]), ("b", False, [])])
    conn = SimpleNamespace(player="key:eve")
    assert history_tables(server, conn, P.ListTables(history=True), 0, 10).total == 1
    with (tmp_path / "history.jsonl").open("ab") as f:
        f.write(
            msgspec.json.encode(P.HistoryInfo(id="c", name="c", players=[], private=True, holders=["key:eve"])) + b"\n"
        )
        f.write(
            msgspec.json.encode(P.HistoryInfo(id="d", name="d", players=[], private=True, holders=["key:ann"])) + b"\n"
        )
    server.history_count = 4
    page = history_tables(server, conn, P.ListTables(history=True), 0, 10)
    assert [h.id for h in page.history] == ["c", "b"] and page.total == 2
    assert all(h.holders == [] for h in page.history)  # who played is never sent
