"""The Rules value object (RULES.md §8)."""

from __future__ import annotations

import pytest

from bohmisch_watten import Overshoot, Rules, Schleck


def test_defaults_are_the_default_rules() -> None:
    rules = Rules()
    assert rules.schleck is Schleck.ALTERNATE
    assert rules.dealer_stock_limit == 2
    assert rules.must_head is True
    assert rules.overshoot is Overshoot.WINS
    assert rules.plus_fifty is False
    assert rules.start_score == 20
    assert rules.hearts_double is True
    assert rules.min_fold_score == 5
    assert str(rules) == ""


def test_enum_fields_accept_strings() -> None:
    assert Rules(schleck="none") == Rules(schleck=Schleck.NONE)
    assert Rules(overshoot="added_back").overshoot is Overshoot.ADDED_BACK
    assert hash(Rules(schleck="none")) == hash(Rules(schleck=Schleck.NONE))


def test_str_lists_what_differs_from_the_defaults() -> None:
    rules = Rules(schleck="none", must_head=False, dealer_stock_limit=3)
    assert str(rules) == "schleck=none,dealer_stock_limit=3,must_head=false"


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"schleck": "sometimes"}, "schleck"),
        ({"overshoot": 3}, "overshoot"),
        ({"dealer_stock_limit": 4}, "dealer_stock_limit"),
        ({"dealer_stock_limit": True}, "dealer_stock_limit"),
        ({"must_head": "false"}, "must_head"),
        ({"plus_fifty": 1}, "plus_fifty"),
        ({"hearts_double": None}, "hearts_double"),
        ({"start_score": 0}, "start_score"),
        ({"start_score": 20.5}, "start_score"),
        ({"min_fold_score": "5"}, "min_fold_score"),
    ],
)
def test_bad_values_name_the_field(kwargs: dict[str, object], name: str) -> None:
    with pytest.raises(ValueError, match=f"Rules.{name}"):
        Rules(**kwargs)  # type: ignore[arg-type]


def test_rules_are_frozen() -> None:
    rules = Rules()
    with pytest.raises(AttributeError):
        rules.must_head = False  # type: ignore[misc]
