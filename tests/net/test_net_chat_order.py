"""A game's talk reaches a joining client (a reconnect, a second window, a spectator) in its
log where it was said.  Before, every line of talk came after the last move, so old talk pushed
the newest moves out of the log panel and read as if said just now."""

from __future__ import annotations

from colosseum.core.events import Event
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.chat import Chat, with_talk


def _ev(text: str) -> Event:
    return Event(kind="move", text=text)


def _line(text: str, at: int) -> P.ChatLine:
    return P.ChatLine(table="t", name="小明", text=text, at=at)


def test_each_line_stands_after_the_moves_before_it():
    events = [_ev("a1"), _ev("a2"), _ev("b1"), _ev("c1")]
    marks = [0, 2, 3, 4]  # action 0 made a1 a2, action 1 b1, action 2 c1
    lines = [_line("hello", 0), _line("[b]gg[/b]", 2), _line("again", 2), _line("now", 3), _line("lost", -1)]
    got = [e.text for e in with_talk(events, marks, lines, 100)]
    assert got == [
        "小明: hello",
        "a1",
        "a2",
        "b1",
        "小明: [b]gg[/b]",
        "小明: again",
        "c1",
        "小明: now",
        "小明: lost",  # a line whose place is not known (read back after a restart) goes last
    ]
    assert [e.text for e in with_talk(events, marks, lines, 3)] == ["c1", "小明: now", "小明: lost"]
    assert with_talk([], [0], [], 10) == []


def test_a_line_is_told_where_it_was_said():
    talk = Chat("t")
    played = [1, 2, 3]
    talk.at = lambda: len(played)
    line = talk.say("Aurelia Maximiliana Cornelia", 1, "hi")
    assert line is not None and line.at == 3


def test_a_forks_name_keeps_its_note_whole():
    from rich.cells import cell_len

    from colosseum.tui.net.host.finished import fork_name

    assert fork_name("Friday", 12) == "Friday (fork at 12)"
    for name in ("[bold]x[/] 罗马斗兽场 [red]arena table", "漢" * 20, "a" * 40):
        got = fork_name(name, 123)
        assert got.endswith("~ (fork at 123)") and cell_len(got) <= P.TABLE_NAME_CELLS
