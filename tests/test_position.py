"""Positions: the value, its one-line text form and games started from one (R21.4)."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bohmisch_watten import (
    Fold,
    FormatError,
    GameState,
    IllegalActionError,
    Position,
    Rules,
    new_game,
)
from bohmisch_watten.position import MAX_POSITION_CHARS

_TEXT = re.compile(r"[A-Za-z0-9._:;/+-]+")


@st.composite
def positions(draw: st.DrawFn) -> Position:
    n = draw(st.integers(2, 4))
    dealer = draw(st.integers(0, n - 1))
    deal = draw(st.integers(1, 500))
    rules = Rules(
        schleck=draw(st.sampled_from(["alternate", "cutter_only", "none"])),
        must_head=draw(st.booleans()),
        start_score=draw(st.integers(1, 1000)),
        min_fold_score=draw(st.integers(-1000, 1000)),
    )
    scores = tuple(draw(st.lists(st.integers(-999, 999), min_size=n, max_size=n)))
    folded = (False,) * n
    if deal > 1 and n > 2:
        seat = draw(st.integers(0, n - 1))
        if seat != (dealer - 1) % n:
            folded = tuple(s == seat for s in range(n))
    return Position(n, rules, dealer, deal, scores, folded)


@given(positions())
def test_text_form_round_trips_with_safe_characters(position: Position) -> None:
    text = str(position)
    assert _TEXT.fullmatch(text), text
    assert Position.parse(text) == position
    assert eval(repr(position), {"Position": Position}) == position


def test_example_text() -> None:
    position = Position(4, Rules(schleck="none"), 2, 7, (3, 12, 20, 8), (False, False, True, False))
    assert str(position) == "p4/d2/n7/s3.12.20.8/f0010/schleck:none"
    assert Position.start(3, dealer=1) == Position.parse("p3/d1/n1/s20.20.20/f000/default")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "p4/d2/n7/s3.12.20.8/f0010",
        "p4/d2/n7/s3.12.20.8/f0010/default/x",
        "p5/d2/n7/s3.12.20.8/f0010/default",
        "p4/d4/n7/s3.12.20.8/f0010/default",
        "p4/d2/n0/s3.12.20.8/f0010/default",
        "p4/d2/n7/s3.12.20/f0010/default",
        "p4/d2/n7/s3.12.20.x/f0010/default",
        "p4/d2/n7/s3.12.20.8/f0012/default",
        "p4/d2/n7/s3.12.20.8/f0100/default",  # the previous dealer folded (R21.5)
        "p4/d2/n1/s3.12.20.8/f0010/default",  # a fold before the first deal (R21.1)
        "p4/d2/n7/s3.12.20.8/f1011/default",
        "p4/d2/n7/s3.12.20.8/f0010/schleck:sometimes",
        "p4/d2/n7/s3.12.20.8/f0010/must_head:maybe",
        "p4/d2/n7/s3.12.20.8/f0010/must_head:true;must_head:true",
        "p4/d2/n7/s3.12.20.8/f0010/start_score:x",
        "p4/d2/n7/s3.12.20.8/f0010/nonsense:1",
        "p4 d2 n7",
        "p4/d2/n7/s3,12,20,8/f0010/default",
        "q4/d2/n7/s3.12.20.8/f0010/default",
        "p4/d2/n7/s9999999999999999999.12.20.8/f0010/default",  # more digits than any score
        "p4/d2/n7/s999999999999999999.12.20.8/f0010/default",  # beyond SCORE_LIMIT
        "p4/d2/n99999999999999999/s3.12.20.8/f0010/default",  # more digits than any deal
        "p4/d2/n9999999999999999/s3.12.20.8/f0010/default",  # beyond DEAL_LIMIT
        "p" + "9" * (MAX_POSITION_CHARS + 1),
        b"\xff",
        42,
    ],
)
def test_hostile_text_raises_format_error(text: object) -> None:
    with pytest.raises(FormatError):
        Position.parse(text)


def test_bytes_are_read() -> None:
    assert Position.parse(b"p2/d0/n1/s20.20/f00/default") == Position.start(2)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"num_players": 5}, ValueError),
        ({"num_players": True}, ValueError),
        ({"rules": "default"}, TypeError),
        ({"dealer": 1.0}, TypeError),
        ({"dealer": 4}, ValueError),
        ({"deal_number": "7"}, TypeError),
        ({"deal_number": 0}, ValueError),
        ({"scores": (1, 2, 3)}, ValueError),
        ({"scores": (1, 2, 3, "4")}, TypeError),
        ({"scores": (1, 2, 3, 10**18)}, ValueError),
        ({"deal_number": 10**16}, ValueError),
        ({"folded": (0, 0, 1, 0)}, TypeError),
        ({"folded": (False, True)}, ValueError),
    ],
)
def test_constructor_validates(kwargs: dict[str, object], error: type[Exception]) -> None:
    fields: dict[str, object] = {
        "num_players": 4,
        "rules": Rules(),
        "dealer": 2,
        "deal_number": 7,
        "scores": (3, 12, 20, 8),
        "folded": (False, False, True, False),
    }
    fields.update(kwargs)
    with pytest.raises(error):
        Position(**fields)  # type: ignore[arg-type]


def test_lists_are_accepted() -> None:
    assert Position(2, Rules(), 0, 1, [20, 20], [False, False]) == Position.start(2)


def _play_deal(state: GameState, rng: random.Random) -> GameState:
    number = state.deal_number
    while not state.is_terminal and state.deal_number == number:
        state = state.apply(
            state.sample_chance(rng) if state.is_chance_node else rng.choice(state.legal_actions())
        )
    return state


@pytest.mark.rule("R21.4")
def test_from_position_enforces_the_previous_fold() -> None:
    position = Position.parse("p4/d2/n7/s10.12.20.8/f0010/default")
    state = GameState.from_position(position)
    assert state.position == position == state.start_position
    assert state.history == ()
    assert state.last_deal is None
    rng = random.Random(3)
    while True:  # a deal where Hearts are not trumps, so folding is possible at all
        dealt = state.apply(state.sample_chance(rng))
        if dealt.trump_suit.name != "HEARTS":  # type: ignore[union-attr]
            break
    while dealt.current_player != 2:
        dealt = dealt.apply(dealt.legal_actions()[-1])
    assert Fold() not in dealt.legal_actions()
    with pytest.raises(IllegalActionError, match="R21.4"):
        dealt.apply(Fold())
    assert dealt.view(2).position == position


def test_position_follows_the_game() -> None:
    rng = random.Random(5)
    state = new_game(4, dealer=1)
    assert state.position == Position.start(4, dealer=1)
    for _ in range(3):
        state = _play_deal(state, rng)
    position = state.position
    assert position.deal_number == state.deal_number == 4
    assert position.dealer == state.dealer == 0
    assert position.scores == state.scores
    assert position.folded == state.last_deal.folded  # type: ignore[union-attr]
    assert state.start_position == Position.start(4, dealer=1)
    # A game started from that position plays on exactly like the original.
    twin = GameState.from_position(position)
    seed = random.Random(9)
    a, b = state, twin
    for _ in range(40):
        action = a.sample_chance(seed) if a.is_chance_node else a.legal_actions()[0]
        a, b = a.apply(action), b.apply(action)
        assert a.legal_actions() == b.legal_actions()
        assert a.scores == b.scores


def test_position_at_game_over() -> None:
    rng = random.Random(2)
    state = new_game(2, rules=Rules(start_score=3))
    while not state.is_terminal:
        state = _play_deal(state, rng)
    position = state.position
    assert position.scores == state.scores
    assert position.deal_number == state.deal_number + 1
    assert position.dealer == (state.dealer + 1) % 2
    assert state.view(0).position == position
    with pytest.raises(ValueError, match="end the game"):
        GameState.from_position(position)


def test_from_position_checks_its_argument() -> None:
    with pytest.raises(TypeError, match="position"):
        GameState.from_position("p2/d0/n1/s20.20/f00/default")  # type: ignore[arg-type]
