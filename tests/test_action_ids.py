"""The integer action-id table: fixed layout, bijective, masks equal to legal actions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given

from bohmisch_watten import (
    ACTION_TABLE_VERSION,
    DECK,
    NUM_ACTION_IDS,
    Card,
    Exchange,
    Fold,
    FormatError,
    GameState,
    LeaveCritical,
    Phase,
    PlayCard,
    Rules,
    TakeCritical,
    action_to_id,
    id_to_action,
    legal_action_mask,
    new_game,
)
from bohmisch_watten.encoding import (
    ACTION_ID_NAMES,
    EXCHANGE_BASE,
    EXCHANGE_TRUMP_BASE,
    FOLD_ID,
    LEAVE_ID,
    PLAY_BASE,
    TAKE_ID,
)

from helpers import cards, dealt_state, random_game
from serialization_strategies import reachable_states


def exchange_state(seat_to_act: int = 1) -> GameState:
    """Two players, dealer 0: seat 1 decides first, then the dealer (R18)."""
    state = dealt_state(2, {1: "EA EK EO EU E10", 0: "SA S10 S9 GA H8"}, "G8")
    if seat_to_act == 0:
        state = state.apply(Exchange(frozenset()))
    assert state.current_player == seat_to_act
    return state


def test_table_layout_is_fixed() -> None:
    """Version 1 of the table; changing any of this needs a new ACTION_TABLE_VERSION."""
    assert ACTION_TABLE_VERSION == 1
    assert NUM_ACTION_IDS == 99
    assert (TAKE_ID, LEAVE_ID, FOLD_ID) == (0, 1, 2)
    assert (EXCHANGE_BASE, EXCHANGE_TRUMP_BASE, PLAY_BASE) == (3, 35, 67)
    assert len(ACTION_ID_NAMES) == NUM_ACTION_IDS == len(set(ACTION_ID_NAMES))
    assert ACTION_ID_NAMES[:4] == ("take", "leave", "fold", "exchange []")
    assert ACTION_ID_NAMES[3 + 0b10011] == "exchange [0 1 4]"
    assert ACTION_ID_NAMES[35 + 0b00001] == "exchange [0] +trump"
    assert ACTION_ID_NAMES[67:] == tuple(f"play {c}" for c in DECK)
    assert action_to_id(new_game(), PlayCard(Card.parse("E7"))) == 67
    assert action_to_id(new_game(), PlayCard(Card.parse("SA"))) == 98


def test_state_free_ids() -> None:
    state = new_game()
    assert action_to_id(state, TakeCritical()) == TAKE_ID
    assert action_to_id(state, LeaveCritical()) == LEAVE_ID
    assert action_to_id(state, Fold()) == FOLD_ID
    for card in DECK:
        assert action_to_id(state, PlayCard(card)) == PLAY_BASE + card.index
        assert id_to_action(state, PLAY_BASE + card.index) == PlayCard(card)
    assert id_to_action(state, TAKE_ID) == TakeCritical()
    assert id_to_action(state, FOLD_ID) == Fold()


@pytest.mark.rule("R18", "R19")
def test_exchange_ids_are_hand_positions() -> None:
    state = exchange_state(1)  # seat 1 holds E10 EU EO EK EA (sorted: E10 EU EO EK EA)
    assert [str(c) for c in state.hands[1]] == ["E10", "EU", "EO", "EK", "EA"]
    discard = Exchange(frozenset(cards("E10 EK")))
    assert action_to_id(state, discard) == EXCHANGE_BASE + 0b01001
    assert id_to_action(state, EXCHANGE_BASE + 0b01001) == discard
    assert id_to_action(state, EXCHANGE_BASE) == Exchange(frozenset())
    dealer = exchange_state(0)  # the dealer may take the trump card (R19)
    take = Exchange(frozenset(cards("H8")), take_trump_card=True)
    position = [str(c) for c in dealer.hands[0]].index("H8")
    assert action_to_id(dealer, take) == EXCHANGE_TRUMP_BASE + (1 << position)
    assert legal_action_mask(dealer)[EXCHANGE_TRUMP_BASE + (1 << position)]
    assert not legal_action_mask(state)[EXCHANGE_TRUMP_BASE + 1]  # not the dealer


@pytest.mark.rule("R18", "R19", "R20")
def test_never_legal_ids_stay_in_the_table() -> None:
    dealer = exchange_state(0)
    mask = legal_action_mask(dealer)
    assert not mask[EXCHANGE_TRUMP_BASE]  # the trump card for nothing
    assert not mask[EXCHANGE_BASE + 0b11111]  # five cards with the stock
    assert id_to_action(dealer, EXCHANGE_TRUMP_BASE) == Exchange(frozenset(), True)


@pytest.mark.rule("R11", "R12", "R18", "R21", "R24", "R25")
@given(reachable_states())
def test_mask_equals_legal_actions(state: GameState) -> None:
    mask = legal_action_mask(state)
    assert len(mask) == NUM_ACTION_IDS
    legal = state.legal_actions()
    ids = [action_to_id(state, a) for a in legal]
    assert len(set(ids)) == len(ids)  # no two legal actions share an id
    assert sorted(ids) == [i for i, ok in enumerate(mask) if ok]
    for action, action_id in zip(legal, ids, strict=True):
        assert id_to_action(state, action_id) == action
    if state.is_chance_node or state.is_terminal:
        assert not any(mask)


@given(reachable_states())
def test_bijective_on_the_table(state: GameState) -> None:
    """Every id that names an action here comes back to itself."""
    for action_id in range(NUM_ACTION_IDS):
        if state.phase is not Phase.EXCHANGE and EXCHANGE_BASE <= action_id < PLAY_BASE:
            with pytest.raises(FormatError, match="exchange phase"):
                id_to_action(state, action_id)
            continue
        action = id_to_action(state, action_id)
        assert action_to_id(state, action) == action_id


def test_playing_whole_games_through_ids() -> None:
    """Learning-code loop: pick an id from the mask, convert, apply; games finish."""
    rng = random.Random(5)
    for n in (2, 3, 4):
        state = new_game(n, rules=Rules(start_score=8))
        while not state.is_terminal:
            if state.is_chance_node:
                state = state.apply(state.sample_chance(rng))
                continue
            mask = legal_action_mask(state)
            choice = rng.choice([i for i, ok in enumerate(mask) if ok])
            state = state.apply(id_to_action(state, choice))
        assert state.winners


@pytest.mark.parametrize("bad", [-1, NUM_ACTION_IDS, 10**9, True, 1.0, "3", None])
def test_bad_ids(bad: object) -> None:
    with pytest.raises(FormatError):
        id_to_action(new_game(), bad)  # type: ignore[arg-type]


def test_actions_without_ids() -> None:
    state = new_game(2)
    with pytest.raises(FormatError, match="chance action"):
        action_to_id(state, state.sample_chance(random.Random(1)))
    with pytest.raises(FormatError, match="not an action"):
        action_to_id(state, "play HK")  # type: ignore[arg-type]
    with pytest.raises(FormatError, match="exchange phase"):
        action_to_id(state, Exchange(frozenset()))
    with pytest.raises(FormatError, match="not in the hand"):
        action_to_id(exchange_state(1), Exchange(frozenset(cards("SA"))))


def test_mask_in_every_phase_of_a_game() -> None:
    final, states = random_game(4, seed=8, rules=Rules(start_score=6))
    seen = {s.phase for s in states if any(legal_action_mask(s))}
    assert {Phase.EXCHANGE, Phase.PLAY} <= seen
    assert not any(legal_action_mask(final))
