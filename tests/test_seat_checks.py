"""Seat-checked actions: ``apply``/``is_legal`` with ``seat=``, and returns (R11–R24, R34)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given

from bohmisch_watten import (
    DECK,
    Card,
    Exchange,
    GameState,
    IllegalActionError,
    LeaveCritical,
    PlayCard,
    Shuffle,
    TakeCritical,
    new_game,
)

from game_strategies import game_states
from helpers import dealt_state, keep_all, random_game


def test_wrong_seat_in_exchange_gets_only_whose_turn() -> None:
    """R18: seat 3's exchange is refused when seat 1 decides; no card is named."""
    state = dealt_state(4, {1: "EO G7 H10 HO S8"}, "E10")
    assert state.current_player == 1
    with pytest.raises(IllegalActionError) as error:
        state.apply(Exchange(set()), seat=3)
    assert str(error.value) == "R18: it is seat 1's turn, not seat 3's"
    assert not state.is_legal(Exchange(set()), seat=3)
    assert state.is_legal(Exchange(set()), seat=1)
    assert state.apply(Exchange(set()), seat=1) == state.apply(Exchange(set()))


def test_wrong_seat_in_play_names_no_card() -> None:
    """R24: seat 3 playing its own card out of turn learns nothing about seat 1's hand."""
    state = keep_all(dealt_state(4, {1: "EO G7 H10 HO S8", 3: "E8 E9 EK GA G8"}, "E10"))
    assert state.current_player == 1
    with pytest.raises(IllegalActionError) as error:
        state.apply(PlayCard(Card.parse("E8")), seat=3)
    message = str(error.value)
    assert message == "R24: it is seat 1's turn, not seat 3's"
    assert not any(str(card) in message for card in DECK)


def test_chance_node_refuses_every_seat() -> None:
    """R11: the shuffle is chance's, so no seat may send it."""
    state = new_game(3)
    shuffle = Shuffle(DECK)
    for seat in range(3):
        assert not state.is_legal(shuffle, seat=seat)
        with pytest.raises(IllegalActionError, match=r"^R11: chance is to act"):
            state.apply(shuffle, seat=seat)
    assert state.is_legal(shuffle)


def test_cut_ritual_turn() -> None:
    """R12: during the ritual only the seat looking at the Critical decides."""
    rng = random.Random(3)
    state = new_game(4)
    while not state.is_legal(TakeCritical()):
        state = new_game(4).apply(new_game(4).sample_chance(rng))
    seat = state.current_player
    assert seat is not None
    other = (seat + 1) % 4
    with pytest.raises(IllegalActionError, match=rf"^R12: it is seat {seat}'s turn"):
        state.apply(LeaveCritical(), seat=other)
    assert state.is_legal(LeaveCritical(), seat=seat)


def test_game_over_refuses_every_seat() -> None:
    final, _ = random_game(2, seed=5)
    assert final.is_terminal
    with pytest.raises(IllegalActionError, match=r"^R31: the game is over"):
        final.apply(PlayCard(DECK[0]), seat=0)


@pytest.mark.parametrize("seat", ["1", 1.0, True])
def test_seat_must_be_an_int(seat: object) -> None:
    state = dealt_state(2, {}, "E10")
    with pytest.raises(TypeError, match="seat"):
        state.apply(Exchange(set()), seat=seat)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seat"):
        state.is_legal(Exchange(set()), seat=seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", [-1, 2, 9])
def test_seat_must_be_a_seat(seat: int) -> None:
    state = dealt_state(2, {}, "E10")
    with pytest.raises(ValueError, match="seat must be a seat from 0 to 1"):
        state.apply(Exchange(set()), seat=seat)


@given(game_states(max_steps=120))
def test_is_legal_with_seat_matches_apply(state: GameState) -> None:
    """For every seat and every legal action: accepted iff the seat is to act."""
    for seat in range(state.num_players):
        view = state.view(seat)
        for action in state.legal_actions()[:12]:
            mine = seat == state.current_player
            assert state.is_legal(action, seat=seat) is mine
            assert view.is_legal(action) is mine
            if not mine:
                with pytest.raises(IllegalActionError):
                    state.apply(action, seat=seat)


@given(game_states(max_steps=120))
def test_view_is_legal_agrees_with_state(state: GameState) -> None:
    """``view.is_legal`` answers from the view what the state answers, for its seat."""
    seat = state.current_player
    if seat is None:
        return
    view = state.view(seat)
    hand = state.hands[seat]
    candidates = [*state.legal_actions(), *(PlayCard(c) for c in DECK[::3])]
    candidates += [Exchange({c}) for c in hand] + [Exchange(set(hand[:4]), take_trump_card=True)]
    for action in candidates:
        assert view.is_legal(action) == state.is_legal(action)


def test_returns_zero_until_the_end_then_plus_minus_one() -> None:
    """R34: +1 per winner, -1 per loser, 0 for the rest, and all 0 before the end."""
    final, states = random_game(4, seed=11)
    assert all(s.returns() == (0.0,) * 4 for s in states[:-1])
    returns = final.returns()
    for seat in range(4):
        expected = 1.0 if seat in final.winners else -1.0 if seat in final.losers else 0.0
        assert returns[seat] == expected
        assert final.view(seat).returns() == returns
    assert 1.0 in returns
    assert -1.0 in returns


class _Index:
    """An integer type that is not int, as a NumPy integer."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def test_integer_types_other_than_int_are_seats() -> None:
    state = dealt_state(2, {}, "E10")
    assert state.is_legal(Exchange(set()), seat=_Index(1))  # type: ignore[arg-type]
    assert not state.is_legal(Exchange(set()), seat=_Index(0))  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="not seat 0's"):
        state.apply(Exchange(set()), seat=_Index(0))  # type: ignore[arg-type]
