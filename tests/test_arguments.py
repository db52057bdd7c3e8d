"""Wrong arguments fail at the call with a message that names them; values stay immutable.

A wrong type raises ``TypeError`` naming the call, the argument and the expected type; a
duplicated card raises ``ValueError``; mutating any value of the library raises attrs'
``FrozenInstanceError`` (an ``AttributeError``), cards and public deal records included.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import attrs
import pytest

from bohmisch_watten import (
    DECK,
    MAXI,
    Card,
    Exchange,
    GameState,
    PlayCard,
    Rules,
    Shuffle,
    new_game,
    next_game,
)

from helpers import cards

START = new_game(4)


def _finished_game() -> GameState:
    rng = random.Random(5)
    state = new_game(2, rules=Rules(start_score=3))
    while not state.is_terminal:
        legal = state.legal_actions()
        state = state.apply(state.sample_chance(rng) if state.is_chance_node else rng.choice(legal))
    return state


@pytest.mark.rule("R11")
@pytest.mark.parametrize("rng", [None, 7, random.shuffle, "seed"])
def test_sample_chance_names_its_argument(rng: object) -> None:
    with pytest.raises(TypeError, match=r"^sample_chance\(rng\): rng must be a random\.Random"):
        START.sample_chance(rng)  # type: ignore[arg-type]


@pytest.mark.parametrize("phase_state", ["deal", "exchange"])
def test_sample_state_names_its_argument(phase_state: str) -> None:
    state = START
    if phase_state == "exchange":
        state = START.apply(START.sample_chance(random.Random(1)))
    view = state.view(0)
    with pytest.raises(TypeError, match=r"^sample_state\(rng\): rng must be a random\.Random"):
        view.sample_state(None)  # type: ignore[arg-type]
    assert view.sample_state(random.Random(1)).view(0) == view  # a Random still works


def test_a_subclass_of_random_is_accepted() -> None:
    class Counting(random.Random):
        pass

    assert isinstance(START.sample_chance(Counting(3)), Shuffle)


@pytest.mark.rule("R5")
@pytest.mark.parametrize("state", [None, "game over", START.view(0)])
def test_next_game_names_its_argument(state: object) -> None:
    with pytest.raises(TypeError, match=r"^next_game\(state\): state must be a GameState, got "):
        next_game(state)  # type: ignore[arg-type]


@pytest.mark.rule("R5")
def test_next_game_still_accepts_a_finished_game() -> None:
    game = _finished_game()
    assert next_game(game).dealer in game.winners


@pytest.mark.rule("R18")
@pytest.mark.parametrize("codes", ["HK HK", "G7 HK G7", "S9 S9 S9"])
def test_an_exchange_that_names_a_card_twice_is_refused(codes: str) -> None:
    with pytest.raises(ValueError, match=r"names .* more than once"):
        Exchange(cards(codes))


@pytest.mark.rule("R18")
def test_an_exchange_of_distinct_cards_is_kept_whole() -> None:
    assert Exchange(cards("HK G7 S9")).discard == frozenset(cards("HK G7 S9"))
    assert Exchange(iter(cards("HK G7"))) == Exchange(frozenset(cards("G7 HK")))
    assert Exchange([]) == Exchange(frozenset())


def _values() -> list[tuple[str, object]]:
    """One instance of every immutable value type of the public API."""
    game = _finished_game()
    rng = random.Random(2)
    state = new_game(4)
    while state.deal_number < 2 or state.is_chance_node:
        legal = state.legal_actions()
        state = state.apply(state.sample_chance(rng) if state.is_chance_node else rng.choice(legal))
    view = state.view(1)
    summary = game.last_deal
    assert summary is not None
    assert view.past_deals
    return [
        ("Card", MAXI),
        ("Rules", Rules()),
        ("Shuffle", Shuffle(DECK)),
        ("Exchange", Exchange(cards("HK"))),
        ("PlayCard", PlayCard(MAXI)),
        ("GameState", state),
        ("PlayerView", view),
        ("GameRecord", state.record()),
        ("DealSummary", summary),
        ("Trick", summary.tricks[0]),
        ("PublicDeal", view.past_deals[0]),
    ]


VALUES = _values()


@pytest.mark.parametrize(("name", "value"), VALUES, ids=[name for name, _ in VALUES])
def test_mutating_any_value_raises_frozen_instance_error(name: str, value: object) -> None:
    field = next(a for a in dir(value) if not a.startswith("_") and not callable(getattr(value, a)))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        setattr(value, field, None)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        value.new_attribute = None  # type: ignore[attr-defined]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        delattr(value, field)
    assert getattr(value, field) is not None


def test_frozen_instance_error_is_an_attribute_error() -> None:
    """The documented common base: code that catches AttributeError keeps working."""
    assert issubclass(attrs.exceptions.FrozenInstanceError, AttributeError)
    with pytest.raises(AttributeError):
        MAXI.rank = MAXI.rank  # type: ignore[misc]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: Card(None, None), r"Card\(suit, rank\) takes a Suit and a Rank"),  # type: ignore[arg-type]
        (lambda: Exchange(None), r"Exchange\.discard must be a set of Card objects"),  # type: ignore[arg-type]
        (lambda: Exchange(["HK"]), r"Exchange\.discard must contain Card objects"),  # type: ignore[list-item]
        (lambda: PlayCard("HK"), r"PlayCard\.card must be a Card"),  # type: ignore[arg-type]
        (lambda: Shuffle(None), r"Shuffle\.pack must be a sequence of Card"),  # type: ignore[arg-type]
    ],
)
def test_constructors_name_the_wrong_argument(call: Callable[[], object], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        call()
