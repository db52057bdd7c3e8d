"""A long game: copying, pickling, hashing, views and samples at deal 200.

The history is a linked list; before states pickled it flat, ``pickle`` and
``deepcopy`` recursed once per action and failed past about 1,000 actions.  Views and
samples must not replay earlier deals: a sample's history is the current deal only.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from bohmisch_watten import GameState, Phase, Rules, new_game, replay
from bohmisch_watten.deals import PastDeals


@pytest.fixture(scope="module")
def long_state() -> GameState:
    """The first lead of deal 200 of a random four-player game from 1000 points."""
    rng = random.Random(1)
    state = new_game(4, rules=Rules(start_score=1000))
    while state.deal_number < 200 or state.phase is not Phase.PLAY:
        state = state.apply(
            state.sample_chance(rng) if state.is_chance_node else rng.choice(state.legal_actions())
        )
    assert len(state.history) > 4000
    return state


def test_pickle_and_deepcopy_at_deal_200(long_state: GameState) -> None:
    again = pickle.loads(pickle.dumps(long_state))
    assert again == long_state
    assert hash(again) == hash(long_state)
    assert again.history == long_state.history
    assert copy.deepcopy(long_state) is long_state  # immutable: the copy is itself
    assert copy.copy(long_state) is long_state
    child = again.apply(again.legal_actions()[0])
    assert child == long_state.apply(long_state.legal_actions()[0])


def test_views_and_samples_at_deal_200(long_state: GameState) -> None:
    rng = random.Random(2)
    for player in range(4):
        view = long_state.view(player)
        assert len(view.past_deals) == 199
        assert pickle.loads(pickle.dumps(view)) == view
        sample = view.sample_state(rng)
        assert sample.view(player) == view
        assert sample.start_position == long_state.position == view.position
        assert len(sample.history) < 32  # the current deal only: nothing replayed
        assert sample.past_deals is long_state.past_deals  # shared, not copied
        assert pickle.loads(pickle.dumps(view)) == view  # the sampler's tables are not pickled
        assert replay(sample.record()) == sample


def test_record_of_a_long_game_replays(long_state: GameState) -> None:
    assert replay(long_state.record()) == long_state
    assert GameState.from_json(long_state.to_json()) == long_state


def test_hash_ignores_how_the_deal_was_reached(long_state: GameState) -> None:
    """Equal states hash equal; the hash reads the current deal and the position only."""
    twin = replay(long_state.record())
    assert twin is not long_state
    assert hash(twin) == hash(long_state)
    sample = long_state.view(0).sample_state(random.Random(3))
    other = long_state.view(0).sample_state(random.Random(3))
    assert sample == other
    assert hash(sample) == hash(other)
    assert {long_state: 1}[twin] == 1


def test_past_deals_value() -> None:
    rng = random.Random(4)
    state = new_game(3)
    while state.deal_number < 4:
        state = state.apply(
            state.sample_chance(rng) if state.is_chance_node else rng.choice(state.legal_actions())
        )
    past = state.past_deals
    deals = tuple(past)
    assert len(past) == len(deals) == 3
    assert past.last is state.last_deal is deals[-1]
    rebuilt = PastDeals(deals)
    assert rebuilt == past
    assert hash(rebuilt) == hash(past)
    assert rebuilt != PastDeals(deals[:2])
    assert PastDeals(deals[:2]).append(deals[2]) == past
    assert past != deals
    assert copy.deepcopy(past) is past
    assert pickle.loads(pickle.dumps(past)) == past
    assert repr(past) == "<PastDeals: 3 finished deals>"
    with pytest.raises(TypeError, match="DealSummary"):
        PastDeals([1])  # type: ignore[list-item]
    for deal in deals:  # public facts only: a card looked at and not taken is hidden
        for _, card, taken, _ in deal.cut:
            assert (card is not None) == taken
