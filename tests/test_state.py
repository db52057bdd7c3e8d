"""GameState as a value: immutability, history, equality, is_legal (docs/concepts.md)."""

from __future__ import annotations

import random

import attrs
import pytest

from bohmisch_watten import (
    DECK,
    Exchange,
    Fold,
    GameState,
    IllegalActionError,
    Phase,
    PlayCard,
    Rules,
    Shuffle,
    TakeCritical,
    new_game,
)

from helpers import dealt_state, keep_all, random_game


def test_states_are_immutable_and_apply_returns_a_new_state() -> None:
    state = dealt_state(4, {}, "G9")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.phase = Phase.PLAY  # type: ignore[misc]
    before = (state.hands, state.stock, state.history)
    after = state.apply(Exchange(frozenset()))
    assert after is not state
    assert (state.hands, state.stock, state.history) == before
    assert state.current_player == 1
    assert after.current_player == 2


def test_history_records_seats_and_actions_in_order() -> None:
    state = keep_all(dealt_state(4, {}, "G9"))
    history = state.history
    assert history[0][0] is None
    assert isinstance(history[0][1], Shuffle)
    assert [seat for seat, _ in history[1:]] == [1, 2, 3, 0]
    assert all(action == Exchange(frozenset()) for _, action in history[1:])


def test_same_seed_same_game_and_equal_states_hash_equal() -> None:
    a, _ = random_game(3, seed=9, max_deals=40)
    b, _ = random_game(3, seed=9, max_deals=40)
    c, _ = random_game(3, seed=10, max_deals=40)
    assert a == b
    assert hash(a) == hash(b)
    assert a.history == b.history
    assert a != c


def test_is_legal_agrees_with_legal_actions_and_apply() -> None:
    rng = random.Random(4)
    state = new_game(4, rules=Rules(must_head=False))
    checked = 0
    while not state.is_terminal and checked < 400:
        if state.is_chance_node:
            action = state.sample_chance(rng)
            assert state.is_legal(action)
            assert not state.is_legal(Shuffle(DECK[:31]))
            assert not state.is_legal(PlayCard(DECK[0]))
        else:
            legal = state.legal_actions()
            assert len(set(legal)) == len(legal)
            for card in DECK:
                play = PlayCard(card)
                assert state.is_legal(play) == (play in legal)
            assert state.is_legal(Fold()) == (Fold() in legal)
            action = rng.choice(legal)
            checked += 1
        state = state.apply(action)
    assert checked == 400


def test_active_players_skip_folded_seats() -> None:
    state = dealt_state(4, {}, "G9")
    assert state.active_players == (0, 1, 2, 3)


def test_nothing_applies_after_the_game() -> None:
    state, _ = random_game(2, seed=1, rules=Rules(start_score=1))
    assert state.is_terminal
    assert state.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="R31: the game is over"):
        state.apply(TakeCritical())


def test_shuffle_with_unhashable_objects_is_rejected() -> None:
    state = new_game(2)
    bad = Shuffle([*DECK[:31], []])  # type: ignore[list-item]
    with pytest.raises(IllegalActionError, match="Card objects only"):
        state.apply(bad)


def test_state_is_a_game_state() -> None:
    assert isinstance(new_game(), GameState)
    assert new_game() == new_game(4, dealer=0)
