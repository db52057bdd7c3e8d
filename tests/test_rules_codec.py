"""One rules codec: every text form of a Rules value is written and read by rules.py.

The forms: the rules notation (``str(rules)``, :func:`parse_rules`, the text record's
``rules:`` header), the rules field of a position (``schleck:none;must_head:false``),
and the ``rules`` object of every JSON document (rules, record, state, view).  Each must
give back the same rules, and no other module may walk the fields of :class:`Rules`
itself — that is how a second codec would start.
"""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import attrs
from hypothesis import given
from hypothesis import strategies as st

import bohmisch_watten
from bohmisch_watten import GameState, Position, Rules, load_record, new_game, parse_rules
from bohmisch_watten.rules import (
    OPTIONAL_RULES,
    RULE_TYPES,
    rules_from_text,
    rules_to_text,
    rules_values,
)
from bohmisch_watten.serialization import rules_from_json, to_json, view_from_json

PACKAGE = Path(bohmisch_watten.__file__).resolve().parent


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    return Rules(
        schleck=draw(st.sampled_from(["alternate", "cutter_only", "none"])),
        dealer_stock_limit=draw(st.sampled_from([2, 3])),
        must_head=draw(st.booleans()),
        overshoot=draw(st.sampled_from(["wins", "added_back"])),
        plus_fifty=draw(st.booleans()),
        start_score=draw(st.integers(1, 1000)),
        hearts_double=draw(st.booleans()),
        min_fold_score=draw(st.integers(-1000, 1000)),
        pack=draw(st.sampled_from([32, 36])),
    )


def test_the_strategy_covers_every_field() -> None:
    assert list(RULE_TYPES) == [field.name for field in attrs.fields(Rules)]


@given(any_rules())
def test_rules_round_trip_through_every_text_form(rules: Rules) -> None:
    # The rules notation, and the codec it is.
    assert str(rules) == rules_to_text(rules)
    assert parse_rules(str(rules)) == rules == rules_from_text(str(rules))
    # The position's field: the same codec with ':' and ';', 'default' for no field.
    position = Position.start(3, rules=rules)
    field = str(position).split("/")[5]
    assert field == rules_to_text(rules, pair=":", sep=";", default="default")
    assert field == (str(rules).replace("=", ":").replace(",", ";") or "default")
    assert Position.parse(str(position)).rules == rules
    # The JSON documents: every field, plain values.
    document = json.loads(to_json(rules))
    assert document["rules"] == rules_values(rules)
    optional_at_default = {n for n in OPTIONAL_RULES if getattr(rules, n) == getattr(Rules(), n)}
    assert list(document["rules"]) == [n for n in RULE_TYPES if n not in optional_at_default]
    assert rules_from_json(to_json(rules)) == rules


@given(any_rules().map(lambda rules: attrs.evolve(rules, pack=32)), st.integers(0, 3))
def test_records_and_views_carry_the_same_rules(rules: Rules, seed: int) -> None:
    state = new_game(2, rules=rules)
    state = state.apply(state.sample_chance(random.Random(seed)))
    record = state.record()
    assert f"rules: {str(rules) or 'default'}\n" in record.to_text()
    assert load_record(record.to_text()).rules == rules
    assert json.loads(record.to_json())["rules"] == rules_values(rules)
    assert GameState.from_json(state.to_json()).rules == rules
    view = state.view(0)
    assert json.loads(to_json(view))["view"]["rules"] == rules_values(rules)
    assert view_from_json(to_json(view)).rules == rules


def test_changed_only_values_are_the_text_forms_fields() -> None:
    rules = Rules(schleck="none", start_score=15)
    assert rules_values(rules, changed_only=True) == {"schleck": "none", "start_score": 15}
    assert rules_values(Rules(), changed_only=True) == {}
    assert rules_to_text(rules, pair=":", sep=";") == "schleck:none;start_score:15"


def test_the_strict_reader_takes_only_what_the_writer_writes() -> None:
    strict = {"pair": ":", "sep": ";", "default": "default", "lenient": False}
    assert rules_from_text("must_head:false", **strict) == Rules(must_head=False)  # type: ignore[arg-type]
    for text in ("", " default", "MUST_HEAD:false", "must_head:FALSE", "must_head: false"):
        try:
            rules_from_text(text, **strict)  # type: ignore[arg-type]
        except ValueError:
            continue
        raise AssertionError(f"{text!r} was read")
    assert rules_from_text(" MUST_HEAD = False ") == Rules(must_head=False)


def _walks_rules_fields(tree: ast.AST) -> bool:
    """Whether the module calls ``attrs.fields(Rules)`` / ``fields(Rules)``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            arg = node.args[0]
            if name == "fields" and isinstance(arg, ast.Name) and arg.id == "Rules":
                return True
    return False


def test_only_rules_py_walks_the_fields_of_rules() -> None:
    walkers = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if _walks_rules_fields(ast.parse(path.read_text(encoding="utf-8")))
    )
    assert walkers == ["rules.py"]
