"""The bots: legal, deterministic, picklable, and each heuristic rule as documented."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bohmisch_watten import (
    Card,
    Exchange,
    Fold,
    GameState,
    LeaveCritical,
    Phase,
    PlayCard,
    Rules,
    Suit,
    TakeCritical,
    new_game,
)
from bohmisch_watten.bots import (
    Bot,
    HeuristicBot,
    RandomBot,
    SearchBot,
    make_bot,
    play_out,
    policy,
)
from bohmisch_watten.bots._cards import card_value
from bohmisch_watten.bots.registry import BOT_NAMES
from bohmisch_watten.tricks import card_strength as power
from bohmisch_watten.tricks import outranks as beats
from bohmisch_watten.tricks import winning_play as winning
from bohmisch_watten.views import PlayerView

from helpers import VARIANTS, cards

FAST_SEARCH = SearchBot(rollouts=8)


def decision_state(
    seed: int,
    phase: Phase,
    players: int = 4,
    rules: Rules | None = None,
    *,
    fold: bool = False,
) -> GameState:
    """The first state of a random game where a seat must choose in ``phase``.

    With ``fold``, the first where folding is among the choices (never in deal 1, R21.1).
    """
    rng = random.Random(seed)
    state = new_game(players, rules=rules or Rules(), dealer=0)
    while True:
        if state.is_terminal:
            state = new_game(players, rules=rules or Rules(), dealer=0)
        elif state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
        elif (
            state.phase is phase
            and len(state.legal_actions()) > 1
            and (not fold or Fold() in state.legal_actions())
        ):
            return state
        else:
            state = state.apply(rng.choice(state.legal_actions()))


def test_bots_follow_the_protocol_and_pickle() -> None:
    for bot in (RandomBot(), HeuristicBot(), SearchBot(), SearchBot(rollouts=3, rollout="random")):
        assert isinstance(bot, Bot)
        assert pickle.loads(pickle.dumps(bot)) == bot


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_every_bot_plays_legal_games_under_every_variant(rules: Rules) -> None:
    bots = [HeuristicBot(), RandomBot(), FAST_SEARCH]
    end = play_out(new_game(3, rules=rules), bots, random.Random(3), max_deals=3)
    assert end.is_terminal or end.deal_number == 4
    assert any(seat == 2 for seat, _ in end.history)


def test_same_generator_same_game() -> None:
    bots = [SearchBot(rollouts=4, rollout="random"), RandomBot()]
    first = play_out(new_game(2), bots, random.Random(9), max_deals=2)
    second = play_out(new_game(2), bots, random.Random(9), max_deals=2)
    other = play_out(new_game(2), bots, random.Random(10), max_deals=2)
    assert first.history == second.history
    assert first.history != other.history


def test_play_out_until_the_end_of_the_deal() -> None:
    state = decision_state(4, Phase.PLAY)
    end = play_out(state, [HeuristicBot()] * 4, random.Random(1), until="deal")
    assert end.deal_number == state.deal_number + 1 or end.is_terminal
    assert end.phase in (Phase.DEAL, Phase.GAME_OVER)
    assert end.last_deal is not None


def test_play_out_arguments() -> None:
    with pytest.raises(ValueError, match="needs 4 bots"):
        play_out(new_game(4), [RandomBot()], random.Random(1))
    with pytest.raises(ValueError, match="until"):
        play_out(new_game(2), [RandomBot()] * 2, random.Random(1), until="trick")  # type: ignore[arg-type]
    end = play_out(
        new_game(2, rules=Rules(start_score=200)), [RandomBot()] * 2, random.Random(1), max_deals=2
    )
    assert end.deal_number == 3
    assert end.is_chance_node


# ----------------------------------------------------------------- the heuristic rules


@pytest.mark.rule("R12")
def test_rule1_takes_every_critical() -> None:
    assert policy.choose_cut([LeaveCritical(), TakeCritical()]) == TakeCritical()
    assert policy.choose_cut([LeaveCritical()]) == LeaveCritical()
    state = decision_state(0, Phase.CUT)
    assert (
        HeuristicBot().choose(state.view(state.current_player), random.Random(0)) == TakeCritical()
    )  # type: ignore[arg-type]


def _exchanges(hand: list[Card], dealer: bool = False) -> list[Exchange | Fold]:
    from itertools import combinations

    out: list[Exchange | Fold] = [Fold()]
    for k in range(4):
        for discard in combinations(hand, k):
            out.append(Exchange(frozenset(discard)))
            if dealer and k >= 1:
                out.append(Exchange(frozenset(discard), take_trump_card=True))
    return out


@pytest.mark.rule("R18", "R19")
def test_rule2_keeps_criticals_and_high_trumps_and_exchanges_low_plain_cards() -> None:
    hand = cards("HK GA G9 E8 S9")  # Maxi, trump ace, trump nine, two low plain cards
    action = policy.choose_exchange(hand, _exchanges(hand)[1:], Card.parse("G7"))
    assert action == Exchange(frozenset(cards("E8 S9")))
    dealer = policy.choose_exchange(hand, _exchanges(hand, dealer=True)[1:], Card.parse("GK"))
    assert isinstance(dealer, Exchange)
    assert dealer.take_trump_card
    assert not {Card.parse("HK"), Card.parse("GA")} & dealer.discard


@pytest.mark.rule("R21", "R29")
def test_rule3_folds_a_weak_hand_only_when_allowed() -> None:
    weak = cards("E8 E9 S8 S10 HO")
    assert policy.choose_exchange(weak, _exchanges(weak), Card.parse("G7")) == Fold()
    assert isinstance(
        policy.choose_exchange(weak, _exchanges(weak)[1:], Card.parse("G7")), Exchange
    )
    strong = cards("HK S7 GA GK EA")
    assert isinstance(
        policy.choose_exchange(strong, _exchanges(strong), Card.parse("G7")), Exchange
    )
    assert policy.expected_gain([1.0, 1.0]) == -2.0
    assert policy.expected_gain([0.0]) == 5.0


@pytest.mark.rule("R24", "R25")
def test_rule4_leads_trumps_when_strong_else_an_ace_else_the_lowest() -> None:
    trump = Suit.LEAVES
    strong = cards("HK GA G9 E8 S9")
    assert policy.choose_play(strong, (), trump) == Card.parse("HK")
    ace = cards("EA GA E8 S9 S10")
    assert policy.choose_play(ace, (), trump) == Card.parse("EA")
    plain = cards("EK GA E8 S9 S10")
    assert policy.choose_play(plain, (), trump) == Card.parse("E8")
    trumps_only = cards("GA G8")
    assert policy.choose_play(trumps_only, (), trump) == Card.parse("G8")


@pytest.mark.rule("R25", "R27")
def test_rule5_wins_as_cheaply_as_possible_or_throws_the_lowest() -> None:
    trump = Suit.LEAVES
    trick = ((0, Card.parse("E10")),)
    assert policy.choose_play(cards("EA EO E8"), trick, trump) == Card.parse("EO")
    trumped = ((0, Card.parse("E10")), (1, Card.parse("GU")))
    assert policy.choose_play(cards("GA G9"), trumped, trump) == Card.parse("GA")
    assert policy.choose_play(cards("EA E8"), trumped, trump) == Card.parse("E8")


@pytest.mark.rule("R7", "R8", "R9", "R27")
def test_card_sense() -> None:
    trump = Suit.BELLS
    assert (
        power(Card.parse("HK"), trump)
        > power(Card.parse("S7"), trump)
        > power(Card.parse("E7"), trump)
    )
    assert (
        power(Card.parse("E7"), trump)
        > power(Card.parse("SA"), trump)
        > power(Card.parse("EA"), trump)
    )
    led = int(Suit.HEARTS)
    assert not beats(Card.parse("HA"), Card.parse("HK"), led, trump)  # Maxi is a trump (R8)
    assert beats(Card.parse("S8"), Card.parse("HA"), led, trump)
    assert not beats(Card.parse("EA"), Card.parse("H8"), led, trump)  # not the suit led
    trick = ((1, Card.parse("H8")), (2, Card.parse("HA")), (3, Card.parse("EA")))
    assert winning(trick, trump) == (2, Card.parse("HA"))
    assert card_value(Card.parse("HK"), trump) == 1.0
    assert card_value(Card.parse("E8"), trump) < card_value(Card.parse("EA"), trump)


@pytest.mark.rule("R13", "R23")
@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([Phase.EXCHANGE, Phase.PLAY]))
def test_bots_decide_on_what_the_seat_may_know(seed: int, phase: Phase) -> None:
    """Two states that differ only in cards the seat cannot see get the same decision."""
    state = decision_state(seed, phase)
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    other = view.sample_state(random.Random(seed + 1))
    assert other.view(seat) == view
    for bot in (HeuristicBot(), FAST_SEARCH, RandomBot()):
        first = bot.choose(view, random.Random(seed))
        assert first in state.legal_actions()
        assert bot.choose(other.view(seat), random.Random(seed)) == first


# ----------------------------------------------------------------- the search


def test_hint_ranks_every_candidate_and_choose_takes_the_first() -> None:
    state = decision_state(11, Phase.PLAY)
    view = state.view(state.current_player)  # type: ignore[arg-type]
    hint = FAST_SEARCH.hint(view)
    assert {a for a, _ in hint} == set(view.legal_actions())
    values = [v for _, v in hint]
    assert values == sorted(values, reverse=True)
    assert FAST_SEARCH.hint(view) == hint  # the default generator is seeded
    assert FAST_SEARCH.choose(view, random.Random(0)) == hint[0][0]


def test_search_prunes_exchanges_to_the_best_and_the_fold() -> None:
    state = decision_state(2, Phase.EXCHANGE, fold=True)
    view = state.view(state.current_player)  # type: ignore[arg-type]
    bot = SearchBot(rollouts=6, max_candidates=4)
    candidates = bot.candidates(view)
    assert len(candidates) == 4
    assert Fold() in candidates
    assert bot.choose(view, random.Random(1)) in candidates


def test_search_with_a_time_budget_and_no_decision() -> None:
    state = decision_state(5, Phase.PLAY)
    view = state.view(state.current_player)  # type: ignore[arg-type]
    hint = SearchBot(time_ms=5).hint(view, random.Random(2))
    assert len(hint) == len(view.legal_actions())
    idle = next(s for s in range(4) if s != state.current_player)
    assert SearchBot().hint(state.view(idle)) == []


def test_search_scores_the_end_of_the_game() -> None:
    rules = Rules(start_score=2)  # the first deal can end the game (R31)
    state = decision_state(7, Phase.PLAY, rules=rules)
    view = state.view(state.current_player)  # type: ignore[arg-type]
    values = [v for _, v in SearchBot(rollouts=16).hint(view)]
    assert any(abs(v) > 2 for v in values)  # the game bonus is in the values


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"rollouts": 0}, ValueError),
        ({"rollouts": 2.5}, TypeError),
        ({"rollouts": True}, TypeError),
        ({"time_ms": -1}, ValueError),
        ({"time_ms": "fast"}, TypeError),
        ({"rollout": "greedy"}, ValueError),
    ],
)
def test_search_arguments(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        SearchBot(**kwargs)  # type: ignore[arg-type]


def test_make_bot() -> None:
    assert set(BOT_NAMES) == {"random", "heuristic", "search", "expert"}
    assert make_bot("random") == RandomBot()
    assert make_bot(" Heuristic ") == HeuristicBot()
    assert make_bot("search:rollouts=60:time_ms=2.5") == SearchBot(rollouts=60, time_ms=2.5)
    assert make_bot("arena_bots.SlowBot:seconds=0.5").seconds == 0.5  # type: ignore[attr-defined]
    bad_specs = [
        ("minimax", "unknown bot"),
        ("search:depth=3", "bad parameter"),
        ("search:rollouts", "bad parameter"),
        ("search:rollouts=x", "must be an int"),
        ("random:x=1", "fields: none"),
        ("arena_bots.Nothing", "unknown bot"),
        ("arena_bots.NotABot", "no choose"),
        ("nomodule.Bot", "dotted class path"),
    ]
    for bad, message in bad_specs:
        with pytest.raises(ValueError, match=message):
            make_bot(bad)
    with pytest.raises(TypeError, match="spec"):
        make_bot(3)  # type: ignore[arg-type]


def test_views_are_what_bots_get() -> None:
    state = decision_state(1, Phase.PLAY)
    assert isinstance(state.view(0), PlayerView)
    assert PlayCard(state.view(state.current_player).hand[0]) is not None  # type: ignore[arg-type]
