"""The dialogs of the institution powers and of Great Family: use or pass, the Tavern's pull,
the Emporium's draws, the Basilica's exchange, the Forum's take and the rearrangement (a series
of relocations closed by Done, DM-1).  Lists come from ``legal``; previews from ``facts``."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from colosseum.core.games.municipium import MuniAction
from colosseum.core.games.municipium.actions import (
    BasilicaDraw,
    EmporiumDraw,
    Exchange,
    GreatFamilyOption,
    Pass,
    Pull,
    Relocate,
    Take,
    UsePower,
)
from colosseum.core.games.municipium.model import RearrangeFrame

from .dialog_base import Entry, ListDialog, MuniDialog, entry
from .facts import after, held_after_exchange, ranks_lines
from .text import bag_text, cat, fit, inst_label, kind_index, kind_letter, kind_style, letters, seat_style

DIM = Style(dim=True)
BOLD = Style(bold=True)


# ====================================================================== powers


class GreatFamilyDialog(ListDialog):
    heading = "Great Family"

    def label(self, a: MuniAction) -> Text:
        assert isinstance(a, GreatFamilyOption)
        if a.option == "governor":
            return Text(f"Governor to {inst_label(cat().route[self.state.governor])}")
        return Text("Rearrange your members")

    def preview(self, chosen: Entry | None) -> Sequence[Text | str]:
        if chosen is None:
            return ()
        if chosen.payload.option == "rearrange":
            return [Text("Move up to 7 of your members, one at a time, to any institution; Done ends.", DIM)]
        g = cat().route[self.state.governor]
        out: list[Text | str] = [Text("1st: the favour; 2nd: the chamber citizen.", DIM)]
        out += ranks_lines(self.state, None, [g], self.dark, self.text_width, theme=self.theme_name)
        return out + list(super().preview(chosen))


class OfferDialog(ListDialog):
    heading = "Power"

    def label(self, a: MuniAction) -> Text:
        if isinstance(a, Pass):
            return Text("Pass (do not use it)")
        assert isinstance(a, UsePower)
        return Text(f"Use {inst_label(a.institution)}")

    def preview(self, chosen: Entry | None) -> Sequence[Text | str]:
        if chosen is None or isinstance(chosen.payload, Pass):
            return ()
        i = chosen.payload.institution
        power = cat().institutions[i].power
        out: list[Text | str] = [Text(power[:1].upper() + power[1:] + ".")]
        return out + list(super().preview(chosen))


class EmporiumDialog(ListDialog):
    heading = "Emporium"

    def label(self, a: MuniAction) -> Text:
        return Text("Draw a citizen" if isinstance(a, EmporiumDraw) else "Stop")

    def preview(self, chosen: Entry | None) -> Sequence[Text | str]:
        return [
            bag_text(self.state, self.dark),
            Text("Each is placed before the next; a citizen event ends the drawing.", DIM),
        ]


class BasilicaDialog(ListDialog):
    heading = "Basilica"

    def prompt_text(self) -> str:
        return "Hand in 3 for a decurion, or draw"

    def label(self, a: MuniAction) -> Text:
        if isinstance(a, BasilicaDraw):
            return Text("Draw a citizen and keep it")
        assert isinstance(a, Exchange)
        t = Text("Give ")
        for k, n in enumerate(a.citizens):
            if n:
                t.append(kind_letter(k) * n, kind_style(k, self.dark))
        t.append("F" * a.favours, BOLD)
        return t

    def preview(self, chosen: Entry | None) -> Sequence[Text | str]:
        if chosen is None:
            return ()
        a = chosen.payload
        if isinstance(a, BasilicaDraw):
            return [bag_text(self.state, self.dark), Text("A full set is turned in at once.", DIM)]
        return [held_after_exchange(self.state, a), *super().preview(chosen)]


class ForumDialog(ListDialog):
    heading = "Forum"

    def label(self, a: MuniAction) -> Text:
        assert isinstance(a, Take)
        k = kind_index(a.kind)
        t = Text()
        t.append(f"{cat().kinds[k].name:<9}", kind_style(k, self.dark))
        t.append("from ")
        if a.seat >= 0:
            t.append(
                f"{letters(self.state, self.theme_name)[a.seat]} {fit(self.state.players[a.seat].name, 14)}",
                seat_style(self.state, a.seat, self.dark),
            )
        else:
            t.append(inst_label(a.institution))
        return t


# ====================================================================== moving members by power


class TavernDialog(MuniDialog):
    """Stages: [] whose members from where; [(owner, frm)] how many."""

    heading = "Tavern"

    def prompt_text(self) -> str:
        return "Pull whose members, from where?" if not self.stage else "How many?"

    def pulls(self) -> list[Pull]:
        return [a for a in self.legal() if isinstance(a, Pull)]

    def entries(self) -> list[Entry]:
        st = self.state
        if not self.stage:
            out = []
            for owner, frm in dict.fromkeys((a.owner, a.frm) for a in self.pulls()):
                p = st.players[owner]
                t = Text(f"{letters(st, self.theme_name)[owner]} {fit(p.name, 10)}", seat_style(st, owner, self.dark))
                t.append(f" {p.plain[frm] + p.crowned[frm]} at {inst_label(frm)}")
                out.append(Entry(f"g{owner}.{frm}", t, (owner, frm)))
            return out
        owner, frm = self.stage[0]
        out = []
        for a in self.pulls():
            if (a.owner, a.frm) == (owner, frm):
                label = f"{a.plain + a.crowned} member{'s' if a.plain + a.crowned > 1 else ''}"
                if a.crowned:
                    label += f" ({a.crowned} crowned)"
                out.append(entry(f"n{a.plain}.{a.crowned}", label, payload=a))
        return out

    def choose(self, chosen: Entry) -> MuniAction | None:
        if isinstance(chosen.payload, Pull):
            return chosen.payload
        self.stage.append(chosen.payload)
        return None

    def preview(self, chosen: Entry | None) -> Sequence[Text | str]:
        if chosen is None:
            return ()
        if isinstance(chosen.payload, Pull):
            a = chosen.payload
            return ranks_lines(
                self.state, after(self.state, a), [a.frm, 1], self.dark, self.text_width, theme=self.theme_name
            )
        return ranks_lines(self.state, None, [chosen.payload[1], 1], self.dark, self.text_width, theme=self.theme_name)


class RearrangeDialog(MuniDialog):
    """Stages: [] a member to relocate (or done); [(frm, crowned)] where it goes (DM-1)."""

    heading = "Rearrange"

    def prompt_text(self) -> str:
        top = self.state.stack[-1]
        left = top.left if isinstance(top, RearrangeFrame) else 0
        return f"Relocate a member ({left} left)" if not self.stage else "To which institution?"

    def relocations(self) -> list[Relocate]:
        return [a for a in self.legal() if isinstance(a, Relocate)]

    def entries(self) -> list[Entry]:
        p = self.state.players[self.seat]
        if not self.stage:
            out = [entry("done", "Done", payload=Pass(player=self.seat))]
            for frm, crowned in dict.fromkeys((a.frm, a.crowned) for a in self.relocations()):
                have = p.crowned[frm] if crowned else p.plain[frm]
                what = "crowned member" if crowned else "member"
                out.append(
                    entry(f"p{frm}{int(crowned)}", f"{what} at {inst_label(frm)} ({have})", payload=(frm, crowned))
                )
            return out
        frm, crowned = self.stage[0]
        return [
            entry(f"t{a.to}", f"to {inst_label(a.to)}", payload=a)
            for a in self.relocations()
            if (a.frm, a.crowned) == (frm, crowned)
        ]

    def choose(self, chosen: Entry) -> MuniAction | None:
        if isinstance(chosen.payload, Pass | Relocate):
            return chosen.payload
        self.stage.append(chosen.payload)
        return None

    def preview(self, chosen: Entry | None) -> Sequence[Text | str]:
        if chosen is None:
            return ()
        a = chosen.payload
        if isinstance(a, Pass):
            return [Text("End the rearrangement.", DIM)]
        if isinstance(a, Relocate):
            return ranks_lines(
                self.state, after(self.state, a), [a.frm, a.to], self.dark, self.text_width, theme=self.theme_name
            )
        return ranks_lines(self.state, None, [a[0]], self.dark, self.text_width, theme=self.theme_name)
