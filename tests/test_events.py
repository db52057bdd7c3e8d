"""Events: what one apply() did, per seat, with no hidden card leaking (R11–R34)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bohmisch_watten import (
    DECK,
    Card,
    Exchange,
    GameState,
    IllegalActionError,
    PlayCard,
    Rules,
    Shuffle,
    new_game,
)
from bohmisch_watten.events import (
    CardPlayed,
    DealScored,
    DealStarted,
    Exchanged,
    GameOver,
    HandDealt,
    TrickWon,
    TrumpCardTurned,
    apply_with_events,
    describe,
    to_dicts,
)
from bohmisch_watten.tricks import winning_play

from game_strategies import policy, rules_strategy, seeds
from helpers import dealt_state

CODE = re.compile(r"\b[EGHS](?:10|[AKOU987])\b")


def _known(state: GameState, seat: int) -> set[str]:
    return set(CODE.findall(json.dumps(state.view(seat).to_dict())))


def _walk(n: int, rules: Rules, seed: int, steps: int) -> list[tuple[GameState, Any, GameState]]:
    rng = random.Random(seed)
    state = new_game(n, rules=rules, dealer=seed % n)
    out = []
    for _ in range(steps):
        if state.is_terminal:
            break
        action = policy(state, rng)
        after = state.apply(action)
        out.append((state, action, after))
        state = after
    return out


@settings(max_examples=25)
@given(st.integers(2, 4), rules_strategy, seeds, st.integers(1, 160))
def test_events_never_carry_a_card_the_seat_cannot_know(
    n: int, rules: Rules, seed: int, steps: int
) -> None:
    """For every seat p: the cards in p's events are in p's view before or after."""
    for before, action, after in _walk(n, rules, seed, steps)[-40:]:
        omniscient = describe(before, action, after)
        for seat in range(n):
            events = describe(before, action, after, observer=seat)
            assert [type(e) for e in events] == [type(e) for e in omniscient]
            text = json.dumps(to_dicts(events))
            leaked = set(CODE.findall(text)) - _known(before, seat) - _known(after, seat)
            assert not leaked, (action, text)


@settings(max_examples=15)
@given(st.integers(2, 4), rules_strategy, seeds)
def test_omniscient_events_tell_the_whole_game(n: int, rules: Rules, seed: int) -> None:
    """Replaying only the events gives the plays, tricks, scores and result of the game."""
    walk = _walk(n, rules, seed, 3000)
    events = [e for before, action, after in walk for e in describe(before, action, after)]
    final = walk[-1][2]
    plays = [a for _, a, _ in walk if isinstance(a, PlayCard)]
    assert [e.card for e in events if isinstance(e, CardPlayed)] == [a.card for a in plays]
    tricks = [e for e in events if isinstance(e, TrickWon)]
    assert sum(len(e.plays) for e in tricks) + len(final.trick) == len(plays)
    trumps = [e.card.suit for e in events if isinstance(e, TrumpCardTurned)]
    deal = 0
    for event in events:
        if isinstance(event, TrumpCardTurned):
            deal += 1
        if isinstance(event, TrickWon):  # R27: the winner is the engine's
            assert event.seat == winning_play(event.plays, trumps[deal - 1])[0]
    starts = [e for e in events if isinstance(e, DealStarted)]
    scored = [e for e in events if isinstance(e, DealScored)]
    assert [e.deal_number for e in starts][: len(scored)] == [e.deal_number for e in scored]
    if final.is_terminal:
        assert isinstance(events[-1], GameOver)
        assert events[-1].winners == final.winners
        assert scored[-1].scores == final.scores
    else:
        assert not any(isinstance(e, GameOver) for e in events)
    assert json.loads(json.dumps(to_dicts(events)))


def test_exchange_shows_the_cards_to_the_exchanging_seat_only() -> None:
    """R23: the count is public; discarded and drawn cards only for the seat."""
    state = dealt_state(3, {1: "EA EK EO EU E10"}, "G9", stock="H7 H8")
    action = Exchange({Card.parse("E10"), Card.parse("EU")})
    after, mine = apply_with_events(state, action, seat=1, observer=1)
    _, theirs = apply_with_events(state, action, observer=2)
    drawn = (Card.parse("H7"), Card.parse("H8"))
    assert mine == (Exchanged(1, 2, False, (Card.parse("E10"), Card.parse("EU")), drawn),)
    assert set(drawn) <= set(after.hands[1])
    assert theirs == (Exchanged(1, 2, False, None, None),)
    assert theirs[0].to_dict() == {
        "type": "exchanged",
        "seat": 1,
        "count": 2,
        "took_trump_card": False,
        "discarded": None,
        "drawn": None,
    }


def test_the_deal_shows_each_seat_its_own_hand() -> None:
    after, events = apply_with_events(new_game(3), Shuffle(DECK), observer=0)
    dealt = {e.seat: e.cards for e in events if isinstance(e, HandDealt)}
    assert dealt == {1: None, 2: None, 0: after.hands[0]}


def test_a_refused_action_has_no_events() -> None:
    state = dealt_state(2, {}, "G9")
    with pytest.raises(IllegalActionError, match="R18: it is seat 1's turn"):
        apply_with_events(state, Exchange(set()), seat=0)


@pytest.mark.parametrize(
    ("args", "name", "error"),
    [
        ((None, Exchange(set()), "after", None), "before", TypeError),
        (("state", Exchange(set()), None, None), "after", TypeError),
        (("state", Exchange(set()), "after", "0"), "observer", TypeError),
        (("state", Exchange(set()), "after", 5), "observer", ValueError),
    ],
)
def test_bad_arguments_are_named(args: tuple[Any, ...], name: str, error: type) -> None:
    state = dealt_state(2, {}, "G9")
    after = state.apply(Exchange(set()))
    values: list[Any] = [state if a == "state" else after if a == "after" else a for a in args]
    with pytest.raises(error, match=name):
        describe(*values)
