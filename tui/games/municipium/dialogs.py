"""One dialog per kind of decision the Municipium engine asks (``which.dialog_for`` picks it):
here placement, the move, the card and the citizens; the powers are in ``power_dialogs``.

Every list is built from ``legal(state)``; every preview from a trial ``apply`` or an engine
query (``facts``).  Multi-step choices (a move, a Tavern pull, a rearrangement) open sub-lists;
Escape goes back one step.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from colosseum.core.games.municipium import MuniAction
from colosseum.core.games.municipium.actions import (
    DrawCommon,
    GreatFamilyOption,
    KeepCitizens,
    Move,
    Pass,
    PlaceCitizen,
    PlayFamily,
)
from colosseum.core.games.municipium.board import influence, led_by, ranking
from colosseum.core.games.municipium.model import (
    CitizenEventFrame,
)

from .dialog_base import Entry, ListDialog, MuniDialog, entry
from .facts import after, gains_lines, rank_text, ranks_lines
from .text import ROMAN, bag_text, cat, fit, inst_label, inst_name, kind_index, kind_letter, kind_style

DIM = Style(dim=True)
BOLD = Style(bold=True)


def _inst_of(a: MuniAction) -> int:
    return int(getattr(a, "institution", -1))


# ====================================================================== placement and cards


class PlaceMemberDialog(ListDialog):
    heading = "Place a member"

    def prompt_text(self) -> str:
        left = cat().counts.members - self.state.placed // self.state.n
        return f"Place a member ({left} of 7 to place)"

    def label(self, a: MuniAction) -> Text:
        i = _inst_of(a)
        t = Text(f"{ROMAN[i]:<4}{inst_name(i):<11}")
        t.append(f"you {influence(self.state, self.seat, i)}", DIM)
        return t

    def preview(self, chosen: Entry | None) -> Sequence[Text | str]:
        if chosen is None:
            return ()
        i = _inst_of(chosen.payload)
        out: list[Text | str] = [
            *ranks_lines(
                self.state, after(self.state, chosen.payload), [i], self.dark, self.text_width, theme=self.theme_name
            )
        ]
        power = cat().institutions[i].power
        out.append(Text(power[:1].upper() + power[1:] + ".", DIM))
        if i == 0:
            out.append(Text("Most Temple members take space I.", DIM))
        return out


CARD_TEXT = {
    "governors_visit": "The governor moves on; a governor event there.",
    "citizens_visit": "Each player draws a citizen and places it.",
    "one_power": "Each player may use one power where they lead.",
    "all_powers": "Each institution's leader may use its power, 0 to VI.",
    "citizens_invitation": "Draw 4 citizens and place them one by one.",
    "great_family": "Move the governor, or rearrange your members.",
    "your_powers": "Use every power where you lead, 0 to VI.",
}


class CardDialog(ListDialog):
    heading = "Play a card"

    def prompt_text(self) -> str:
        return "Draw a common card or play a family card"

    def label(self, a: MuniAction) -> Text:
        if isinstance(a, DrawCommon):
            return Text(f"Draw a common card ({len(self.state.deck)} left)")
        assert isinstance(a, PlayFamily)
        return Text(f"Family: {cat().card_name(a.card)}")

    def preview(self, chosen: Entry | None) -> Sequence[Text | str]:
        if chosen is None:
            return ()
        st = self.state
        a = chosen.payload
        c = cat()
        if isinstance(a, DrawCommon):
            counts: dict[str, int] = {}
            for card in st.deck or st.discard:
                counts[card] = counts.get(card, 0) + 1
            where = "The deck holds" if st.deck else "The discard is reshuffled:"
            out: list[Text | str] = [Text(where, BOLD)]
            out += [f" {n} {c.card_name(card)}" for card, n in sorted(counts.items())]
            return out
        out = [Text(CARD_TEXT[a.card])]
        if a.card == "your_powers":
            led = led_by(st, self.seat)
            out.append("You lead: " + (", ".join(inst_label(i) for i in led) if led else "nowhere"))
        elif a.card == "great_family":
            g = c.route[st.governor]
            out.append(Text(f"Governor to {inst_label(g)}:", BOLD))
            out.extend(ranks_lines(st, None, [g], self.dark, self.text_width, theme=self.theme_name))
            played = after(st, a)
            later = after(played, GreatFamilyOption(player=self.seat, option="governor")) if played else None
            if later is not None:
                out.extend(gains_lines(st, later, self.dark, theme=self.theme_name))
        elif a.card == "citizens_invitation":
            out.append(bag_text(st, self.dark))
        return out


# ====================================================================== the move


class MoveDialog(MuniDialog):
    """Stages: [] pick a member (or no move); [first] pick where; [first, to] a second member
    (or done); [first, to, second] where the second goes.  A two-step move ends the move."""

    heading = "Move"

    def moves(self) -> list[Move]:
        return [a for a in self.legal() if isinstance(a, Move)]

    def prompt_text(self) -> str:
        n = len(self.stage)
        return (
            "Move a member, or none",
            "Where to?",
            "A second member (one step)?",
            "Where does it go?",
        )[n]

    def _pieces(self, paths: list[tuple[int, bool]]) -> list[Entry]:
        out: list[Entry] = []
        for frm, crowned in dict.fromkeys(paths):
            p = self.state.players[self.seat]
            have = p.crowned[frm] if crowned else p.plain[frm]
            what = "crowned member" if crowned else "member"
            out.append(entry(f"p{frm}{int(crowned)}", f"{what} at {inst_label(frm)} ({have})", payload=(frm, crowned)))
        return out

    def entries(self) -> list[Entry]:
        moves = self.moves()
        st = self.stage
        if not st:
            out = [entry("none", "No move", payload="none")]
            return out + self._pieces([(m.paths[0].frm, m.paths[0].crowned) for m in moves if len(m.paths) == 1])
        if len(st) == 1:
            frm, crowned = st[0]
            out = []
            for m in moves:
                x = m.paths[0]
                if len(m.paths) == 1 and (x.frm, x.crowned) == (frm, crowned):
                    steps = f"2 steps via {ROMAN[x.via]}" if x.via >= 0 else "1 step"
                    out.append(entry(f"t{x.to}{x.via}", f"{inst_label(x.to):<14}", (steps, DIM), payload=m))
            return out
        first: Move = st[1]
        if len(st) == 2:
            pairs = [m for m in moves if len(m.paths) == 2 and first.paths[0] in m.paths]
            others = []
            for m in pairs:
                y = m.paths[1] if m.paths[0] == first.paths[0] else m.paths[0]
                others.append((y.frm, y.crowned))
            return [entry("done", "Done: just this one", payload="done"), *self._pieces(others)]
        frm, crowned = st[2]
        out = []
        for m in moves:
            if len(m.paths) != 2 or first.paths[0] not in m.paths:
                continue
            y = m.paths[1] if m.paths[0] == first.paths[0] else m.paths[0]
            if (y.frm, y.crowned) == (frm, crowned):
                out.append(entry(f"t{y.to}", f"{inst_label(y.to):<14}", ("1 step", DIM), payload=m))
        return out

    def choose(self, chosen: Entry) -> MuniAction | None:
        p = chosen.payload
        if p == "none":
            return Pass(player=self.seat)
        if p == "done":
            first: Move = self.stage[1]
            return first
        if isinstance(p, Move):
            if len(self.stage) == 1 and p.paths[0].via < 0 and self._has_second(p):
                self.stage.append(p)
                return None
            return p
        self.stage.append(p)
        return None

    def _has_second(self, first: Move) -> bool:
        return any(len(m.paths) == 2 and first.paths[0] in m.paths for m in self.moves())

    def preview(self, chosen: Entry | None) -> Sequence[Text | str]:
        if chosen is None:
            return ()
        p = chosen.payload
        move: Move | None = None
        if isinstance(p, Move):
            move = p
        elif p == "done":
            move = self.stage[1]
        if move is None:
            if p == "none":
                return [Text("Keep every member where it is.", DIM)]
            frm = p[0]
            return ranks_lines(self.state, None, [frm], self.dark, self.text_width, theme=self.theme_name)
        later = after(self.state, move)
        insts = [i for x in move.paths for i in (x.frm, x.to)]
        return ranks_lines(self.state, later, insts, self.dark, self.text_width, theme=self.theme_name)


# ====================================================================== citizens


class PlaceCitizenDialog(ListDialog):
    heading = "Place a citizen"

    def label(self, a: MuniAction) -> Text:
        assert isinstance(a, PlaceCitizen)
        k = kind_index(a.kind)
        t = Text()
        t.append(f"{cat().kinds[k].name:<9}", kind_style(k, self.dark))
        t.append(f"{inst_label(a.institution):<14}")
        banner = self.state.banners[a.institution]
        t.append(f"{''.join(kind_letter(j) * n for j, n in enumerate(banner)) or '.':<3}", DIM)
        if sum(banner) == 2:
            t.append("event" if self.text_width >= 31 else "!", BOLD)
        return t

    def preview(self, chosen: Entry | None) -> Sequence[Text | str]:
        if chosen is None:
            return ()
        a = chosen.payload
        st = self.state
        out: list[Text | str] = [rank_text(st, a.institution, self.dark, theme=self.theme_name)]
        if sum(st.banners[a.institution]) < 2:
            out.append(Text("No citizen event yet (3 set it off).", DIM))
            return out
        later = after(st, a)
        if later is None:
            return out
        out.append(Text("Citizen event: 1st takes 2, 2nd the last.", BOLD))
        top = later.stack[-1] if later.stack else None
        if isinstance(top, CitizenEventFrame) and top.institution == a.institution:
            who = later.players[top.player].name
            out.append(f"{fit(who, 12)} chooses which 2 to keep.")
        else:
            out.extend(gains_lines(st, later, self.dark, theme=self.theme_name))
        return out


class KeepDialog(ListDialog):
    heading = "Citizen event"

    def prompt_text(self) -> str:
        top = self.state.stack[-1]
        assert isinstance(top, CitizenEventFrame)
        return f"At the {inst_name(top.institution)}: keep 2, leave 1"

    def label(self, a: MuniAction) -> Text:
        assert isinstance(a, KeepCitizens)
        top = self.state.stack[-1]
        assert isinstance(top, CitizenEventFrame)
        banner = list(self.state.banners[top.institution])
        k = kind_index(a.leave)
        banner[k] -= 1
        t = Text("Keep ")
        for j, n in enumerate(banner):
            t.append(kind_letter(j) * n, kind_style(j, self.dark))
        t.append(", leave ")
        t.append(cat().kinds[k].name.lower(), kind_style(k, self.dark))
        return t

    def preview(self, chosen: Entry | None) -> Sequence[Text | str]:
        top = self.state.stack[-1]
        assert isinstance(top, CitizenEventFrame)
        r = ranking(self.state, top.institution)
        out: list[Text | str] = []
        if len(r) > 1:
            out.append(Text(f"The one left goes to {fit(self.state.players[r[1]].name, 12)} (2nd).", DIM))
        else:
            out.append(Text("Nobody is 2nd: the one left goes to the bag.", DIM))
        return out + list(super().preview(chosen))


class ChamberDialog(ListDialog):
    heading = "Chamber citizen"

    def label(self, a: MuniAction) -> Text:
        i = _inst_of(a)
        return Text(inst_label(i) + ("  (governor here)" if self.state.governor == i else ""))

    def preview(self, chosen: Entry | None) -> Sequence[Text | str]:
        if chosen is None:
            return ()
        i = _inst_of(chosen.payload)
        return [
            Text("The 2nd there gets it at a governor event.", DIM),
            *ranks_lines(self.state, None, [i], self.dark, self.text_width, theme=self.theme_name),
        ]


class GenericDialog(ListDialog):
    """Any decision without its own dialog: the legal actions in words."""

    heading = "Choose"
