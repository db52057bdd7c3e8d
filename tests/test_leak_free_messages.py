"""Every IllegalActionError names only cards the refused seat may know (R13, R23).

Hidden information is a security boundary: a server shows refusal messages to the seat
that sent the action, so a message may name the seat's own cards (its hand, discards,
draws, the cut cards it saw), public cards and the cards of the action itself — never
another seat's hidden card.  A seat that is not to act learns only whose turn it is.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bohmisch_watten import (
    DECK,
    Action,
    Card,
    Exchange,
    Fold,
    GameState,
    IllegalActionError,
    LeaveCritical,
    PlayCard,
    Shuffle,
    TakeCritical,
)
from bohmisch_watten.seats import turn_message

from game_strategies import game_states

CODE = re.compile(r"\b[EGHS](?:10|[AKOU987])\b")


def _codes(text: str) -> set[str]:
    return set(CODE.findall(text))


def _action_cards(action: Action) -> set[str]:
    if isinstance(action, PlayCard):
        return {str(action.card)}
    if isinstance(action, Exchange):
        return {str(card) for card in action.discard}
    if isinstance(action, Shuffle):
        return {str(card) for card in action.pack}
    return set()


def _candidates(state: GameState, seat: int, draw: st.DrawFn) -> list[Action]:
    """Every kind of action, legal or not: plays, exchanges, fold, take, leave, shuffles."""
    hand = list(state.hands[seat])
    own = draw(st.sets(st.sampled_from(hand), max_size=5)) if hand else set()
    stray = draw(st.sets(st.sampled_from(DECK), min_size=1, max_size=5))
    return [
        *(PlayCard(card) for card in DECK),
        Fold(),
        TakeCritical(),
        LeaveCritical(),
        Exchange(own),
        Exchange(own, take_trump_card=True),
        Exchange(stray),
        Exchange(stray | own, take_trump_card=True),
        Shuffle(DECK[:31]),
        Shuffle(DECK),
    ]


@given(game_states(max_steps=200), st.data())
def test_refusals_name_only_cards_the_seat_may_know(state: GameState, data: st.DataObject) -> None:
    for seat in range(state.num_players):
        visible = _codes(json.dumps(state.view(seat).to_dict()))
        for action in _candidates(state, seat, data.draw):
            try:
                state.apply(action, seat=seat)
            except IllegalActionError as error:
                message = str(error)
            else:
                assert state.is_legal(action, seat=seat)
                continue
            assert not state.is_legal(action, seat=seat)
            if seat != state.current_player:
                assert not _codes(message), message
                assert message == turn_message(state.phase, state.current_player, seat)
            else:
                leaked = _codes(message) - visible - _action_cards(action)
                assert not leaked, (message, leaked)


def test_the_pattern_finds_card_codes() -> None:
    """The checker itself: it must see every card code, and no rule ID or word."""
    text = "R25.1: must follow Bells with " + ", ".join(str(c) for c in DECK) + " in GAME_OVER"
    assert _codes(text) == {str(c) for c in DECK}
    assert _codes("R24: it is seat 1's turn; phase EXCHANGE") == set()


def test_own_cards_stay_in_the_message_for_the_seat_to_act() -> None:
    """The seat to act still hears which of its cards it may play (R25.1)."""
    from helpers import dealt_state, keep_all

    state = keep_all(dealt_state(2, {1: "S9 S10 SA EA E7", 0: "SK GA G7 G8 G9"}, "H7"))
    state = state.apply(PlayCard(Card.parse("SA")), seat=1)
    with pytest.raises(IllegalActionError) as error:
        state.apply(PlayCard(Card.parse("GA")), seat=0)
    assert str(error.value) == "R25.1: must follow Bells with SK"
