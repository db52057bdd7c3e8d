"""The fast encoder equals the view encoder: same numbers, from what the seat may know.

``adapters.fast`` reads a full :class:`GameState` (which knows every card), so equality
with :func:`encoding.observation` of ``state.view(seat)`` — a function of the view
alone — is the proof that it leaks no hidden card (R13, R23).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bohmisch_watten import GameState, new_game
from bohmisch_watten.adapters import fast
from bohmisch_watten.adapters.fast import (
    Encoder,
    Memo,
    encode_mask,
    encode_observation,
    mask_bits,
    mask_row,
    observation_bits,
    observation_row,
)
from bohmisch_watten.encoding import action_mask, observation, observation_size

from game_strategies import game_states, policy, seeds
from helpers import VARIANTS


def assert_equal_to_the_view_encoding(
    state: GameState, seat: int, memo: Memo | None = None
) -> None:
    """Equal to the view's encoding; with ``memo``, also through that memo (the
    environments' path, whose memo carries over from state to state)."""
    view = state.view(seat)
    expected = np.asarray(observation(view), np.float32)
    got = encode_observation(state, seat)
    assert got.dtype == np.float32
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)
    mask = encode_mask(state, seat)
    assert mask.dtype == np.int8
    np.testing.assert_array_equal(mask, np.asarray(action_mask(view), np.int8))
    if memo is not None:
        np.testing.assert_array_equal(observation_row(state, seat, memo), expected)
        np.testing.assert_array_equal(mask_row(state, seat, memo), mask)


@settings(max_examples=150)
@given(game_states())
def test_every_seat_of_random_states_encodes_as_its_view(state: GameState) -> None:
    for seat in range(state.num_players):
        assert_equal_to_the_view_encoding(state, seat)


@settings(max_examples=40)
@given(game_states(), seeds)
def test_resampled_hidden_cards_give_the_same_numbers(state: GameState, seed: int) -> None:
    """A state redealt behind the seat's back (same view) encodes the same (R13, R23)."""
    seat = seed % state.num_players
    other = state.view(seat).sample_state(random.Random(seed))
    assert other.view(seat) == state.view(seat)
    np.testing.assert_array_equal(encode_observation(other, seat), encode_observation(state, seat))
    np.testing.assert_array_equal(encode_mask(other, seat), encode_mask(state, seat))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_whole_games_of_every_variant(n: int) -> None:
    """Every decision of seeded games under every variant, every seat (the caches
    carry over from state to state here, as in an environment)."""
    for index, rules in enumerate(VARIANTS):
        rng = random.Random(100 * n + index)
        state = new_game(n, rules=rules, dealer=index % n)
        memo = Memo()
        for _ in range(150):
            if state.is_terminal:
                break
            for seat in range(n):
                assert_equal_to_the_view_encoding(state, seat, memo)
            state = state.apply(policy(state, rng))


def test_the_batch_encoder_fills_rows_in_order() -> None:
    rng = random.Random(5)
    states = []
    state = new_game(3)
    while len(states) < 20:
        state = state.apply(policy(state, rng))
        if state.is_terminal:
            state = new_game(3)
        states.append(state)
    seats = [i % 3 for i in range(len(states))]
    encoder = Encoder(3, 32)
    observations, masks = encoder.encode(states, seats)
    assert observations.shape == (20, observation_size(3))
    assert masks.shape == (20, 99)
    for row, (s, seat) in enumerate(zip(states, seats, strict=True)):
        np.testing.assert_array_equal(observations[row], encode_observation(s, seat))
        np.testing.assert_array_equal(masks[row], encode_mask(s, seat))
    # the arrays are the encoder's own buffers, reused by the next call
    again, _ = encoder.encode(states[:1], seats[:1])
    assert again.base is encoder.observations or again.base is encoder.observations.base
    empty, no_masks = encoder.encode([], [])
    assert empty.shape == (0, observation_size(3))
    assert no_masks.shape == (0, 99)


def test_bits_and_mask_are_integers_of_the_columns() -> None:
    state = new_game(4)
    state = state.apply(state.sample_chance(random.Random(1)))
    bits, reals = observation_bits(state, 2)
    vector = observation(state.view(2))
    assert [k for k in range(len(vector)) if bits >> k & 1] == [
        k for k, x in enumerate(vector) if x == 1.0 and k not in Encoder(4, 1).real_columns
    ]
    assert len(reals) == 2 * 4 + 1
    mover = state.current_player
    assert mover is not None
    assert [i for i in range(99) if mask_bits(state, mover) >> i & 1] == [
        i for i, legal in enumerate(action_mask(state.view(mover))) if legal
    ]
    assert mask_bits(state, (mover + 1) % 4) == 0


def test_bad_arguments_are_named() -> None:
    state = new_game(2)
    with pytest.raises(TypeError, match="state"):
        encode_observation(state.view(0), 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seat"):
        encode_mask(state, "0")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seat"):
        encode_mask(state, True)
    with pytest.raises(ValueError, match="seat"):
        encode_observation(state, 2)
    with pytest.raises(TypeError, match="memo"):
        encode_observation(state, 0, {})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="memo"):
        encode_mask(state, 0, {})  # type: ignore[arg-type]
    memo = Memo()
    np.testing.assert_array_equal(encode_observation(state, 1, memo), encode_observation(state, 1))
    np.testing.assert_array_equal(encode_mask(state, 0, memo), encode_mask(state, 0))
    assert memo.game is not None
    with pytest.raises(ValueError, match="num_players"):
        Encoder(5, 4)
    with pytest.raises(ValueError, match="capacity"):
        Encoder(2, 0)
    encoder = Encoder(2, 2)
    with pytest.raises(ValueError, match="capacity"):
        encoder.encode([state] * 3, [0, 1, 0])
    with pytest.raises(ValueError, match="seats"):
        encoder.encode([state], [0, 1])
    with pytest.raises(ValueError, match="3-player"):
        encoder.encode([new_game(3)], [0])


def test_the_memo_keeps_only_the_last_objects(monkeypatch: pytest.MonkeyPatch) -> None:
    """One entry per kind, the objects of the state encoded last, and a bounded table
    of mask rows: nothing the current state does not hold stays alive through it."""
    monkeypatch.setattr(fast, "_CACHE_LIMIT", 2)
    rng = random.Random(9)
    state = new_game(3)
    memo = Memo()
    extended = 0
    for _ in range(120):
        if state.is_terminal:
            state = new_game(3)
        for seat in range(3):
            assert_equal_to_the_view_encoding(state, seat, memo)
        assert memo.game is not None
        assert memo.game[0] is state.game_fields
        assert memo.deal is not None
        assert memo.deal[0] is state.deal_fields
        if state.played_tricks:
            assert memo.played is not None
            assert memo.played[0] is state.played_tricks
        assert len(memo.masks) <= 2
        before = state.played_tricks
        state = state.apply(policy(state, rng))
        extended += len(state.played_tricks) == len(before) + 1
    assert extended >= 10  # the tricks grew one at a time, through the memo's extension


def test_a_row_of_the_encoder_follows_its_own_game() -> None:
    """Each row has its own memo: two games encoded in turn in two rows equal the view
    encoding, whichever row saw which object last."""
    rng = random.Random(12)
    games = [new_game(4), new_game(4, dealer=2)]
    encoder = Encoder(4, 2)
    for step in range(200):
        games = [g if not g.is_terminal else new_game(4) for g in games]
        seats = [step % 4, (step + 1) % 4]
        order = games if step % 3 else games[::-1]  # rows swap games now and then
        observations, masks = encoder.encode(order, seats)
        for row, (state, seat) in enumerate(zip(order, seats, strict=True)):
            np.testing.assert_array_equal(
                observations[row], np.float32(observation(state.view(seat)))
            )
            np.testing.assert_array_equal(masks[row], action_mask(state.view(seat)))
        games = [g.apply(policy(g, rng)) for g in games]


@given(st.integers(0, 2**16))
@settings(max_examples=20)
def test_caches_survive_many_games(seed: int) -> None:
    """Cached blocks are keyed by the identity of live objects, never by a stale id."""
    rng = random.Random(seed)
    memo = Memo()
    for _ in range(3):
        state = new_game(2)
        for _ in range(40):
            if state.is_terminal:
                break
            state = state.apply(policy(state, rng))
            assert_equal_to_the_view_encoding(state, 0, memo)


def test_the_memo_is_the_environments_own() -> None:
    """No encoding state is shared between environments: each owns its memo, and the
    module keeps none (a second environment starts empty)."""
    rng = random.Random(4)
    state = new_game(4)
    first, second = Memo(), Memo()
    for _ in range(30):
        state = state.apply(policy(state, rng))
        for seat in range(4):
            observation_row(state, seat, first)
            mask_row(state, seat, first)
    assert first.deal is not None
    assert first.game is not None
    assert first.masks
    assert [second.deal, second.game, second.played, second.masks] == [None, None, None, {}]
    tables = sorted(
        name
        for name, value in vars(fast).items()
        if isinstance(value, (dict, list, set)) and not name.startswith("__")
    )
    assert tables == ["_CRITICAL_ROW", "_PHASE_ROW", "_PLANS", "_WON"]  # read-only tables
