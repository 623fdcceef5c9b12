"""G-2 Phase 1: make investments (gate, promoter, spectacle, temple), exchange Aquilas, end
the turn.  Classic extras (C-3) and construction tiles (C-5) appear when ``legal`` offers them.
In the original 2007 edition (O-11 to O-15) the same rows offer an arena extension, a season
ticket, a numbered program (with the numbering rule explained) and the Emperor's loge."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding

from colosseum.core.games.colosseum.actions import (
    Action,
    BuildGate,
    BuildLoge,
    BuildTemple,
    BuySeasonTicket,
    ConstructionForAquila,
    EndTurn,
    ExchangeAquilas,
    Extra,
    HirePromoter,
    PlanSpectacle,
)
from colosseum.core.games.colosseum.engine import gate_owner
from colosseum.core.games.colosseum.model import State
from colosseum.core.games.colosseum.queries import numbering_floor
from colosseum.tui.games.colosseum.common import a_word
from colosseum.tui.plain import OptionList, Static

from ._text import after, coins, gate_nobles_acclaim, need_text, plural, progress, rule_error, space_text
from .base import ChoiceList, DecisionDialog, option

if TYPE_CHECKING:
    from textual.widgets.option_list import Option

    from colosseum.tui.session import GameSession

#: ``add(oid, key, label, price, offered, why, detail)``: one row of the main menu.
_Add = Callable[[str, str, str, str, list[Extra], str, str], None]
#: ``extras(cls)``: the payments (C-3, O-11) with which ``legal`` offers actions of ``cls``.
_Extras = Callable[[type], list[Extra]]

KIND_LABEL = {"gate": "gate", "promoter": "promoter", "spectacle": "spectacle", "temple": "temple"}
EXTRA_LABEL = {"": "", "aquilas": "extra, pay 2 Aquilas", "construction": "extra, pay a construction tile"}
#: The investments made this turn (``InvestTurn.made``) in the original edition's words.
_KINDS_2007 = {"gate": "arena extension", "season_ticket": "season ticket", "spectacle": "program", "loge": "loge"}
EXTRA_LABEL_2007 = {"": "", "aquilas": "extra, pay 2 medals", "construction": "extra, pay a construction tile"}


class _Shown:
    def __init__(self, dialog: DecisionDialog, wid: str) -> None:
        self.dialog, self.wid = dialog, wid

    def update(self, text: str | Text) -> None:
        self.dialog.show(self.wid, text)


class InvestDialog(DecisionDialog):
    heading = "Investments"

    BINDINGS = [
        Binding("escape", "back", "back", id="dialog.back", key_display="esc", priority=True),
        DecisionDialog.ESCAPE_CLOSE,
        Binding("enter", "confirm", "select", id="dialog.confirm", key_display="enter", priority=True),
        Binding("b", "pick('gate')", "gate", show=False, id="invest.gate"),
        Binding("o", "pick('promoter')", "promoter", show=False, id="invest.promoter"),
        Binding("s", "pick('plan')", "spectacle", show=False, id="invest.plan"),
        Binding("t", "pick('temple')", "temple", show=False, id="invest.temple"),
        Binding("x", "pick('exchange')", "exchange", show=False, id="invest.exchange"),
        Binding("p", "end_turn", "end turn", id="invest.end"),
    ]

    def __init__(self, session: GameSession, seat: int) -> None:
        super().__init__(session, seat)
        self.mode = "main"  # main | gate:<extra> | plan:<extra> | exchange
        self._detail_for: dict[str, str] = {}

    @classmethod
    def decision_key(cls, state: State, seat: int) -> Hashable | None:
        if state.phase == "invest" and state.invest is not None and state.invest.player == seat:
            return ("invest", state.round, seat)
        return None

    def compose_body(self) -> ComposeResult:
        yield Static(classes="info", id="info")
        yield ChoiceList(id="choices", classes="gap")
        yield Static(classes="info gap", id="detail")

    # ------------------------------------------------------------------ view

    @property
    def original(self) -> bool:
        """The original 2007 edition: season tickets, the loge, numbered programs (O-11..O-15)."""
        return self.cat.rules.upgrades == "ticket-loge"

    def refresh_view(self) -> None:
        st = self.state
        p = self.me
        turn = st.invest
        names = _KINDS_2007 if self.original else {}
        made = ", ".join(names.get(k, k) for k in turn.made) if turn and turn.made else "nothing yet"
        self.set_prompt(self._prompt())
        aq = plural(p.aquilas, "medal") if self.original else plural(p.aquilas, "Aquila")
        info = f"You have {coins(p.coins)} and {aq}. Made this turn: {made}."
        if self.original and self.mode.startswith("plan:"):  # O-12, where a player buys
            floor = numbering_floor(self.cat, p)
            info = f"You have {coins(p.coins)}. " + _numbering_text(floor, short=True)
        self.query_one("#info", Static).update(info)
        if self.mode == "main":
            opts = self._main_options()
        elif self.mode.startswith("gate:"):
            opts = self._gate_options(self.mode.split(":", 1)[1])
        elif self.mode.startswith("plan:"):
            opts = self._plan_options(self.mode.split(":", 1)[1])
        else:
            opts = self._exchange_options()
        self.query_one("#choices", ChoiceList).set_choices(opts)
        self._show_detail()

    def _prompt(self) -> str:
        name = self.me.name
        if self.mode.startswith("gate:"):
            return f"{name}: build {a_word(self.cat.term('gate'))} on which space?"
        if self.mode.startswith("plan:"):
            return f"{name}: buy which program?" if self.original else f"{name}: plan which spectacle?"
        if self.mode == "exchange":
            return f"{name}: exchange how many {self.cat.term('aquilas')}?"
        return f"{name}: make an investment or end the turn"

    def _legal(self) -> tuple[Action, ...]:
        return self.choices().actions

    def _main_options(self) -> list[Option]:
        acts = self._legal()
        self._detail_for = {}
        opts: list[Option] = []

        def extras(cls: type) -> list[Extra]:
            found: list[Extra] = []
            for a in acts:
                extra = _extra(getattr(a, "extra", "")) if isinstance(a, cls) else None
                if extra is not None and extra not in found:
                    found.append(extra)
            return found

        labels = EXTRA_LABEL_2007 if self.original else EXTRA_LABEL

        def add(oid: str, key: str, label: str, price: str, offered: list[Extra], why: str, detail: str = "") -> None:
            if offered:
                for extra in offered:
                    tail = f"  [{labels[extra]}]" if extra else ""
                    opts.append(option(f"{oid}:{extra}", (f"{key}  ", "bold"), f"{label:<20}{price:>5}{tail}"))
                    self._detail_for[f"{oid}:{extra}"] = detail
            else:
                opts.append(option(f"{oid}:", f"{key}  ", f"{label:<20}{price:>5}", disabled=True, why=why))

        if self.original:
            self._original_rows(acts, add, extras)  # O-11: no medal exchange
        else:
            self._grand_rows(acts, add, extras)
            self._exchange_row(acts, opts)
        # C-5
        if any(isinstance(a, ConstructionForAquila) for a in acts):
            if self.original:
                opts.append(option("construction:", "   ", "Construction tile -> 1 medal"))
                self._detail_for["construction:"] = "Discard a construction tile for a medal (O-3)."
            else:
                opts.append(option("construction:", "   ", "Construction tile -> 1 Aquila"))
                self._detail_for["construction:"] = "Discard a construction tile for an Aquila (C-5)."
        opts.append(option("end:", ("p  ", "bold"), "End the turn"))
        self._detail_for["end:"] = "Finish your investments; the next player invests."
        return opts

    def _grand_rows(self, acts: tuple[Action, ...], add: _Add, extras: _Extras) -> None:
        """G-2: gate, promoter, spectacle, temple."""
        st = self.state
        c = self.cat.common
        p = self.me
        # gate
        gates = extras(BuildGate)
        why = ""
        if not gates:
            why = self._gate_why()
        add(
            "gate",
            "b",
            "Build a gate",
            coins(c.gate_cost),
            gates,
            why,
            f"Gates built: {len(p.gates)} of {c.gates}. A gate goes next to one of yours; "
            "nobles at your gates add Acclaim.",
        )
        # promoter
        prom = extras(HirePromoter)
        add(
            "promoter",
            "o",
            "Hire a promoter",
            coins(c.promoter_cost),
            prom,
            "" if prom else rule_error(st, HirePromoter(player=self.seat)) or "not now",
            f"+{c.promoter_acclaim} Acclaim in every performance. {st.promoters_left} left in the supply.",
        )
        # spectacle
        plans = extras(PlanSpectacle)
        why = ""
        if not plans:
            if not st.display:
                why = "the display is empty"
            else:
                cheapest = min(st.display, key=lambda i: self.cat.spectacles[i].cost)
                why = (
                    rule_error(st, PlanSpectacle(player=self.seat, spectacle=self.cat.spectacles[cheapest].key))
                    or "not now"
                )
        cheapest_cost = min((self.cat.spectacles[i].cost for i in st.display), default=0)
        add(
            "plan",
            "s",
            "Plan a spectacle",
            f"{coins(cheapest_cost)}+" if st.display else "",
            plans,
            why,
            f"{len(st.display)} medium and large spectacles on the display. Medium ones need 3 gates, large ones 4.",
        )
        # temple
        temple = extras(BuildTemple)
        add(
            "temple",
            "t",
            "Build the Temple",
            coins(c.temple_cost),
            temple,
            "" if temple else rule_error(st, BuildTemple(player=self.seat)) or "not now",
            "Temple of Fortuna: each die may count as any value from 1 to its face.",
        )

    def _exchange_row(self, acts: tuple[Action, ...], opts: list[Option]) -> None:
        """G-8: Aquilas for coins."""
        c = self.cat.common
        p = self.me
        # Aquila exchange
        ex = [a for a in acts if isinstance(a, ExchangeAquilas)]
        if ex:
            opts.append(option("exchange:", ("x  ", "bold"), f"Exchange Aquilas  {c.aquila_coins} coins each"))
        else:
            opts.append(option("exchange:", "x  ", "Exchange Aquilas", disabled=True, why="you have none"))
        self._detail_for["exchange:"] = f"You have {plural(p.aquilas, 'Aquila')}; each is worth {c.aquila_coins} coins."

    def _original_rows(self, acts: tuple[Action, ...], add: _Add, extras: _Extras) -> None:
        """O-13 to O-15 and O-12: arena extension, season ticket, numbered program, loge."""
        st = self.state
        cat = self.cat
        c = cat.common
        p = self.me
        gates = extras(BuildGate)
        add(
            "gate",
            "b",
            "Expand the arena",
            coins(c.gate_cost),
            gates,
            "" if gates else self._gate_why(),
            f"Arena: {len(p.gates)} of {c.gates} spaces. An extension goes next to either end of your arena; "
            "programs #11-20 need 3 spaces, #21-30 need 4.",
        )
        tickets = extras(BuySeasonTicket)
        add(
            "promoter",
            "o",
            "Buy a season ticket",
            coins(cat.promoter_price),
            tickets,
            "" if tickets else rule_error(st, BuySeasonTicket(player=self.seat)) or "not now",
            f"+{c.promoter_acclaim} spectators in every later performance; any number. "
            f"{st.promoters_left} left in the supply.",
        )
        plans = extras(PlanSpectacle)
        floor = numbering_floor(cat, p)
        why = ""
        if not plans:
            why = "the display is empty" if not st.display else self._plan_why()
        cheapest_cost = min((cat.spectacles[i].cost for i in st.display), default=0)
        add(
            "plan",
            "s",
            "Buy a program",
            f"{coins(cheapest_cost)}+" if st.display else "",
            plans,
            why,
            _numbering_text(floor),
        )
        loge = extras(BuildLoge)
        add(
            "temple",
            "t",
            "Build the loge",
            coins(cat.temple_price),
            loge,
            "" if loge else rule_error(st, BuildLoge(player=self.seat)) or "not now",
            "Emperor's loge (once): roll 2 dice in Phase 4 and move two nobles, or one by the sum.",
        )

    def _plan_why(self) -> str:
        st = self.state
        cheapest = min(st.display, key=lambda i: self.cat.spectacles[i].cost)
        return rule_error(st, PlanSpectacle(player=self.seat, spectacle=self.cat.spectacles[cheapest].key)) or "not now"

    def _gate_why(self) -> str:
        st = self.state
        p = self.me
        n_sp = self.cat.track_spaces
        cands = sorted({s for g in p.gates for s in ((g + 1) % n_sp, (g - 1) % n_sp)})
        free = [s for s in cands if gate_owner(st, s) < 0]
        space = free[0] if free else (cands[0] if cands else 0)
        why = rule_error(st, BuildGate(player=self.seat, space=space)) or "not now"
        if not free and "already holds" in why:
            return f"no free space next to your {self.cat.term('gates')}"
        return why

    def _gate_options(self, extra: str) -> list[Option]:
        spaces = [a.space for a in self._legal() if isinstance(a, BuildGate) and a.extra == extra]
        return [option(str(s), "S" + space_text(self.state, s, self.seat)[1:]) for s in spaces]

    def _plan_options(self, extra: str) -> list[Option]:
        st = self.state
        cat = self.cat
        offered = {a.spectacle for a in self._legal() if isinstance(a, PlanSpectacle) and a.extra == extra}
        opts = []
        if self.original:  # O-12: in program order, so the numbering rule reads at a glance
            order = sorted(st.display, key=lambda i: cat.spectacles[i].number_2007)
        else:
            order = sorted(st.display, key=lambda i: (cat.spectacles[i].cost, cat.spectacles[i].number))
        for sid in order:
            spec = cat.spectacles[sid]
            have, total = progress(cat, self.me.tiles, spec)
            text = Text.assemble(
                (cat.label(spec), "bold"),
                f" {coins(spec.cost)} ({have}/{total})\n",
                f"  {need_text(cat, spec)}",
            )
            if spec.key in offered:
                opts.append(option(spec.key, text))
            else:
                why = (
                    rule_error(st, PlanSpectacle(player=self.seat, spectacle=spec.key, extra=_extra(extra)))
                    or "not now"
                )
                why = why.replace(f"{spec.name} costs", "costs")
                opts.append(option(spec.key, text, disabled=True, why=why))
        return opts

    def _exchange_options(self) -> list[Option]:
        c = self.cat.common
        p = self.me
        return [
            option(
                str(a.count),
                f"{plural(a.count, 'Aquila')} for {coins(a.count * c.aquila_coins)}"
                f"  (you will have {coins(p.coins + a.count * c.aquila_coins)})",
            )
            for a in self._legal()
            if isinstance(a, ExchangeAquilas)
        ]

    def _show_detail(self) -> None:
        chosen = self.query_one("#choices", ChoiceList).chosen
        self.set_preview(())
        detail = _Shown(self, "detail")
        if chosen is None:
            detail.update("")
            return
        if self.mode == "main":
            detail.update(self._detail_for.get(chosen, ""))
        elif self.mode.startswith("gate:"):
            space = int(chosen)
            text = f"Space {space} is highlighted on the board."
            gate = BuildGate(player=self.seat, space=space, extra=_extra(self.mode.split(":", 1)[1]))
            now = gate_nobles_acclaim(self.state, self.seat)
            nxt = after(self.state, gate)
            then = gate_nobles_acclaim(nxt, self.seat) if nxt is not None else None
            if now is not None and then is not None and then != now:
                text += f" Nobles at your {self.cat.term('gates')}: {now} -> {then} {self.cat.term('acclaim')}."
            detail.update(text)
            self.set_preview({space})
        elif self.mode.startswith("plan:"):
            cat = self.cat
            from colosseum.core.games.colosseum import spectacle_by_key

            spec = spectacle_by_key(cat, chosen)
            m_have, total = progress(cat, self.me.tiles, spec)
            strip = " ".join(str(v) for v in spec.strip[: spec.max_missing + 1])
            now = spec.acclaim_for_missing(total - m_have)
            score = (
                f"With your performers now it would score {now}."
                if now is not None
                else (f"You need at least {total - spec.max_missing} of its {total} performers to perform it.")
            )
            if self.original:
                detail.update(
                    f"{cat.label(spec)} needs an arena of {spec.gates} spaces; yours has {len(self.me.gates)}. "
                    f"You have {m_have} of its {total} performers. "
                    f"Spectators by performers missing (0, 1, ...): {strip}. {score}"
                )
            else:
                detail.update(
                    f"{spec.name} ({spec.size}) needs {spec.gates} gates; you have {len(self.me.gates)}. "
                    f"You have {m_have} of its {total} performers. "
                    f"Acclaim by performers missing (0, 1, ...): {strip}. {score}"
                )
        else:
            detail.update("")

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_detail()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_confirm()

    # ------------------------------------------------------------------ actions

    def _go(self, mode: str) -> None:
        self.mode = mode
        self.refresh_view()
        lst = self.query_one("#choices", ChoiceList)
        first = next((i for i, o in enumerate(lst.options) if not o.disabled), None)
        lst.highlighted = first
        self._show_detail()
        self.refresh_bindings()

    def can_back(self) -> bool:
        return self.mode != "main"

    def action_back(self) -> None:
        self._go("main")

    def can_confirm(self) -> bool:
        return self.my_turn() and self.query_one("#choices", ChoiceList).chosen is not None

    def action_confirm(self) -> None:
        chosen = self.query_one("#choices", ChoiceList).chosen
        if chosen is None:
            return
        seat = self.seat
        if self.mode == "main":
            kind, extra = chosen.split(":", 1)
            self._do_main(kind, extra)
        elif self.mode.startswith("gate:"):
            if self.submit(BuildGate(player=seat, space=int(chosen), extra=_extra(self.mode.split(":", 1)[1]))):
                self._back_if_open()
        elif self.mode.startswith("plan:"):
            if self.submit(PlanSpectacle(player=seat, spectacle=chosen, extra=_extra(self.mode.split(":", 1)[1]))):
                self._back_if_open()
        elif self.mode == "exchange":
            if self.submit(ExchangeAquilas(player=seat, count=int(chosen))):
                self._back_if_open()

    def _back_if_open(self) -> None:
        if not self.over and self.decision_open():
            self._go("main")

    def _do_main(self, kind: str, extra: str) -> None:
        seat = self.seat
        if kind == "gate":
            self._go(f"gate:{extra}")
        elif kind == "plan":
            self._go(f"plan:{extra}")
        elif kind == "exchange":
            self._go("exchange")
        elif kind == "promoter" and self.original:
            self.submit(BuySeasonTicket(player=seat, extra=_extra(extra)))
        elif kind == "promoter":
            self.submit(HirePromoter(player=seat, extra=_extra(extra)))
        elif kind == "temple" and self.original:
            self.submit(BuildLoge(player=seat, extra=_extra(extra)))
        elif kind == "temple":
            self.submit(BuildTemple(player=seat, extra=_extra(extra)))
        elif kind == "construction":
            self.submit(ConstructionForAquila(player=seat))
        elif kind == "end":
            self.submit(EndTurn(player=seat))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick" and parameters:
            kind = str(parameters[0])
            return self.mode == "main" and self._offered(kind)
        return super().check_action(action, parameters)

    def _offered(self, kind: str) -> bool:
        lst = self.query_one("#choices", ChoiceList)
        return any(o.id and o.id.split(":")[0] == kind and not o.disabled for o in lst.options)

    def action_pick(self, kind: str) -> None:
        """Shortcut letters: pick the first offered option of a kind."""
        lst = self.query_one("#choices", ChoiceList)
        for i, o in enumerate(lst.options):
            if o.id and o.id.split(":")[0] == kind and not o.disabled:
                lst.highlighted = i
                self.action_confirm()
                return

    def can_end_turn(self) -> bool:
        return self.my_turn() and any(isinstance(a, EndTurn) for a in self._legal())

    def action_end_turn(self) -> None:
        self.submit(EndTurn(player=self.seat))


def _numbering_text(floor: int, short: bool = False) -> str:
    """O-12, for a player about to buy: the numbering rule and where it stands for them."""
    if short:
        if floor:
            return f"Numbering rule: you have performed up to #{floor}, so only #{floor + 1} or higher."
        return "Numbering rule: buy above your performed programs; none yet, so any #11-30."
    rule = "Numbering rule: a program you buy must be numbered above every program you have performed"
    if floor:
        return f"{rule}; you have performed up to #{floor}, so buy #{floor + 1} or higher."
    return f"{rule}; you have performed none yet, so any program #11-30 may be bought."


def _extra(text: str) -> Extra:
    """A menu id's payment part back as the action field (ids are built from ``Extra`` values)."""
    if text not in EXTRA_LABEL:
        raise ValueError(f"not a way to pay for an investment: {text!r}")
    return cast(Extra, text)
