"""Player views: information hiding, legal actions, keys and consistent samples (R13, R23).

Random games come from seeds; every property is checked at many states of each game and
for every seat, so the ``thorough`` profile covers many thousands of views.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bohmisch_watten import (
    DECK,
    Action,
    Card,
    Exchange,
    GameState,
    IllegalActionError,
    LeaveCritical,
    Phase,
    PlayCard,
    PlayerView,
    Rank,
    Rules,
    Shuffle,
    TakeCritical,
    new_game,
)
from bohmisch_watten.cards import CARDS, bits
from bohmisch_watten.determinize import forbidden_mask
from bohmisch_watten.state import build_state as _build_state
from bohmisch_watten.tricks import legal_play_mask

from helpers import VARIANTS, cards, keep_all, play_cards, stack_pack

games = st.tuples(
    st.integers(2, 4), st.sampled_from(VARIANTS), st.integers(0, 2**32 - 1), st.integers(5, 400)
)


def play(num_players: int, rules: Rules, seed: int, steps: int) -> list[GameState]:
    """A random game of at most ``steps`` actions; every state on the way."""
    rng = random.Random(seed)
    state = new_game(num_players, rules=rules, dealer=rng.randrange(num_players))
    states = [state]
    for _ in range(steps):
        if state.is_terminal:
            break
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


def first_dealer(state: GameState) -> int:
    return (state.dealer - (state.deal_number - 1)) % state.num_players


def replay(state: GameState) -> GameState:
    """Replay ``state.history`` from its start, checking the seat of every action.

    The start is the state's start position with the deals before it (for a sample:
    the current deal's position and the view's record of earlier deals).
    """
    over = state.is_terminal and not state.history  # a sample of a finished game
    out = _build_state(
        position=state.start_position,
        past=state.past_deals,
        phase=Phase.GAME_OVER if over else Phase.DEAL,
    )
    for seat, action in state.history:
        assert out.current_player == seat
        out = out.apply(action)
    return out


def deals(history: tuple[tuple[int | None, Action], ...]) -> list[list[tuple[int | None, Action]]]:
    out: list[list[tuple[int | None, Action]]] = []
    for seat, action in history:
        if isinstance(action, Shuffle):
            out.append([])
        out[-1].append((seat, action))
    return out


def knowledge(state: GameState, player: int) -> list[tuple[int, int]]:
    """Per deal of the history, (cards ``player`` may know, cards everybody knows).

    Worked out by replaying the history, independently of the view code (R13, R23).
    """
    out = []
    s = new_game(state.num_players, rules=state.rules, dealer=first_dealer(state))
    for deal in deals(state.history):
        mine = public = 0
        for seat, action in deal:
            before, s = s, s.apply(action)
            if isinstance(action, TakeCritical):
                public |= 1 << before.stock[-1].index
            if isinstance(action, PlayCard):
                public |= 1 << action.card.index
            if isinstance(action, Exchange) and seat == player:
                after = {c.index for c in s.hands[player]}
                mine |= sum(1 << i for i in after)
            for looker, card, _, _ in s.cut_looks if s.phase is not Phase.DEAL else ():
                if looker == player:
                    mine |= 1 << card.index
            if s.phase is Phase.EXCHANGE and s.trump_card is not None:
                public |= 1 << s.trump_card.index
                mine |= sum(1 << c.index for c in s.hands[player])
            if s.phase is Phase.CUT:
                mine |= sum(1 << c.index for c in s.hands[player])
        out.append((mine | public, public))
    return out


def view_cards(view: PlayerView) -> tuple[int, list[int]]:
    """(cards named about the current deal, cards named per finished deal)."""
    current = view._hand | view._discards
    current |= sum(1 << i for i in view._draws)
    current |= sum(1 << c for _, c, _, _ in view._cut if c >= 0)
    current |= 1 << view._trump if view._trump >= 0 else 0
    for plays, _ in (*view._tricks, (view._trick, 0)):
        current |= sum(1 << c for _, c in plays)
    past = []
    for deal in view.past_deals:
        named = 1 << deal.trump.index | sum(1 << c.index for _, c, _, _ in deal.cut if c)
        for trick in deal.tricks:
            named |= sum(1 << c.index for _, c in trick.plays)
        past.append(named)
    return current, past


def swap_hidden(state: GameState, player: int, rng: random.Random) -> GameState | None:
    """A state that differs from ``state`` only in cards ``player`` cannot see.

    In every deal two cards hidden from ``player`` swap places (in the pack and in the
    other seats' discards) and the history is replayed; a swap that makes a recorded
    action illegal (it would change what the table saw) is skipped.
    """
    history = deals(state.history)
    known = knowledge(state, player)
    changed = False
    s = new_game(state.num_players, rules=state.rules, dealer=first_dealer(state))
    for deal, (mine, _) in zip(history, known, strict=True):
        hidden = [i for i in range(32) if not mine >> i & 1]
        done = False
        for _ in range(8 if len(hidden) >= 2 else 0):
            a, b = rng.sample(hidden, 2)
            swap = {a: b, b: a}

            def fix(card: Card, swap: dict[int, int] = swap) -> Card:
                return DECK[swap.get(card.index, card.index)]

            trial = s
            try:
                for seat, action in deal:
                    if isinstance(action, Shuffle):
                        action = Shuffle([fix(c) for c in action.pack])
                    elif isinstance(action, Exchange) and seat != player:
                        action = Exchange({fix(c) for c in action.discard}, action.take_trump_card)
                    trial = trial.apply(action)
            except IllegalActionError:
                continue
            s, done, changed = trial, True, True
            break
        if not done:
            for _, action in deal:
                s = s.apply(action)
    assert s.num_players == state.num_players
    return s if changed else None


def sample_points(states: list[GameState], every: int) -> Iterator[GameState]:
    yield states[-1]
    yield from states[::every]


# ---------------------------------------------------------------- properties


@pytest.mark.rule("R12", "R18", "R19", "R20", "R21", "R24", "R25", "R26")
@given(games)
def test_view_legal_actions_equal_state_legal_actions(game: tuple[int, Rules, int, int]) -> None:
    for state in play(*game):
        for p in range(state.num_players):
            view = state.view(p)
            expected = state.legal_actions() if state.current_player == p else ()
            assert view.legal_actions() == expected


@pytest.mark.rule("R13", "R23")
@given(games)
def test_view_names_only_cards_the_seat_may_know(game: tuple[int, Rules, int, int]) -> None:
    for state in sample_points(play(*game), 4):
        for p in range(state.num_players):
            view = state.view(p)
            known = knowledge(state, p)
            current, past = view_cards(view)
            in_deal = state.phase not in (Phase.DEAL, Phase.GAME_OVER)
            finished = known[:-1] if in_deal else known
            assert len(past) == len(finished)
            for named, (_, public) in zip(past, finished, strict=True):
                assert named & ~public == 0
            if in_deal:
                assert current & ~known[-1][0] == 0
            else:
                assert current == 0


@pytest.mark.rule("R13", "R23")
@given(games, st.integers(0, 2**32 - 1))
def test_no_leak_hidden_cards_do_not_change_the_view(
    game: tuple[int, Rules, int, int], seed: int
) -> None:
    rng = random.Random(seed)
    state = play(*game)[-1]
    for p in range(state.num_players):
        other = swap_hidden(state, p, rng)
        if other is None:
            continue
        assert other.history != state.history or other == state
        view, twin = state.view(p), other.view(p)
        assert view == twin
        assert view.to_dict() == twin.to_dict()
        assert view.information_set() == twin.information_set()
        # Samples depend on the view only: the same generator gives the same sample.
        assert view.sample_state(random.Random(seed)) == twin.sample_state(random.Random(seed))


@pytest.mark.rule("R13", "R23")
def test_no_leak_pairs_are_found() -> None:
    """The pair construction above really produces different states (it can fail)."""
    rng = random.Random(4)
    pairs = 0
    for seed in range(20):
        state = play(4, Rules(), seed, 60)[-1]
        for p in range(4):
            other = swap_hidden(state, p, rng)
            if other is not None and other != state:
                pairs += 1
                assert state.view(p) == other.view(p)
                assert any(a != b for a, b in zip(state.hands, other.hands, strict=True)) or (
                    state.history != other.history
                )
    assert pairs >= 40


@pytest.mark.rule("R11", "R13", "R15", "R18", "R19", "R23", "R25", "R26")
@given(games, st.integers(0, 2**32 - 1))
def test_samples_are_consistent_and_replay_legally(
    game: tuple[int, Rules, int, int], seed: int
) -> None:
    rng = random.Random(seed)
    for state in sample_points(play(*game), 9):
        for p in range(state.num_players):
            view = state.view(p)
            for _ in range(2):
                sample = view.sample_state(rng)
                assert sample.view(p) == view
                assert replay(sample) == sample  # every step legal, same state
                # Hidden cards stay hidden: 32 cards conserved, own cards untouched.
                assert sample.hands[p] == state.hands[p]
                assert sample.discards[p] == state.discards[p]
                held = [c for h in sample.hands for c in h] + list(sample.stock)
                held += [c for d in sample.discards for c in d]
                held += [c for t in sample.tricks for _, c in t.plays]
                held += [c for _, c in sample.trick]
                if sample.trump_card is not None and not sample.trump_card_taken:
                    held.append(sample.trump_card)
                if state.phase not in (Phase.DEAL, Phase.GAME_OVER):
                    assert sorted(held) == list(DECK)


@pytest.mark.rule("R13", "R23")
@given(st.lists(games, min_size=2, max_size=3))
def test_information_set_equal_exactly_when_views_equal(
    several: list[tuple[int, Rules, int, int]],
) -> None:
    views = []
    for game in several:
        for state in play(*game)[::7]:
            views += [state.view(p) for p in range(state.num_players)]
    keys = [v.information_set() for v in views]
    for v, k in zip(views, keys, strict=True):
        hash(k)
        for w, j in zip(views, keys, strict=True):
            assert (v == w) == (k == j)


@given(games)
def test_to_dict_is_plain_json(game: tuple[int, Rules, int, int]) -> None:
    def plain(x: Any) -> bool:
        if isinstance(x, dict):
            return all(isinstance(k, str) and plain(v) for k, v in x.items())
        if isinstance(x, list):
            return all(plain(v) for v in x)
        return x is None or isinstance(x, str | int | bool)

    for state in sample_points(play(*game), 10):
        for p in range(state.num_players):
            data = state.view(p).to_dict()
            assert plain(data)
            assert json.loads(json.dumps(data)) == data
            assert data["hand"] == sorted(data["hand"], key=lambda c: Card.parse(c).index)
            assert data["hand"] == [str(c) for c in state.hands[p]] or state.phase in (
                Phase.DEAL,
                Phase.GAME_OVER,
            )


@pytest.mark.rule("R25", "R26")
@given(
    st.integers(0, 3),
    st.booleans(),
    st.lists(st.integers(0, 35), min_size=2, max_size=9, unique=True),  # the Sixes too (R6)
    st.integers(1, 3),
)
def test_forbidden_mask_characterises_legal_plays(
    trump: int, must_head: bool, pool: list[int], lead: int
) -> None:
    trick = tuple((seat, card) for seat, card in enumerate(pool[:lead]))
    hand = pool[lead:]
    if not hand:
        return
    mask = sum(1 << c for c in hand)
    legal = legal_play_mask(mask, trick, trump, must_head)
    for c in hand:
        allowed = not mask & forbidden_mask(c, trick, trump, must_head)
        assert allowed == bool(legal >> c & 1)


# ------------------------------------------------------------------ examples


def test_view_rejects_bad_seats() -> None:
    state = new_game(3)
    for bad in (-1, 3):
        with pytest.raises(ValueError, match="player"):
            state.view(bad)
    for wrong in (True, "0", 1.0, None):
        with pytest.raises(TypeError, match=r"view\(player\): player must be an int"):
            state.view(wrong)  # type: ignore[arg-type]


@pytest.mark.rule("R13")
def test_left_critical_known_only_to_the_seat_that_looked() -> None:
    # 4 players, dealer 0, cutter 3 looks at Maxi (the bottom card) and leaves it.
    state = new_game(4, rules=Rules(), dealer=0)
    state = state.apply(stack_pack(4, 0, {}, "G9", bottom="HK"))
    assert state.phase is Phase.CUT
    assert state.current_player == 3
    cutter, other = state.view(3), state.view(1)
    assert cutter.cut_looks == ((3, Card.parse("HK"), False, True),)
    assert other.cut_looks == ((3, None, False, True),)
    assert cutter.legal_actions() == state.legal_actions()
    assert other.legal_actions() == ()
    rng = random.Random(1)
    seen = Counter()
    for _ in range(300):
        sample = other.sample_state(rng)
        assert sample.stock[-1].is_critical  # R13: the offered card is a Critical
        seen[str(sample.stock[-1])] += 1
    assert set(seen) == {"HK", "S7", "E7"}
    state = state.apply(LeaveCritical())
    view = state.view(1)
    assert view.cut_looks == ((3, None, False, True),)
    for _ in range(100):
        sample = view.sample_state(rng)
        assert sample.stock[-1].is_critical
        assert sample.view(1) == view


@pytest.mark.rule("R13", "R15")
def test_taken_critical_is_public_and_stays_with_its_taker() -> None:
    state = new_game(3, rules=Rules(), dealer=0)
    pack = stack_pack(3, 0, {2: "EA EK EO EU"}, "G9", bottom="S7 G8", taken={2: 1})
    state = state.apply(pack).apply(TakeCritical())
    assert state.phase is Phase.EXCHANGE
    view = state.view(1)
    assert view.cut_looks[0] == (2, Card.parse("S7"), True, True)
    assert view.cut_looks[1] == (0, None, False, False)  # the dealer saw a plain card
    rng = random.Random(2)
    for _ in range(200):
        sample = view.sample_state(rng)
        assert Card.parse("S7") in sample.hands[2]
        assert not sample.stock[-1].is_critical
        assert sample.view(1) == view


@pytest.mark.rule("R25")
def test_revealed_void_holds_in_every_sample() -> None:
    # 2 players, dealer 0, forehand 1 leads Acorns; the dealer does not follow.
    dealt = {1: "EA E9 G10 GO GU", 0: "SA S9 S8 G7 G8"}
    state = new_game(2, rules=Rules(), dealer=0)
    state = state.apply(stack_pack(2, 0, dealt, "H9", bottom="G9"))
    state = keep_all(state)
    state = play_cards(state, "EA G7")
    view = state.view(1)
    rng = random.Random(3)
    acorns = {c for c in DECK if c.suit == 0 and not c.is_critical}
    trumps = {c for c in DECK if c.suit == 2 or c.is_critical}
    for _ in range(300):
        sample = view.sample_state(rng)
        held = set(sample.hands[0])
        assert not held & acorns  # R25.1: did not follow, so void in Acorns
        assert not held & trumps  # R25.2: void and did not trump, so no trump either
        assert sample.view(1) == view


@pytest.mark.rule("R19")
def test_dealer_keeps_the_taken_trump_card_in_samples() -> None:
    state = new_game(3, rules=Rules(), dealer=0)
    state = state.apply(stack_pack(3, 0, {0: "EA EK EO EU E10"}, "G9", bottom="G8"))
    state = state.apply(Exchange(frozenset())).apply(Exchange(frozenset()))
    state = state.apply(Exchange(frozenset(cards("E10 EU")), take_trump_card=True))
    view = state.view(1)
    assert view.trump_card_taken
    rng = random.Random(4)
    for _ in range(100):
        sample = view.sample_state(rng)
        assert Card.parse("G9") in sample.hands[0]
        assert len(sample.discards[0]) == 2
        assert sample.view(1) == view
    dealer = state.view(0)
    assert len(dealer.draws) == 1  # R19: two given up, the trump card and one drawn
    assert dealer.draws[0] in dealer.hand


@pytest.mark.rule("R11", "R23")
def test_sampling_is_uniform_over_hidden_cards() -> None:
    """At the first lead of a 2-player deal every hidden card is in the opponent's hand
    with probability 5/26 (5 of the 26 cards neither in the own hand nor the trump card).
    """
    state = new_game(2, rules=Rules(schleck="none"), dealer=0)
    state = keep_all(state.apply(state.sample_chance(random.Random(5))))
    view = state.view(1)
    rng = random.Random(6)
    runs = 5200
    counts: Counter[Card] = Counter()
    for _ in range(runs):
        counts.update(view.sample_state(rng).hands[0])
    hidden = [c for c in DECK if c not in state.hands[1] and c != state.trump_card]
    assert len(hidden) == 26
    assert set(counts) <= set(hidden)
    expected = runs * 5 / 26  # 1000
    for card in hidden:
        assert abs(counts[card] - expected) < 130, (card, counts[card])


@pytest.mark.rule("R6", "R11", "R23")
def test_sampling_is_uniform_over_hidden_cards_with_seven_players() -> None:
    """The 36-card twin: at the first lead of a seven-player deal every hidden card is in
    a given opponent's hand with probability 5/30 (30 cards neither in the own hand nor
    the trump card; nobody exchanges with seven players, R20)."""
    state = new_game(7, rules=Rules(pack=36, schleck="none"), dealer=0)
    state = keep_all(state.apply(state.sample_chance(random.Random(5))))
    assert state.phase is Phase.PLAY
    view = state.view(1)
    rng = random.Random(6)
    runs = 6000
    counts: Counter[Card] = Counter()
    for _ in range(runs):
        counts.update(view.sample_state(rng).hands[4])
    hidden = [c for c in CARDS if c not in state.hands[1] and c != state.trump_card]
    assert len(hidden) == 30
    assert set(counts) <= set(hidden)
    assert {c for c in counts if c.rank is Rank.SIX} == {
        c for c in hidden if c.rank is Rank.SIX
    }  # the Sixes too (R6)
    expected = runs * 5 / 30  # 1000
    for card in hidden:
        assert abs(counts[card] - expected) < 130, (card, counts[card])


@pytest.mark.rule("R18", "R23")
def test_other_discards_are_hidden_but_counted() -> None:
    state = new_game(3, rules=Rules(), dealer=0)
    state = state.apply(stack_pack(3, 0, {1: "EA EK EO EU E10"}, "G9", bottom="G8"))
    state = state.apply(Exchange(frozenset(cards("E10 EU"))))
    view = state.view(2)
    assert view.exchanged == (None, 2, None)
    assert view.discards == ()
    own = state.view(1)
    assert own.discards == tuple(cards("E10 EU"))
    assert len(own.draws) == 2
    data = view.to_dict()
    assert "EU" not in json.dumps(data)
    assert "E10" not in json.dumps(data)
    assert bits(own._discards) == sorted(c.index for c in cards("E10 EU"))
    assert not set(own.draws) & set(own.discards)


def test_cut_looks_have_one_shape_on_the_state_and_the_view() -> None:
    """R13: a seat's view has the state's looks, with None for a card it may not know;
    the old ``cut_cards`` (three fields on the state, four on a view) still answers,
    with a DeprecationWarning."""
    rng = random.Random(12)
    checked = 0
    for _ in range(60):
        state = new_game(3).apply(new_game(3).sample_chance(rng))
        while state.phase is Phase.CUT:
            looks = state.cut_looks
            for seat in range(3):
                seen = state.view(seat).cut_looks
                assert [look[:1] + look[2:] for look in seen] == [
                    look[:1] + look[2:] for look in looks
                ]
                for mine, true in zip(seen, looks, strict=True):
                    knows = true.taken or true.seat == seat
                    assert mine.card == (true.card if knows else None)
                checked += 1
            with pytest.warns(DeprecationWarning, match="cut_looks"):
                assert state.cut_cards == tuple((s, c, t) for s, c, t, _ in looks)
            with pytest.warns(DeprecationWarning, match="cut_looks"):
                assert state.view(0).cut_cards == state.view(0).cut_looks
            state = state.apply(rng.choice(state.legal_actions()))
    assert checked > 10


def _reaches_a_full_state(root: object) -> bool:
    """Whether any object reachable from ``root`` (data, not code) is a GameState."""
    import gc
    import types

    seen: set[int] = set()
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(
            obj, (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)
        ):
            continue
        seen.add(id(obj))
        if isinstance(obj, GameState):
            return True
        todo.extend(gc.get_referents(obj))
    return False


@pytest.mark.parametrize("players", [2, 4])
def test_a_view_holds_no_full_state_after_unviewed_deals(players: int) -> None:
    """R13, R23: the engine keeps a scored deal unbuilt until its summary is read, as
    public facts only; neither the state's game fields nor a view (made after deals
    nobody looked at) lead to a full state and its hidden cards."""
    rng = random.Random(players)
    state = new_game(players)
    while state.deal_number < 4 and not state.is_terminal:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    assert len(state.past_deals) >= 3
    assert not _reaches_a_full_state(state.game_fields)
    for seat in range(players):
        view = state.view(seat)
        assert not _reaches_a_full_state(view)
        assert not _reaches_a_full_state(view.sample_state(rng).view(seat))
