"""Action and rules notation: round trips, tolerated variations, hostile strings."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bohmisch_watten import (
    DECK,
    Card,
    Exchange,
    Fold,
    FormatError,
    GameState,
    LeaveCritical,
    PlayCard,
    Rules,
    Shuffle,
    TakeCritical,
    action_to_string,
    parse_action,
    parse_card,
    parse_rules,
    rules_to_string,
)
from bohmisch_watten.notation import MAX_LINE_CHARS

from helpers import cards
from serialization_strategies import reachable_states, rules_strategy


@pytest.mark.rule("R11", "R12", "R18", "R19", "R24")
@given(reachable_states())
def test_every_legal_action_round_trips(state: GameState) -> None:
    actions = list(state.legal_actions()) + [a for _, a in state.history[-3:]]
    for action in actions:
        text = action_to_string(action)
        assert text == str(action)
        assert parse_action(text) == action
        assert parse_action(f"  {text.upper()}  ") == action
        assert parse_action("\t" + text.replace(" ", " , ") + "\n") == action


@pytest.mark.rule("R11")
@given(st.permutations(DECK))
def test_shuffle_round_trips(pack: list[Card]) -> None:
    action = Shuffle(pack)
    assert parse_action(str(action)) == action
    assert str(action).split()[1:] == [str(c) for c in pack]  # top first


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("take", TakeCritical()),
        ("LEAVE", LeaveCritical()),
        (" Fold ", Fold()),
        ("exchange", Exchange(frozenset())),
        ("exchange s9 g8", Exchange(frozenset(cards("S9 G8")))),
        ("exchange G8, S9", Exchange(frozenset(cards("S9 G8")))),
        ("exchange S9 +trump", Exchange(frozenset(cards("S9")), take_trump_card=True)),
        ("exchange +TRUMP S9", Exchange(frozenset(cards("S9")), take_trump_card=True)),
        ("play hk", PlayCard(Card.parse("HK"))),
        ("play  g10", PlayCard(Card.parse("G10"))),
    ],
)
def test_documented_forms_and_variations(text: str, action: object) -> None:
    assert parse_action(text) == action


def test_canonical_strings() -> None:
    """The notation is the engine's ``str(action)``; cards in an exchange are sorted."""
    assert str(parse_action("exchange S9 G8")) == "exchange G8 S9"
    assert str(parse_action("exchange s9 +trump")) == "exchange S9 +trump"
    assert action_to_string(PlayCard(Card.parse("HK"))) == "play HK"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty action"),
        ("   ", "empty action"),
        ("jump", "not an action"),
        ("take EA", "takes no arguments"),
        ("play", "exactly one card"),
        ("play HK S7", "exactly one card"),
        ("play H5", "not a card"),
        ("play HKK", "not a card"),
        ("exchange S9 S9", "names S9 twice"),
        ("exchange S9 +trump +trump", "given twice"),
        ("exchange EA EK EO EU E10 E9", "at most 5"),
        ("shuffle EA", "all 32 cards"),
        ("shuffle " + " ".join(["EA"] * 32), "twice"),
        ("play " + "H" * 5000, "too large"),
    ],
)
def test_bad_actions_are_format_errors(text: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        parse_action(text)


@pytest.mark.parametrize("value", [None, 3, ["play", "HK"], b"\xff\xfe"])
def test_non_strings_are_format_errors(value: object) -> None:
    with pytest.raises(FormatError):
        parse_action(value)


def test_bytes_are_decoded() -> None:
    assert parse_action(b"play HK") == PlayCard(Card.parse("HK"))


def test_action_to_string_rejects_non_actions() -> None:
    with pytest.raises(FormatError, match="not an action"):
        action_to_string("play HK")  # type: ignore[arg-type]


@given(st.text(max_size=60))
def test_any_text_parses_to_a_round_tripping_action_or_fails_cleanly(text: str) -> None:
    try:
        action = parse_action(text)
    except FormatError:
        return
    assert parse_action(str(action)) == action


@given(
    st.lists(
        st.sampled_from(["play", "exchange", "+trump", "take", "HK", "s7", "G10", ",", "x"]),
        max_size=8,
    )
)
def test_near_miss_token_soup(tokens: list[str]) -> None:
    try:
        action = parse_action(" ".join(tokens))
    except FormatError:
        return
    assert parse_action(str(action)) == action


def test_parse_card() -> None:
    assert parse_card(" g10 ") is Card.parse("G10")
    for bad in ("", "X7", "H11", "HK" * 20, 7, None):
        with pytest.raises(FormatError):
            parse_card(bad)


# ------------------------------------------------------------------------- rules


@given(rules_strategy)
def test_rules_round_trip(rules: Rules) -> None:
    text = rules_to_string(rules)
    assert text == str(rules)
    assert parse_rules(text) == rules
    assert parse_rules(text.upper().replace(",", " , ")) == rules


def test_rules_defaults() -> None:
    assert rules_to_string(Rules()) == ""
    assert parse_rules("") == Rules()
    assert parse_rules("  default ") == Rules()
    assert parse_rules("schleck=alternate") == Rules()  # a default given explicitly


@pytest.mark.rule("R14", "R26")
def test_rules_documented_example() -> None:
    rules = parse_rules("schleck=none,must_head=false")
    assert rules == Rules(schleck="none", must_head=False)
    assert str(rules) == "schleck=none,must_head=false"


def test_every_field_is_covered() -> None:
    """Each variant field, set away from its default, survives the round trip."""
    changed = {
        "schleck": "cutter_only",
        "dealer_stock_limit": 3,
        "must_head": False,
        "overshoot": "added_back",
        "plus_fifty": True,
        "start_score": 15,
        "hearts_double": False,
        "min_fold_score": -2,
        "pack": 36,
    }
    assert set(changed) == {f.name for f in attrs.fields(Rules)}
    for name, value in changed.items():
        rules = Rules(**{name: value})  # type: ignore[arg-type]
        assert parse_rules(str(rules)) == rules, name


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("schleck", "expected name=value"),
        ("=none", "expected name=value"),
        ("colour=red", "unknown field"),
        ("schleck=none,schleck=none", "given twice"),
        ("schleck=sometimes", "schleck must be one of"),
        ("must_head=maybe", "true or false"),
        ("must_head=1", "true or false"),
        ("start_score=twenty", "must be an integer"),
        ("start_score=--5", "must be an integer"),
        ("start_score=" + "9" * 5000, "too large"),
        ("start_score=99999999", "must be an integer"),
        ("start_score=0", "start_score must be an integer from 1"),
        ("dealer_stock_limit=4", "dealer_stock_limit must be 2 or 3"),
        ("schleck=none,", "expected name=value"),
    ],
)
def test_bad_rules_are_format_errors(text: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        parse_rules(text)


@given(st.text(alphabet="schleckmust_headnoe=,01-true", max_size=40))
def test_rules_fuzz(text: str) -> None:
    try:
        rules = parse_rules(text)
    except FormatError:
        return
    assert parse_rules(str(rules)) == rules


def test_line_limit_is_documented_and_enforced() -> None:
    ok = "schleck=none" + " " * (MAX_LINE_CHARS - 12)
    assert parse_rules(ok) == Rules(schleck="none")
    with pytest.raises(FormatError, match="too large"):
        parse_rules(ok + " ")
