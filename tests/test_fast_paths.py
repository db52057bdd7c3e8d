"""The engine's fast paths give exactly what the plain paths give.

``apply()`` makes states with a private constructor that fills the slots directly,
lists exchanges from tables indexed by cards, and asks ``game_result`` with a shortcut
for the common "nobody reached the goal"; ``sample_chance`` shuffles by its own copy of
``random.Random.shuffle``; a card played works out the next play mask inline and takes
the phase machine's answer without asking it before the fifth trick; the scoring leaves
the deal's summary to be built when read.  Each is checked here against the simple way:
attrs' own ``__init__``, the subsets of the hand enumerated by ``itertools``, the goal
rule seat by seat, the standard library's shuffle, ``legal_play_mask``, the machine's
own guard, and a summary built by name from the scored state's public reads.
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
    Exchange,
    GameState,
    IllegalActionError,
    Phase,
    PlayCard,
    Position,
    Shuffle,
    Suit,
    new_game,
)
from bohmisch_watten.actions import EXCHANGES, EXCHANGES_WITH_TRUMP, exchange_options
from bohmisch_watten.deals import DealSummary, PastDeals, Trick
from bohmisch_watten.phases import TABLE
from bohmisch_watten.scoring import game_result, reached_goal
from bohmisch_watten.state import (
    _EXCHANGE_TO,
    _PLAY_DECIDE,
    _PLAY_ON,
    _STEPS,
    completes_deal,
    dealer_decides,
    make,
    pack_indices,
    summarize,
)
from bohmisch_watten.tricks import legal_play_mask

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
        fast, slow = make(*values), GameState(*values)
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


def test_a_drawn_pack_is_trusted_only_as_drawn() -> None:
    """Only a pack drawn by sample_chance skips the check; an equal or a broken pack is
    checked, and the drawn pack is equal to, hashes and pickles as the plain tuple."""
    start = new_game(2)
    drawn = start.sample_chance(random.Random(3))
    assert pack_indices(drawn.pack) is pack_indices(drawn.pack)  # the kept indices
    assert drawn == Shuffle(tuple(drawn.pack))
    assert hash(drawn) == hash(Shuffle(tuple(drawn.pack)))
    assert type(pickle.loads(pickle.dumps(drawn.pack))) is tuple
    assert type(copy.copy(drawn.pack)) is tuple
    assert pickle.loads(pickle.dumps(drawn)) == drawn
    copied = drawn.pack[:16] + drawn.pack[16:]
    assert copied is not drawn.pack
    assert pack_indices(copied) == pack_indices(drawn.pack)
    assert pack_indices(drawn.pack[:-1] + drawn.pack[:1]) is None  # a card twice
    assert start.apply(Shuffle(drawn.pack)) == start.apply(drawn)
    with pytest.raises(IllegalActionError, match="R11"):
        start.apply(Shuffle(drawn.pack[:-1] + drawn.pack[:1]))


def test_the_play_mask_worked_out_inline_is_legal_play_mask() -> None:
    """R24–R26: every PLAY state's kept mask is what ``legal_play_mask`` gives."""
    playing = [state for state in STATES if state.phase is Phase.PLAY]
    assert len(playing) > 100
    for state in playing:
        seat = state.current_player
        assert seat is not None
        expected = legal_play_mask(
            state.hand_masks[seat], state.trick_plays, state.trump_index >> 3,
            state.rules.must_head,
        )  # fmt: skip
        assert state.play_mask == expected


def test_before_the_fifth_trick_the_machine_keeps_a_card_in_play() -> None:
    """``play`` takes ``_PLAY_ON`` without asking the machine before the fifth trick (R24).

    The machine's entry for a card played has one guard, ``completes_deal``; it cannot
    hold with fewer than four tricks played, and the entry then answers ``_PLAY_ON``.
    """
    options = TABLE[(Phase.PLAY, "play")]
    guards = {name for _, cond, unless in options for name in cond + unless}
    assert guards == {"completes_deal"}
    decide = _STEPS[PlayCard][Phase.PLAY][1]
    for state in STATES:
        if state.phase is Phase.PLAY and len(state.played_tricks) < 4:
            for action in state.legal_actions():
                assert not completes_deal(state, action)
                assert decide(state, action) is _PLAY_ON is Phase.PLAY


def test_an_exchange_goes_where_the_machine_sends_it() -> None:
    """``exchange`` reads ``_EXCHANGE_TO[dealer]`` instead of asking the guard (R18, R19)."""
    options = TABLE[(Phase.EXCHANGE, "exchange")]
    guards = {name for _, cond, unless in options for name in cond + unless}
    assert guards == {"dealer_decides"}
    decide = _STEPS[Exchange][Phase.EXCHANGE][1]
    seen = set()
    for state, after in itertools.pairwise(STATES):
        node = after.history_node
        if state.phase is not Phase.EXCHANGE or node is None or node[0] is not state.history_node:
            continue
        action = node[2]
        if isinstance(action, Exchange):
            dealer = state.current_player == state.dealer
            assert dealer_decides(state, action) is dealer
            assert after.phase is decide(state, action) is _EXCHANGE_TO[dealer]
            seen.add(dealer)
    assert seen == {False, True}


def _summary_by_name(scored: GameState) -> DealSummary:
    """The summary of the deal ``scored`` (phase SCORE) scores, from its public reads."""
    deal_score = scored.deal_score
    trump = scored.trump_card
    assert trump is not None
    return DealSummary(
        deal_number=scored.deal_number,
        dealer=scored.dealer,
        trump_card=trump,
        trump_suit=trump.suit,
        trump_card_taken=scored.trump_card_taken,
        folded=scored.folded,
        exchanged=scored.exchanged,
        tricks=tuple(
            Trick(tuple((seat, DECK[card]) for seat, card in plays), winner)
            for plays, winner in scored.played_tricks
        ),
        tricks_won=scored.tricks_won,
        points=tuple(a - b for a, b in zip(deal_score.scores, scored.scores, strict=True)),
        scores=deal_score.scores,
        doubled=trump.suit is Suit.HEARTS and scored.rules.hearts_double,
        cut=tuple(
            (seat, card if taken else None, taken, card.is_critical)
            for seat, card, taken, _ in scored.cut_looks
        ),
    )


def test_a_summary_built_when_read_is_the_summary_of_the_scored_deal() -> None:
    """The scoring appends the deal unbuilt: read later, it is the deal's summary (R29–R34).

    ``last_folded`` answers without building it; a state of the next deal equals one whose
    past deals were built eagerly, and hashes and pickles alike.
    """
    scored = 0
    for before, after in itertools.pairwise(STATES):
        if before.phase is not Phase.PLAY or after.phase is Phase.PLAY:
            continue
        if after.past_deals is before.past_deals:
            continue  # a new game in the list of states, not a scoring
        past = after.game_fields.past
        assert past.last_folded == before.folded  # known before the summary is built
        reference = _summary_by_name(summarize_source(before, after))
        assert after.last_deal == reference
        assert after.last_deal is after.last_deal  # built once, kept
        assert past.last_folded == reference.folded
        eager = PastDeals((*before.past_deals, reference))
        assert past == eager
        assert hash(past) == hash(eager)
        assert pickle.loads(pickle.dumps(after)) == after
        scored += 1
    assert scored > 20


def summarize_source(before: GameState, after: GameState) -> GameState:
    """The state in phase SCORE between ``before`` and ``after`` (``apply()`` passes it)."""
    node = after.history_node
    assert node is not None
    scored = before._apply_play(node[2], _PLAY_DECIDE)  # the card played last
    assert scored.phase is Phase.SCORE
    assert summarize(scored._scored_deal()) == _summary_by_name(scored)
    return scored
