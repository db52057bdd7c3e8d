"""One rule, one home: every user calls the one implementation, which works as before.

Trick strength and the winner (R7–R10, R27) live in ``tricks``; who looks at the cut
card (R12, R14) in ``dealing``; a deal's action sequence in ``_history``; the position
of a finished game in ``_layout``; the deal's score is worked out once per state, by
the guard that decides the game's end, and posted as it is.
"""

from __future__ import annotations

import itertools
import pickle
import random
from pathlib import Path

import pytest

import bohmisch_watten
from bohmisch_watten import DECK, Card, Phase, Rules, Suit, new_game
from bohmisch_watten import state as state_module
from bohmisch_watten.actions import EXCHANGES, EXCHANGES_WITH_TRUMP, Exchange
from bohmisch_watten.cards import BELLI, MAXI, SPITZ, bits
from bohmisch_watten.dealing import cut_looker
from bohmisch_watten.rules import Schleck
from bohmisch_watten.scoring import deal_points, post_scores
from bohmisch_watten.state import (
    final_position,
    history_tuple,
    last_deal_of,
    last_shuffle,
    restore_state,
)
from bohmisch_watten.tricks import (
    TRUMP,
    card_strength,
    effective_suit,
    legal_play_mask,
    outranks,
    trick_winner,
    winning_play,
)
from bohmisch_watten.web._narrate import narrate, narrate_events

from helpers import random_game

PACKAGE = Path(bohmisch_watten.__file__).resolve().parent


def _reference_power(card: Card, trump: Suit) -> int:
    """R7–R9 as written: Maxi, Belli, Spitz, then trumps by rank, then plain by rank."""
    critical = {MAXI: 302, BELLI: 301, SPITZ: 300}.get(card)
    if critical is not None:
        return critical
    return (200 if card.suit is trump else 100) + int(card.rank)


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


@pytest.mark.rule("R7", "R8", "R9", "R10")
def test_card_strength_orders_cards_as_the_rules_do() -> None:
    for trump in Suit:
        for a, b in itertools.product(DECK, DECK):
            expected = _sign(_reference_power(a, trump) - _reference_power(b, trump))
            assert _sign(card_strength(a, trump) - card_strength(b, trump)) == expected


@pytest.mark.rule("R8", "R10", "R27")
def test_effective_suit_and_outranks_agree_with_the_trick_winner() -> None:
    rng = random.Random(5)
    for _ in range(400):
        trump = rng.choice(list(Suit))
        cards = rng.sample(DECK, 4)
        trick = list(enumerate(cards))
        best = trick[0]
        led = effective_suit(cards[0], trump)
        assert (led == TRUMP) == (cards[0].is_critical or cards[0].suit is trump)
        for play in trick[1:]:
            if outranks(play[1], best[1], led, trump):
                best = play
        assert winning_play(trick, trump) == best
        assert trick_winner(trick, trump) == best[0]


def test_trick_winner_is_none_without_a_trick_or_a_trump() -> None:
    assert trick_winner((), Suit.HEARTS) is None
    assert trick_winner(((0, DECK[0]),), None) is None


@pytest.mark.parametrize("led", [-1, 5, True, "0"])
def test_outranks_names_a_bad_led_suit(led: object) -> None:
    with pytest.raises(TypeError, match="led"):
        outranks(DECK[0], DECK[1], led, Suit.HEARTS)  # type: ignore[arg-type]


@pytest.mark.rule("R12", "R14")
def test_cut_looker_alternates_or_stays_with_the_cutter() -> None:
    for n, dealer in itertools.product((2, 3, 4), range(4)):
        if dealer >= n:
            continue
        cutter = (dealer - 1) % n
        assert [cut_looker(k, dealer, n, Schleck.ALTERNATE) for k in range(3)] == [
            cutter,
            dealer,
            cutter,
        ]
        assert [cut_looker(k, dealer, n, Schleck.CUTTER_ONLY) for k in range(3)] == [cutter] * 3


def test_the_shuffle_of_a_deal_is_found_and_its_absence_explained() -> None:
    state = new_game(3)
    with pytest.raises(ValueError, match="no shuffle"):
        last_shuffle(state.history_node)
    shuffle = state.sample_chance(random.Random(1))
    assert last_shuffle(state.apply(shuffle).history_node) is shuffle


def test_the_final_position_and_its_inverse() -> None:
    position = final_position(4, Rules(), 3, 9, (1, 2, 3, -1), (False,) * 4)
    assert (position.dealer, position.deal_number) == (0, 10)
    assert last_deal_of(position) == (3, 9)


@pytest.mark.rule("R28", "R29", "R30", "R31")
def test_the_deal_is_scored_once_and_posted_as_the_guard_saw_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = []

    def counting(scores: tuple[int, ...], points: tuple[int, ...], rules: Rules) -> object:
        calls.append(scores)
        return post_scores(scores, points, rules)

    monkeypatch.setattr(state_module, "post_scores", counting)
    rng = random.Random(11)
    state = new_game(4)
    deals = 0
    while not state.is_terminal and deals < 6:
        if state.is_chance_node:
            deals += 1
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    finished = len(state.past_deals)
    assert finished >= 1
    assert len(calls) == finished  # one score per deal: the guard's, posted by the effect


def test_deal_score_is_what_the_scoring_rules_give_and_needs_a_trump() -> None:
    with pytest.raises(ValueError, match="trump card"):
        _ = new_game(2).deal_score
    for state in random_game(3, 4, max_deals=2)[1]:
        if state.phase is not Phase.PLAY:
            continue
        suit = state.trump_suit
        assert suit is not None
        points = deal_points(state.tricks_won, state.folded, suit, state.rules)
        assert state.deal_score.points == points
        assert state.deal_score is state.deal_score  # kept, not recomputed


def test_a_state_is_restored_from_its_fields_and_flat_history() -> None:
    names = state_module._FIELD_NAMES
    for state in random_game(4, 2, max_deals=1)[1]:
        values = tuple(getattr(state, name) for name in names)
        restored = restore_state(values, history_tuple(state.history_node))
        assert restored == state
        assert restored.play_mask == state.play_mask
        assert pickle.loads(pickle.dumps(state)).play_mask == state.play_mask


def test_the_play_mask_is_the_legal_play_mask() -> None:
    for state in random_game(4, 8, max_deals=2)[1]:
        if state.phase is Phase.PLAY:
            seat = state.current_player
            assert seat is not None
            assert state.play_mask == legal_play_mask(
                state.hand_masks[seat],
                state.trick_plays,
                state.trump_index >> 3,
                state.rules.must_head,
            )
        else:
            assert state.play_mask == 0


def test_exchanges_built_from_masks_equal_exchanges_built_by_attrs() -> None:
    rng = random.Random(2)
    for _ in range(300):
        cards = rng.sample(DECK, rng.randint(0, 4))
        mask = sum(1 << card.index for card in cards)
        for table, take in ((EXCHANGES, False), (EXCHANGES_WITH_TRUMP, True)):
            built, made = table[mask], Exchange(set(cards), take)
            assert built == made
            assert hash(built) == hash(made)
            assert built.discard_mask == made.discard_mask == mask


def test_the_compact_reads_are_the_card_reads() -> None:
    for state in random_game(4, 3, max_deals=2)[1]:
        assert state.hands == tuple(tuple(DECK[i] for i in bits(m)) for m in state.hand_masks)
        assert state.exchange_counts == tuple(-1 if k is None else k for k in state.exchanged)
        assert state.trump_card_taken == state.deal_fields.took_trump
        for seat in range(4):
            view = state.view(seat)
            assert view.hand == tuple(DECK[i] for i in bits(view.hand_mask))
            assert view.discards == tuple(DECK[i] for i in bits(view.discard_mask))
            assert view.draws == tuple(DECK[i] for i in view.draw_indices)
            assert len(view.cut_entries) == len(view.cut_looks)
            assert view.past_summaries is state.past_deals
            assert view.trump_index == state.trump_index
            assert view.exchange_counts == state.exchange_counts
            assert view.trick_plays == state.trick_plays
            assert view.played_tricks == state.played_tricks


def test_narration_is_written_from_the_events() -> None:
    state = new_game(2)
    rng = random.Random(4)
    for _ in range(40):
        if state.is_terminal:
            break
        action = (
            state.sample_chance(rng) if state.is_chance_node else rng.choice(state.legal_actions())
        )
        after = state.apply(action)
        names = ["You", "Ann"]
        from bohmisch_watten.events import describe

        events = describe(state, action, after, 0)
        assert narrate(state, state.current_player, action, after, 0, names) == narrate_events(
            events, state, 0, names
        )
        state = after


def test_view_previous_folds_is_the_state_s() -> None:
    """R21.4: a view reads who folded in the previous deal as the state does."""
    import random as _random

    from bohmisch_watten import Fold, new_game

    rng = _random.Random(5)
    seen_fold = False
    for _ in range(30):
        state = new_game(4)
        while not state.is_terminal and state.deal_number < 6:
            if state.is_chance_node:
                state = state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            folds = [a for a in legal if isinstance(a, Fold)]
            state = state.apply(folds[0] if folds and rng.random() < 0.5 else rng.choice(legal))
            for seat in range(4):
                assert state.view(seat).previous_folds == state.previous_folds
            seen_fold = seen_fold or any(state.previous_folds)
        if seen_fold:
            break
    assert seen_fold
