"""The card-level trick helpers agree with the engine (R7–R10, R24–R27)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given

from bohmisch_watten import DECK, Card, GameState, Phase, PlayCard, Suit
from bohmisch_watten.tricks import beats, is_trump, legal_cards, winning_play

from game_strategies import game_states


@given(game_states(max_steps=250))
def test_helpers_agree_with_apply(state: GameState) -> None:
    """legal_cards is the engine's legal plays; beats/winning_play its trick winners."""
    if state.phase is not Phase.PLAY:
        return
    seat = state.current_player
    assert seat is not None
    trump = state.trump_suit
    assert trump is not None
    hand, trick = state.hands[seat], state.trick
    legal = legal_cards(hand, trick, trump, state.rules.must_head)
    assert legal == tuple(a.card for a in state.legal_actions() if isinstance(a, PlayCard))
    for done in state.tricks:
        assert winning_play(done.plays, trump) == next(p for p in done.plays if p[0] == done.winner)
    for card in legal:
        after = (*trick, (seat, card))
        assert beats(card, trick, trump) == (winning_play(after, trump) == (seat, card))


def test_beats_on_an_empty_trick_and_off_suit() -> None:
    e9, s10, h7 = (Card.parse(c) for c in ("E9", "S10", "H7"))
    assert beats(e9, [], Suit.HEARTS)
    assert not beats(s10, [(0, e9)], Suit.HEARTS)  # another plain suit never beats
    assert beats(h7, [(0, e9)], Suit.HEARTS)  # the lowest trump does (R27)


def test_is_trump_counts_the_criticals() -> None:
    """R8: Maxi, Belli and Spitz are trumps whatever the trump suit."""
    for suit in Suit:
        trumps = {c for c in DECK if is_trump(c, suit)}
        assert len(trumps) == 11 - sum(c.suit is suit for c in DECK if c.is_critical)
        assert {Card.parse("HK"), Card.parse("S7"), Card.parse("E7")} <= trumps


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: winning_play([(0, "E9")], Suit.HEARTS), "each card of trick"),
        (lambda: winning_play([(0, Card.parse("E9"))], 2), "trump_suit"),
        (lambda: winning_play([Card.parse("E9")], Suit.HEARTS), "trick"),
        (lambda: beats("E9", [], Suit.HEARTS), "card"),
        (lambda: legal_cards("E9 S7", [], Suit.HEARTS), "hand"),
        (lambda: legal_cards([1], [], Suit.HEARTS), "each card of hand"),
        (lambda: legal_cards([], [], Suit.HEARTS, "yes"), "must_head"),
        (lambda: is_trump(Card.parse("E9"), "H"), "trump_suit"),
        (lambda: beats(Card.parse("E9"), "E9", Suit.HEARTS), "trick"),
    ],
)
def test_wrong_types_name_the_argument(call: Any, name: str) -> None:
    with pytest.raises(TypeError, match=name):
        call()


def test_winning_play_needs_a_play() -> None:
    with pytest.raises(ValueError, match="at least one play"):
        winning_play([], Suit.HEARTS)
