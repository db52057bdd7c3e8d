"""``apply()`` accepts exactly the actions in ``legal_actions()`` and rejects every other one.

States come from seeded random play under drawn rules (every phase, later deals where
folding is possible, finished games).  Actions come from the whole action universe:
any card, any discard set (hand cards or not, the trump card or not) with or without
taking the trump card, fold, take, leave, shuffles that are permutations and shuffles
that are not, and objects that are no action at all.  A rejected action must raise
:class:`IllegalActionError` (nothing else), name a rule, and leave the state unchanged.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bohmisch_watten import (
    DECK,
    Card,
    Exchange,
    Fold,
    GameState,
    IllegalActionError,
    LeaveCritical,
    Phase,
    PlayCard,
    Rules,
    Shuffle,
    TakeCritical,
)

from game_strategies import game_states
from helpers import random_game

RULE_ID = re.compile(r"\bR\d+(\.\d)?\b")


def snapshot(state: GameState) -> tuple[Any, ...]:
    """Everything public about a state, to prove that a rejected action changed nothing."""
    return (
        state.phase,
        state.deal_number,
        state.dealer,
        state.current_player,
        state.scores,
        state.hands,
        state.stock,
        state.trump_card,
        state.trump_card_taken,
        state.folded,
        state.exchanged,
        state.discards,
        state.cut_looks,
        state.trick,
        state.tricks,
        state.tricks_won,
        state.last_deal,
        state.winners,
        state.losers,
        state.history,
        state.legal_actions(),
    )


def is_permutation(action: object) -> bool:
    return (
        isinstance(action, Shuffle)
        and len(action.pack) == 32
        and all(type(c) is Card for c in action.pack)
        and set(action.pack) == set(DECK)
    )


def check_action(state: GameState, action: Any) -> bool:
    """Apply ``action``; assert accepted iff legal.  Returns whether it was accepted."""
    # At a chance node any permutation is a legal shuffle (R11).
    legal = is_permutation(action) if state.is_chance_node else action in state.legal_actions()
    assert state.is_legal(action) == legal, action
    before = snapshot(state)
    if legal:
        after = state.apply(action)  # an IllegalActionError here fails the test
        assert after is not state
        assert len(after.history) == len(state.history) + 1
    else:
        with pytest.raises(IllegalActionError) as info:  # and nothing else
            state.apply(action)
        message = str(info.value)
        assert message
        if isinstance(action, (Shuffle, TakeCritical, LeaveCritical, Fold, Exchange, PlayCard)):
            assert RULE_ID.search(message), message  # the message names the rule
    assert snapshot(state) == before  # the state is unchanged either way
    return legal


def exhaustive_universe(state: GameState) -> list[Any]:
    """Every action that could make sense here: all plays, all discards of the hand
    (with and without the trump card), each with a foreign card too, fold, take, leave."""
    actions: list[Any] = [PlayCard(c) for c in DECK]
    actions += [Fold(), TakeCritical(), LeaveCritical()]
    seat = state.current_player
    hand = list(state.hands[seat]) if seat is not None else []
    foreign = [c for c in DECK if c not in hand][:1]
    if state.trump_card is not None and state.trump_card not in hand:
        foreign.append(state.trump_card)
    for size in range(len(hand) + 1):
        for discard in itertools.combinations(hand, size):
            for take in (False, True):
                actions.append(Exchange(discard, take_trump_card=take))
                for card in foreign:
                    actions.append(Exchange((*discard, card), take_trump_card=take))
    return actions


@pytest.mark.rule("R11", "R12", "R18", "R19", "R20", "R21", "R24", "R25", "R26")
@given(state=game_states())
def test_every_action_is_accepted_iff_legal(state: GameState) -> None:
    """Exhaustively over the discrete universe: the accepted set is legal_actions()."""
    accepted = [a for a in exhaustive_universe(state) if check_action(state, a)]
    if state.is_chance_node or state.is_terminal:
        assert accepted == []
    else:
        assert sorted(map(str, accepted)) == sorted(map(str, state.legal_actions()))


def discard_sets(state: GameState) -> st.SearchStrategy[frozenset[Any]]:
    seat = state.current_player
    hand = list(state.hands[seat]) if seat is not None else []
    near = hand + [c for c in (state.trump_card, *state.stock[:2]) if c is not None]
    parts = [st.frozensets(st.sampled_from(DECK), max_size=6)]
    if near:
        parts.append(st.frozensets(st.sampled_from(near), max_size=7))
    return st.one_of(parts)


def bad_packs() -> st.SearchStrategy[list[Any]]:
    """Shuffles that are not permutations of the 32 cards."""
    deck = list(DECK)
    return st.one_of(
        st.lists(st.sampled_from(DECK), max_size=40),  # wrong sizes and duplicates
        st.permutations(deck).map(lambda p: p[:-1]),  # one card missing
        st.permutations(deck).map(lambda p: [*p, p[0]]),  # one card twice, 33 cards
        st.permutations(deck).map(lambda p: [p[1], *p[1:]]),  # 32 cards, one twice
        st.permutations(deck).map(lambda p: [*p[:-1], str(p[-1])]),  # a code, not a Card
        st.permutations(deck).map(lambda p: [*p[:-1], None]),
    )


def universe(state: GameState) -> st.SearchStrategy[Any]:
    """Any action at all, and some things that are no action."""
    return st.one_of(
        st.sampled_from(DECK).map(PlayCard),
        st.builds(Exchange, discard_sets(state), take_trump_card=st.booleans()),
        st.sampled_from([Fold(), TakeCritical(), LeaveCritical()]),
        st.permutations(list(DECK)).map(Shuffle),
        bad_packs().map(Shuffle),
        st.sampled_from([None, "play HK", "fold", 7, DECK[0], object()]),
    )


@pytest.mark.rule("R11", "R12", "R18", "R19", "R20", "R21", "R24", "R25", "R26")
@given(data=st.data(), state=game_states())
def test_drawn_actions_are_accepted_iff_legal(data: st.DataObject, state: GameState) -> None:
    for _ in range(8):
        check_action(state, data.draw(universe(state), label="action"))


@pytest.mark.rule("R11")
@given(state=game_states(), pack=bad_packs())
def test_only_permutations_are_shuffles(state: GameState, pack: list[Any]) -> None:
    """A non-permutation is rejected at a chance node and everywhere else."""
    assert not check_action(state, Shuffle(pack))


@pytest.mark.rule("R31")
def test_nothing_is_accepted_after_the_end() -> None:
    """At GAME_OVER every action is rejected, a permutation too."""
    state, _ = random_game(2, 1, Rules(start_score=2))
    assert state.phase is Phase.GAME_OVER
    for action in [*exhaustive_universe(state), Shuffle(DECK)]:
        assert not check_action(state, action)
