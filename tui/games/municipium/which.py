"""Which of Municipium's dialogs serves which decision (the shell's director asks
``dialog_for``): by the frame on top of the engine's stack, else by the phase."""

from __future__ import annotations

from typing import Any

from colosseum.core.games.municipium import MuniAction, State, to_act
from colosseum.core.games.municipium.model import (
    BasilicaFrame,
    ChamberFrame,
    CitizenEventFrame,
    EmporiumFrame,
    ForumFrame,
    GreatFamilyFrame,
    OfferFrame,
    PlaceFrame,
    RearrangeFrame,
    TavernFrame,
)
from colosseum.tui.session import GameSession

from .dialog_base import MuniDialog
from .dialogs import (
    CardDialog,
    ChamberDialog,
    GenericDialog,
    KeepDialog,
    MoveDialog,
    PlaceCitizenDialog,
    PlaceMemberDialog,
)
from .power_dialogs import (
    BasilicaDialog,
    EmporiumDialog,
    ForumDialog,
    GreatFamilyDialog,
    OfferDialog,
    RearrangeDialog,
    TavernDialog,
)

_BY_FRAME: dict[type[Any], type[MuniDialog]] = {
    PlaceFrame: PlaceCitizenDialog,
    CitizenEventFrame: KeepDialog,
    GreatFamilyFrame: GreatFamilyDialog,
    OfferFrame: OfferDialog,
    TavernFrame: TavernDialog,
    EmporiumFrame: EmporiumDialog,
    BasilicaFrame: BasilicaDialog,
    ForumFrame: ForumDialog,
    RearrangeFrame: RearrangeDialog,
    ChamberFrame: ChamberDialog,
}
_BY_PHASE: dict[str, type[MuniDialog]] = {"place": PlaceMemberDialog, "move": MoveDialog, "card": CardDialog}


def dialog_for(session: GameSession[State, MuniAction], seat: int) -> MuniDialog | None:
    """The dialog for the decision ``seat`` faces now, or None if it is not theirs."""
    st = session.state
    if to_act(st) != seat:
        return None
    cls: type[MuniDialog] = GenericDialog
    if st.stack:
        cls = _BY_FRAME.get(type(st.stack[-1]), GenericDialog)
    else:
        cls = _BY_PHASE.get(st.phase, GenericDialog)
    return cls(session, seat)
