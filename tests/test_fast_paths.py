"""The engine's fast paths give exactly what the plain paths give.

``apply()`` makes states with a private constructor that fills the slots directly,
lists exchanges from tables indexed by cards, and asks ``game_result`` with a shortcut
for the common "nobody reached the goal"; ``sample_chance`` shuffles by its own copy of
``random.Random.shuffle``.  Each is checked here against the simple way: attrs' own
``__init__``, the subsets of the hand enumerated by ``itertools``, the goal rule seat by
seat, and the standard library's shuffle.
"""

from __future__ import annotations

import copy
import itertools
import pickle
import random

import attrs
import pytest

from bohmisch_watten import (
    DECK,
    GameState,
    IllegalActionError,
    Phase,
    PlayCard,
    Position,
    Shuffle,
    new_game,
)
from bohmisch_watten._legal import pack_indices
from bohmisch_watten.actions import EXCHANGES, EXCHANGES_WITH_TRUMP
from bohmisch_watten.exchange_options import exchange_options
from bohmisch_watten.scoring import game_result, reached_goal
from bohmisch_watten.state import _make

from helpers import VARIANTS, random_game


def _states() -> list[GameState]:
    """Every state of short random games: 2, 3 and 4 players, a few variants, a position."""
    out: list[GameState] = []
    for seed, n in enumerate((2, 3, 4)):
        for rules in VARIANTS[:4]:
            out += random_game(n, seed, rules=rules, max_deals=3)[1]
    rng = random.Random(4)
    state = GameState.from_position(Position.parse("p4/d2/n7/s3.12.20.8/f0010/default"))
    while not state.is_terminal and state.deal_number < 9:
        actions = state.legal_actions()
        state = state.apply(rng.choice(actions) if actions else state.sample_chance(rng))
        out.append(state)
    return out


STATES = _states()


def test_the_fast_constructor_builds_what_attrs_init_builds() -> None:
    names = [field.name for field in attrs.fields(GameState) if field.init]
    assert len(STATES) > 100
    for state in STATES:
        values = [getattr(state, name) for name in names]
        fast, slow = _make(*values), GameState(*values)
        assert type(fast) is type(state) is GameState  # apply()'s states: play builds inline
        assert fast == slow == state
        assert hash(fast) == hash(slow) == hash(state)
        assert fast.history == state.history
        for flags in (fast, slow, state):  # fields kept when made, not properties
            assert flags.is_chance_node is (state.phase is Phase.DEAL)
            assert flags.is_terminal is (state.phase is Phase.GAME_OVER)
        assert fast.legal_actions() == state.legal_actions()
        assert pickle.loads(pickle.dumps(fast)) == state
        assert copy.deepcopy(fast) is fast
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            fast.phase = Phase.DEAL  # type: ignore[misc]


def test_the_plays_listed_are_the_cards_of_the_playable_mask_in_order() -> None:
    """R24–R26: the table lookups of legal_actions() agree with the mask, bit by bit.

    Masks of up to five cards (R15) come from the tables; a mask of six cards in two suits
    (no hand holds one) takes the slower route, and must list the same way.
    """
    playing = next(state for state in STATES if state.phase is Phase.PLAY)
    rng = random.Random(11)
    masks = [sum(1 << c for c in rng.sample(range(32), rng.randint(1, 5))) for _ in range(500)]
    masks += [0b111111, 0b111111 << 16, 0b111111 << 13, (1 << 32) - 1]
    for mask in masks:
        state = attrs.evolve(playing, play_mask=mask)
        expected = tuple(PlayCard(DECK[i]) for i in range(32) if mask >> i & 1)
        assert state.legal_actions() == expected


def _subsets(hand: list[int], sizes: range) -> list[int]:
    return [sum(1 << c for c in combo) for k in sizes for combo in itertools.combinations(hand, k)]


def test_exchange_options_are_the_subsets_of_the_hand_in_order() -> None:
    rng = random.Random(9)
    for _ in range(300):
        hand = sorted(rng.sample(range(32), 5))
        mask = sum(1 << c for c in hand)
        for limit in range(4):
            plain = [EXCHANGES[m] for m in _subsets(hand, range(limit + 1))]
            assert list(exchange_options(mask, limit, False)) == plain
            taking = [EXCHANGES_WITH_TRUMP[m] for m in _subsets(hand, range(1, limit + 2))]
            assert list(exchange_options(mask, limit, True)) == plain + taking


def test_game_result_answers_nobody_reached_the_goal_as_the_rule_says() -> None:
    """``game_result`` has a shortcut for "nobody reached the goal" (R31–R33)."""
    for rules in VARIANTS:
        for scores in itertools.product(range(-3, 56), repeat=2):
            reached = [reached_goal(score, rules) for score in scores]
            winners, losers = game_result(scores, rules)
            if not any(reached):
                assert (winners, losers) == ((), ())
            else:
                assert winners or (all(reached) and scores[0] == scores[1])


def test_sample_chance_shuffles_as_random_shuffle_does() -> None:
    """The same pack and the same generator state after it, seed by seed (R11)."""
    start = new_game(3)
    for seed in range(200):
        ours, reference = random.Random(seed), random.Random(seed)
        pack = list(DECK)
        reference.shuffle(pack)
        drawn = start.sample_chance(ours)
        assert type(drawn) is Shuffle
        assert drawn == Shuffle(pack)
        assert ours.getstate() == reference.getstate()
        assert pack_indices(drawn.pack) == tuple(card.index for card in pack)


class _Reversing(random.Random):
    """A generator with a shuffle of its own: ``sample_chance`` must use it."""

    def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
        x.reverse()


def test_sample_chance_uses_a_subclass_shuffle() -> None:
    assert new_game(2).sample_chance(_Reversing(1)) == Shuffle(DECK[::-1])


def test_a_drawn_pack_is_trusted_only_by_identity() -> None:
    """Only the very tuple drawn skips the check; an equal or a broken pack is checked."""
    start = new_game(2)
    drawn = start.sample_chance(random.Random(3))
    assert pack_indices(drawn.pack) is pack_indices(drawn.pack)  # the kept indices
    copied = drawn.pack[:16] + drawn.pack[16:]
    assert copied is not drawn.pack
    assert pack_indices(copied) == pack_indices(drawn.pack)
    assert pack_indices(drawn.pack[:-1] + drawn.pack[:1]) is None  # a card twice
    assert start.apply(Shuffle(drawn.pack)) == start.apply(drawn)
    with pytest.raises(IllegalActionError, match="R11"):
        start.apply(Shuffle(drawn.pack[:-1] + drawn.pack[:1]))
