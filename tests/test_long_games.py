"""What the library writes for a long game, its loaders read back with the default limits.

One game of 5,000 deals (four players, ``Rules(start_score=1000)``, random players who
drift upwards instead of reaching zero) is played once for the whole module: about a
second.  Its documents are the largest the library writes for a game of that length.
"""

from __future__ import annotations

import random

import pytest

from bohmisch_watten import (
    MAX_DOCUMENT_CHARS,
    FormatError,
    GameRecord,
    GameState,
    Position,
    Rules,
    from_json,
    load_record,
    new_game,
    replay,
    to_json,
)
from bohmisch_watten.notation import DEAL_LIMIT, SCORE_LIMIT
from bohmisch_watten.serialization import _load

DEALS = 5_000


@pytest.fixture(scope="module")
def long_game() -> GameState:
    rng = random.Random(1)
    state = new_game(4, rules=Rules(start_score=1000))
    while state.deal_number <= DEALS:
        assert not state.is_terminal, "the seed must give a game of 5,000 deals"
        legal = state.legal_actions()
        state = state.apply(state.sample_chance(rng) if state.is_chance_node else rng.choice(legal))
    return state


def test_the_text_record_of_5000_deals_loads_back(long_game: GameState) -> None:
    text = long_game.record().to_text()
    assert len(text) > 4_000_000  # past the old 1,000,000 limit near deal 1,000
    assert replay(load_record(text)) == long_game


def test_the_json_documents_of_5000_deals_load_back(long_game: GameState) -> None:
    record = long_game.record()
    assert GameRecord.from_json(record.to_json()) == record
    state_document = long_game.to_json()
    assert len(state_document) > 1_000_000  # past the old limit near deal 2,600
    assert GameState.from_json(state_document) == long_game


def test_the_view_of_5000_deals_is_within_the_limits(long_game: GameState) -> None:
    """Size, nesting and JSON syntax: the checks that come before reading the fields.

    Reading a view this long takes several seconds (its finished deals are rebuilt), so
    the whole round trip of views is left to test_serialization on shorter games.
    """
    document = to_json(long_game.view(2))
    assert len(document) > 4_000_000
    kind, _ = _load(document, "view", MAX_DOCUMENT_CHARS)
    assert kind == "view"


@pytest.mark.parametrize(
    "load",
    [
        lambda text: load_record(text),
        lambda text: GameRecord.from_text(text),
        lambda text: from_json(text),
        lambda text: GameState.from_json(text),
    ],
)
def test_too_large_says_how_to_raise_the_limit(load: object) -> None:
    text = " " * (MAX_DOCUMENT_CHARS + 1)
    with pytest.raises(FormatError, match=r"too large: .* limit \d+; .* pass max_chars=\d+"):
        load(text)  # type: ignore[operator]
    with pytest.raises(FormatError, match=r"too large: .* bytes, .* pass max_chars="):
        load(text.encode())  # type: ignore[operator]


def test_a_game_past_a_million_deals_keeps_its_views_and_documents() -> None:
    """The rules end a game only at the goal (R31): four players who keep taking no trick
    drift away from it for ever.  Four heuristic bots did, in 2 games of 300, and passed
    deal 1,000,000, where views, positions and documents once refused the deal number.
    This game starts just before that deal and plays on across it with random players.
    """
    rng = random.Random(3)
    high = 999_990
    start = Position(4, Rules(), 1, 999_999, (high, high + 5, high + 10, high + 15), (False,) * 4)
    state = GameState.from_position(start)
    assert state.position == start
    deal = state.deal_number
    while state.deal_number < 1_000_002:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
        if state.deal_number != deal:
            deal = state.deal_number
            for seat in range(4):
                view = state.view(seat)
                assert view.deal_number == deal
                assert from_json(to_json(view)) == view
            assert Position.parse(str(state.position)) == state.position
            assert GameState.from_json(state.to_json()) == state
    assert max(state.scores) > 1_000_000  # the old limit of the scores, passed too
    assert replay(load_record(state.record().to_text())) == state


@pytest.mark.parametrize(
    ("deal_number", "scores", "message"),
    [
        (DEAL_LIMIT + 1, (20, 20), "deal_number must be from 1 to"),
        (0, (20, 20), "deal_number must be from 1 to"),
        (1, (SCORE_LIMIT + 1, 20), "scores must lie within"),
        (1, (20, -SCORE_LIMIT - 1), "scores must lie within"),
    ],
)
def test_the_limits_beyond_any_game_are_still_limits(
    deal_number: int, scores: tuple[int, int], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Position(2, Rules(), 0, deal_number, scores, (False, False))
