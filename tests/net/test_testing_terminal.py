"""The small terminal the SSH tests read screens with (``host.testing.Terminal``): what Textual
writes, cut anywhere between reads, gives the screen a person sees."""

from __future__ import annotations

import base64

from colosseum.tui.net.host.testing import Terminal


def test_positions_wide_characters_erases_and_the_clipboard_survive_any_cut():
    link = "http://127.0.0.1:8080/login/abc.DEF"
    data = (
        b"\x1b[?1049h\x1b[1;1H\x1b[1;38;5;224;48;5;16m Lobby - you are \xe5\xb0\x8f\xe6\x98\x8e\x1b[0m\r\n"
        b"\x1b[3;5Hleft\x1b[3;2Hxx\x1b[2;1Hgone\x1b[2;1H\x1b[K\x1b[4;1H\xe5\xb0\x8fab\x1b[4;2Hz"
        b"\x1b]52;c;" + base64.b64encode(link.encode()) + b"\x07\x1b[5;79Hend"
    )
    for cut in range(1, 40):
        t = Terminal(80, 6)
        for i in range(0, len(data), cut):
            t.feed(data[i : i + cut])
        lines = t.lines()
        assert lines[0] == " Lobby - you are 小明", cut
        assert lines[1] == "" and lines[2] == " xx left"
        assert lines[3] == " zab"  # half of a wide character drawn over: the other half is blank
        assert lines[4].endswith("en")  # (nothing is written past the last column)
        assert t.clipboard == link
