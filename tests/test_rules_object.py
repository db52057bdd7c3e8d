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
        ({"overshoot": "never"}, "overshoot"),
        ({"dealer_stock_limit": 4}, "dealer_stock_limit"),
        ({"start_score": 0}, "start_score"),
        ({"min_fold_score": 1001}, "min_fold_score"),
    ],
)
def test_bad_values_name_the_field(kwargs: dict[str, object], name: str) -> None:
    with pytest.raises(ValueError, match=f"Rules.{name}"):
        Rules(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"overshoot": 3}, "overshoot must be a str or Overshoot, got int"),
        ({"schleck": None}, "schleck must be a str or Schleck, got NoneType"),
        ({"dealer_stock_limit": True}, "dealer_stock_limit must be an int, got bool"),
        ({"dealer_stock_limit": 2.0}, "dealer_stock_limit must be an int, got float"),
        ({"must_head": "false"}, "must_head must be a bool, got str"),
        ({"plus_fifty": 1}, "plus_fifty must be a bool, got int"),
        ({"hearts_double": None}, "hearts_double must be a bool, got NoneType"),
        ({"start_score": 20.5}, "start_score must be an int, got float"),
        ({"min_fold_score": "5"}, "min_fold_score must be an int, got str"),
    ],
)
def test_wrong_types_are_type_errors_naming_the_field(
    kwargs: dict[str, object], expected: str
) -> None:
    (name,) = kwargs
    with pytest.raises(TypeError, match=rf"^Rules\({name}=\): {expected}$"):
        Rules(**kwargs)  # type: ignore[arg-type]


def test_rules_are_frozen() -> None:
    rules = Rules()
    with pytest.raises(AttributeError):
        rules.must_head = False  # type: ignore[misc]
