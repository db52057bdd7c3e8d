"""The numeric encoding of views: layout, masks, batches and no hidden cards in it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bohmisch_watten import (
    BELLI,
    DECK,
    NUM_ACTION_IDS,
    GameState,
    LeaveCritical,
    Phase,
    PlayCard,
    TakeCritical,
    action_to_id,
    legal_action_mask,
    new_game,
)
from bohmisch_watten.encoding import (
    action_mask,
    action_mask_batch,
    layout,
    observation,
    observation_batch,
    observation_size,
)

from helpers import VARIANTS, stack_pack


def walk(num_players: int, seed: int, steps: int, rules_index: int = 0) -> GameState:
    """A state ``steps`` random moves into a seeded game."""
    rng = random.Random(seed)
    state = new_game(num_players, rules=VARIANTS[rules_index], dealer=seed % num_players)
    for _ in range(steps):
        if state.is_terminal:
            break
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    return state


def block(vector: list[float], num_players: int, name: str) -> list[float]:
    for block_name, offset, size in layout(num_players):
        if block_name == name:
            return vector[offset : offset + size]
    raise KeyError(name)


@pytest.mark.parametrize(("n", "size"), [(2, 334), (3, 415), (4, 496)])
def test_size_depends_only_on_the_number_of_players(n: int, size: int) -> None:
    assert observation_size(n) == size
    _, offset, last = layout(n)[-1]
    assert offset + last == size
    offsets = [offset for _, offset, _ in layout(n)]
    assert offsets == sorted(offsets)
    for seed in range(3):
        for steps in (0, 20, 40):
            state = walk(n, seed, steps)
            assert len(observation(state.view(seed % n))) == size


@pytest.mark.parametrize("bad", [1, 5, True, "4"])
def test_layout_rejects_other_player_counts(bad: object) -> None:
    with pytest.raises(ValueError, match="num_players"):
        layout(bad)  # type: ignore[arg-type]


def test_wrong_argument_types_name_the_argument() -> None:
    state = new_game(3)
    with pytest.raises(TypeError, match="view"):
        observation(state)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="view"):
        action_mask(state)  # type: ignore[arg-type]


@pytest.mark.rule("R24")
def test_blocks_say_what_the_layout_promises() -> None:
    state = walk(4, 11, 0)
    while state.phase is not Phase.PLAY or len(state.trick) < 2:
        state = walk(4, 11, len(state.history) + 1)
    me = 2
    vector = observation(state.view(me))
    hand = block(vector, 4, "hand")
    assert [DECK[i] for i, x in enumerate(hand) if x] == list(state.hands[me])
    trump = block(vector, 4, "trump_card")
    assert state.trump_card is not None
    assert trump[state.trump_card.index] == 1.0
    assert sum(trump) == 1.0
    trick = block(vector, 4, "trick")
    for seat, card in state.trick:  # rows are relative to the viewing seat
        assert trick[32 * ((seat - me) % 4) + card.index] == 1.0
    leader = block(vector, 4, "trick_leader")
    assert leader[(state.trick[0][0] - me) % 4] == 1.0
    to_act = block(vector, 4, "to_act")
    assert state.current_player is not None
    assert to_act[(state.current_player - me) % 4] == 1.0
    assert block(vector, 4, "phase")[list(Phase).index(Phase.PLAY)] == 1.0
    assert block(vector, 4, "dealer")[(state.dealer - me) % 4] == 1.0
    assert block(vector, 4, "scores") == [0.5] * 4  # 20 of a 40-point scale


@given(
    n=st.integers(2, 4),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 120),
    rules_index=st.integers(0, len(VARIANTS) - 1),
)
def test_every_entry_is_in_the_unit_interval_and_masks_match(
    n: int, seed: int, steps: int, rules_index: int
) -> None:
    state = walk(n, seed, steps, rules_index)
    for p in range(n):
        view = state.view(p)
        assert all(0.0 <= x <= 1.0 for x in observation(view))
        mask = action_mask(view)
        assert len(mask) == NUM_ACTION_IDS
        if state.current_player == p:
            assert mask == [int(b) for b in legal_action_mask(state)]
            ids = {action_to_id(state, a) for a in state.legal_actions()}
            assert {i for i, bit in enumerate(mask) if bit} == ids
        else:
            assert not any(mask)


@pytest.mark.rule("R13", "R23")
@given(
    n=st.integers(2, 4),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 150),
    player=st.integers(0, 3),
)
def test_states_differing_only_in_hidden_cards_encode_equally(
    n: int, seed: int, steps: int, player: int
) -> None:
    """Security boundary: redeal what the seat cannot see; its tensors must not change."""
    state = walk(n, seed, steps)
    player %= n
    view = state.view(player)
    other = view.sample_state(random.Random(seed + 1))
    assert other.view(player) == view
    assert observation(other.view(player)) == observation(view)
    assert action_mask(other.view(player)) == action_mask(view)


def test_tensors_do_change_with_what_the_seat_sees() -> None:
    """The invariance above is not vacuous: one played card changes the vector."""
    state = walk(3, 4, 0)
    while state.phase is not Phase.PLAY:
        state = walk(3, 4, len(state.history) + 1)
    before = observation(state.view(0))
    action = state.legal_actions()[0]
    assert isinstance(action, PlayCard)
    after = observation(state.apply(action).view(0))
    assert before != after


def test_batches_stack_rows_in_order() -> None:
    state = walk(4, 5, 30)
    views = [state.view(p) for p in range(4)]
    rows = observation_batch(views)
    assert rows == [observation(v) for v in views]
    assert action_mask_batch(views) == [action_mask(v) for v in views]
    mixed = [walk(2, 1, 10).view(0), views[0]]
    with pytest.raises(ValueError, match="different numbers of players"):
        observation_batch(mixed)


def test_batches_as_numpy_arrays() -> None:
    np = pytest.importorskip("numpy")
    from bohmisch_watten.adapters.arrays import action_mask_array, observation_array

    state = walk(3, 2, 45)
    views = [state.view(p) for p in range(3)]
    obs = observation_array(views)
    assert obs.shape == (3, 415)
    assert obs.dtype == np.float32
    assert np.allclose(obs, np.array(observation_batch(views), dtype=np.float32))
    masks = action_mask_array(views)
    assert masks.shape == (3, 99)
    assert masks.tolist() == action_mask_batch(views)
    assert action_mask_array([]).shape == (0, 99)


@pytest.mark.rule("R12", "R13")
def test_the_ritual_blocks_taken_and_left_criticals() -> None:
    """Cutter takes Maxi (public to all), dealer leaves Belli (known to the dealer only)."""
    state = new_game(3, dealer=0)
    cutter = state.cutter
    state = state.apply(stack_pack(3, 0, {}, "EA", bottom="HK S7", taken={cutter: 1})).apply(
        TakeCritical()
    )
    assert state.phase is Phase.CUT
    state = state.apply(LeaveCritical())
    for seat in range(3):
        vector = observation(state.view(seat))
        taken = block(vector, 3, "criticals_taken")
        assert taken[3 * ((cutter - seat) % 3) + 0] == 1.0  # Maxi, row of the cutter
        assert sum(taken) == 1.0
        left = block(vector, 3, "criticals_left")
        assert left[(0 - seat) % 3] == 1.0  # the dealer declined a Critical (public)
        seen = block(vector, 3, "cut_seen")
        assert seen[DECK.index(BELLI)] == (1.0 if seat == 0 else 0.0)  # R13
