"""The hint ("what would the hard bot do?"): it changes nothing, it is reproducible on a node
budget, and it is kept in the log as a hint line that older readers take for table talk."""

from __future__ import annotations

import msgspec

from colosseum.core.gamelog import ChatLine, HintLine, encode_hint_line
from colosseum.core.games.colosseum import apply, encode_state, legal, new_game, to_act
from colosseum.core.games.colosseum.bots.hint import HINT_OPTIONS, ask_hint
from colosseum.core.logread import read_log
from colosseum.core.logwriter import LogWriter
from colosseum.core.simulate import make_bots, make_setup


def position(seed: int = 3, steps: int = 40):
    state = new_game(make_setup(4, seed))
    bots = make_bots(["greedy"] * 4, seed)
    actions = []
    for _ in range(steps):
        action = bots[to_act(state)].act(state)
        actions.append(action)
        state, _ = apply(state, action)
    return state, actions


def hinted_position():
    """A position in an auction (hire phase, a choice the search compares)."""
    state, actions = position(steps=0)
    bots = make_bots(["greedy"] * 4, 3)
    while not (state.phase == "hire" and len(legal(state)) > 2):
        action = bots[to_act(state)].act(state)
        actions.append(action)
        state, _ = apply(state, action)
    return state, actions


def test_a_hint_changes_nothing_and_is_reproducible():
    state, _ = hinted_position()
    before = encode_state(state)
    a = ask_hint(state, playouts=16, when=0.0)
    assert encode_state(state) == before
    b = ask_hint(state, playouts=16, when=0.0)
    assert a == b  # same position, same node budget: the same hint
    assert a.seat == to_act(state) and a.after == state.actions
    assert 1 <= len(a.hint) <= HINT_OPTIONS
    best = a.hint[0]
    apply(state, best.action)  # the choice is legal
    assert best.playouts > 0 and 0.0 <= best.win <= 1.0 and best.text
    assert a.chat.startswith(f"Hint for {state.players[a.seat].name}: ")


def test_hint_lines_in_the_log(tmp_path):
    state, actions = hinted_position()
    line = ask_hint(state, playouts=8, when=1.5)
    from colosseum.core.gamelog import make_header

    header = make_header(state.setup, ["human"] * 4)
    with LogWriter.create(tmp_path, "g", header, actions) as w:
        w.append_hint(line)
        w.append_chat(ChatLine(chat="hello", name="Kat", seat=1, after=len(actions)))
        path = w.path
    log = read_log(path)
    assert log.error is None and len(log.actions) == len(actions)
    assert log.hints == [line]
    assert [c.chat for c in log.chat] == ["hello"]  # a hint is not table talk to this reader
    # a reader from before hint lines reads it as a chat line: the sentence, the speaker "hint"
    raw = encode_hint_line(line)
    assert raw.startswith(b'{"chat"')
    old = msgspec.json.decode(raw, type=ChatLine)
    assert old.chat == line.chat and old.name == "hint" and old.after == line.after
    # an action is read as its JSON values (each game converts its own: logread does)
    assert msgspec.to_builtins(msgspec.json.decode(raw, type=HintLine)) == msgspec.to_builtins(line)


def test_a_forced_decision_gets_its_only_choice():
    state, _ = position(steps=0)
    # find a position with a single legal action
    bots = make_bots(["greedy"] * 4, 3)
    while len(legal(state)) != 1:
        state, _ = apply(state, bots[to_act(state)].act(state))
    line = ask_hint(state, playouts=8, when=0.0)
    assert len(line.hint) == 1 and line.hint[0].action == legal(state).actions[0]


def test_a_hints_words_never_tell_the_chance_to_come():
    """A roll or a card turned over is said without its outcome (the log would tell it, and
    the hint is shown before the player chooses: issue 28's guided game shows it unasked)."""
    from colosseum.core.registry import rules

    for game in ("colosseum", "municipium"):
        kind = rules(game)
        state = kind.new_game(kind.spec.make_setup(kind.spec.default_names[:3], seed=5))
        bot = kind.make_bot("normal", 1)
        said: set[str] = set()
        for _ in range(400):
            if kind.is_over(state):
                break
            legal_now = kind.legal_actions(state)
            for action in legal_now if len(legal_now) <= 8 else legal_now[:4]:
                text = kind.action_text(state, action)
                assert text == kind.action_text(kind.determinised(state, 7), action), text  # under any luck
                said.add(text)
            state = kind.apply(state, bot.act(state))[0]
        assert any(t.endswith(("rolls the dice", "turns over the common card")) for t in said), game


def test_after_the_choice_the_hint_names_the_best_measured_alternative_first():
    """The search plays every candidate a couple of times, then only its choice and the best
    other to the end: that finalist comes next in the hint, before a candidate dropped after two
    playouts whose share is noise (it was listed by its score: 2 playouts at 50% above 10)."""
    from colosseum.core.registry import rules

    R = rules("colosseum")
    seen = 0
    for seed in (1, 3):
        st = R.new_game(make_setup(4, seed))
        bots = [R.make_bot("normal", i) for i in range(4)]
        for k in range(200):
            if k % 37 == 5:
                counts = [o.playouts for o in R.hint(st, playouts=24).hint]
                assert counts[1:] == sorted(counts[1:], reverse=True), (seed, k, counts)
                seen += len(counts) == HINT_OPTIONS and counts[1] == counts[0]
            st, _ = R.apply(st, bots[R.to_act(st)].act(st))
    assert seen  # positions with a finalist beside the choice were asked about
