"""Options that another option implies are not recorded as chosen: the original 2007 edition
has one win per phase already (O-17), so its setup does not carry the 2007 auctions option
(before, `--variant original --option auction-2007` was recorded as "2007 auctions")."""

from __future__ import annotations

from colosseum.core.games.colosseum import GameSetup
from colosseum.core.options import described, make_setup


def test_the_original_edition_does_not_record_the_2007_auctions_option():
    setup = make_setup(GameSetup, ("a", "b", "c"), seed=1, variant="original", options=("auction-2007",))
    assert setup.options == () and "2007 auctions" not in str(described(setup))
    for variant in ("grand", "classic"):
        kept = make_setup(GameSetup, ("a", "b", "c"), seed=1, variant=variant, options=("auction-2007",))
        assert kept.options == ("auction-2007",)
    # a log's setup is read as it was written
    old = GameSetup(players=("a", "b", "c"), seed=1, variant="original", options=("auction-2007",))
    assert old.options == ("auction-2007",)
