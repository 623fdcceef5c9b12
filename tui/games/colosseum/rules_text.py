"""Colosseum's rules in short, in this project's own words (the full reading is RULES.md)."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

RULES = (
    (
        "The aim",
        [
            "3 to 5 impresarios stage spectacles over 4 rounds (5 in the classic game). Your Acclaim "
            "marker records your best single performance; the furthest marker at the end wins.",
            "Each round has five phases; in each, players act clockwise from the first player, and "
            "anyone may pass their turn.",
        ],
    ),
    (
        "Setup",
        [
            "Everyone starts with 30 coins and two gates on a free pair of starting spaces (chosen in "
            "reverse turn order), two small spectacles face down and a few performer tiles.",
        ],
    ),
    (
        "1 Invest",
        [
            "Up to two investments of different kinds: a gate (10) next to one of yours, a promoter "
            "(7, +5 Acclaim in every performance), a spectacle from the display (its price) or the "
            "Temple of Fortuna (7, once). Aquilas can be changed for 6 coins each.",
        ],
    ),
    (
        "2 Hire",
        [
            "Each player in turn may auction one full market (opening bid at least 8). Bidding goes "
            "round until all but one have passed; you can bid up to your coins plus 6 per Aquila. "
            "The winner pays, takes the three tiles and leaves a pillar in the empty market. If the "
            "active player did not win they may auction again.",
        ],
    ),
    (
        "3 Trade",
        [
            "The active player makes deals of performers, coins and Aquilas with anyone; every party "
            "must accept. Spectacles, stars, promoters and gifts are never traded.",
        ],
    ),
    (
        "4 Perform",
        [
            "Roll two dice and move two nobles (one per die) or one noble by the sum, clockwise, "
            "skipping occupied spaces; with the Temple a die may count as less. Ending on an Aquila "
            "space (*) earns an Aquila; Aquilas can move a noble 1-3 spaces either way.",
            "Then perform one spectacle you own: it needs 2/3/4 gates (small/medium/large) and "
            "enough performers; balatros fill any gap. Acclaim = the strip value for the missing "
            "count + 5 per earlier spectacle + 4 per matching Star Performer + nobles at your gates "
            "(emperor 7, consul 5, senator 3) + 5 per promoter + 3 per gift + 3 per Aquila spent. "
            "You also take that many coins. The most acclaimed player then takes a gift (+3 later).",
        ],
    ),
    (
        "5 Closing",
        [
            "Performers retire one matched tile; the spectacle turns face up. The least acclaimed "
            "steals a performer from the most acclaimed, then picks the next first player.",
        ],
    ),
    (
        "Star Performers",
        [
            "Whoever alone holds the most tiles of a type (at least 3) holds its Star; a tie never "
            "takes it from the holder.",
        ],
    ),
    (
        "The end",
        [
            "When no gift is left after a Perform phase the game ends. Each Aquila left adds 3 "
            "Acclaim. Ties: more coins, then more Star Performers, then the marker lower in the stack.",
        ],
    ),
)


#: The original 2007 edition (ruleset ``original``, O-1 to O-30): what differs from the above.
ORIGINAL_RULES = (
    (
        "The original 2007 edition (variant original)",
        [
            "5 rounds; the last has no Phase 5. Spectators are Acclaim, programs are spectacles, "
            "arena pieces are gates, medals are Aquilas.",
            "Setup: arenas stand on fixed spaces, the first one after the emperor is the first "
            "player's. 15 green tiles fill the markets; each player gets 8/6/5 of the others (3/4/5 "
            "players), the one left lies aside and is the first tile of the next refill. Each player "
            "is dealt one program from #1-5 and one from #6-10, face up.",
            "1 Invest: one investment, plus one more for 2 medals or a construction tile: an arena "
            "extension (10), a season ticket (10, +5 in every later performance), a program #11-30 "
            "(its price) or the Emperor's loge (5, 2 dice). Numbering rule: a program bought must "
            "be numbered above every program you have performed. No medal exchange.",
            "2 Hire: bids in coins only; a player who has won a lot bids no more this phase, not "
            "even as auctioneer. 3 Trade: tiles and coins only.",
            "4 Perform: 1 die (2 with the loge), no ranges, occupied spaces counted. +5 per "
            "program performed before, +4 per Star card, nobles, +5 per season ticket, +3 per "
            "podium, +3 per medal spent.",
            "5 Closing: the highest marker takes a podium (ties: coins, then dice); performers "
            "discard a tile used; the lowest of the others may take a normal tile from the podium "
            "winner; the first player passes to the left.",
            "The end: highest marker; ties: coins, then Star cards, then a shared win. Medals are worth nothing.",
        ],
    ),
)


def rules_text() -> Text:
    out = Text()
    for title, paras in (*RULES, *ORIGINAL_RULES):
        out.append(title + "\n", Style(bold=True))
        for p in paras:
            out.append(p + "\n")
        out.append("\n")
    out.append(
        "Rule ids (G-1 ... G-9, C-1 ... C-6, A07, O-1 ... O-30) in messages refer to the project's RULES.md.",
        Style(dim=True),
    )
    return out
