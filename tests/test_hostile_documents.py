"""Hostile JSON is refused the same way by every loader, the text records' past lines included.

A text record carries each past deal as a line of JSON (``past: {…}``); it used to be
read by a plain :func:`json.loads`, which silently keeps the last of two equal keys and
reads ``NaN``.  Now every loader parses with the documents' own parser, so each case
below is refused with :class:`FormatError`, the same way in the text record, the JSON
record and the view document.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from bohmisch_watten import FormatError, GameRecord, GameState, Position, load_record, replay
from bohmisch_watten.serialization import from_json, record_from_json, to_json, view_from_json


def _play(state: GameState, rng: random.Random, deals: int) -> GameState:
    while not state.is_terminal and state.deal_number < deals:
        state = state.apply(
            state.sample_chance(rng) if state.is_chance_node else rng.choice(state.legal_actions())
        )
    return state


@pytest.fixture(scope="module")
def record() -> GameRecord:
    """A record that starts at a position and carries two past deals."""
    state = GameState.from_position(Position.parse("p3/d1/n4/s15.12.20/f000/default"))
    state = _play(state, random.Random(5), 6)
    sample = state.view(0).sample_state(random.Random(0))
    record = sample.record()
    assert len(record.past) == 2
    return record


def _past_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("past: "))


# Each case turns the JSON of one past deal into a hostile variant: (name, edit, message).
_CASES = [
    ("duplicate key", lambda j: j.replace("{", '{"dealer": 0, ', 1), "appears twice"),
    ("same key, same value", lambda j: _twice(j, "doubled"), "appears twice"),
    ("NaN", lambda j: _score(j, "NaN"), "NaN is not allowed"),
    ("Infinity", lambda j: _score(j, "Infinity"), "Infinity is not allowed"),
    ("-Infinity", lambda j: _score(j, "-Infinity"), "Infinity is not allowed"),
    ("huge integer", lambda j: _score(j, "9" * 5000), "not valid JSON|expected"),
    ("huge float", lambda j: _score(j, "1e999"), "expected an integer"),
    ("big integer", lambda j: _score(j, str(10**30)), f"expected -{10**17} to {10**17}"),
    ("deep nesting", lambda j: _score(j, "[" * 50 + "]" * 50), "nested"),
    ("very deep nesting", lambda j: _score(j, "[" * 100_000), "nested"),
    ("not JSON", lambda j: j[:-1], "not valid JSON"),
]


def _twice(text: str, key: str) -> str:
    """``text`` with the field ``key`` given twice with the same value."""
    value = json.loads(text)[key]
    return text.replace("{", "{" + json.dumps(key) + ": " + json.dumps(value) + ", ", 1)


def _score(text: str, raw: str) -> str:
    """``text`` with its first score replaced by the raw JSON ``raw``."""
    return re.sub(r'"scores": \[(-?\d+)', lambda m: '"scores": [' + raw, text, count=1)


@pytest.mark.parametrize(("name", "edit", "message"), _CASES, ids=[c[0] for c in _CASES])
def test_text_record_past_lines_refuse_hostile_json(
    record: GameRecord, name: str, edit: object, message: str
) -> None:
    text = record.to_text()
    line = _past_line(text)
    hostile = "past: " + edit(line.removeprefix("past: "))  # type: ignore[operator]
    assert hostile != line, name
    with pytest.raises(FormatError, match=message):
        load_record(text.replace(line, hostile, 1))


@pytest.mark.parametrize(("name", "edit", "message"), _CASES, ids=[c[0] for c in _CASES])
def test_json_record_past_deals_refuse_hostile_json(
    record: GameRecord, name: str, edit: object, message: str
) -> None:
    document = record.to_json()
    deal = json.dumps(json.loads(document)["past"][0])
    assert deal in document
    hostile = document.replace(deal, edit(deal), 1)  # type: ignore[operator]
    for load in (record_from_json, load_record, from_json):
        with pytest.raises(FormatError, match=message):
            load(hostile)


@pytest.mark.parametrize(("name", "edit", "message"), _CASES, ids=[c[0] for c in _CASES])
def test_view_documents_refuse_hostile_json(
    record: GameRecord, name: str, edit: object, message: str
) -> None:
    document = to_json(replay(record).view(1))
    deal = json.dumps(json.loads(document)["view"]["past_deals"][0], ensure_ascii=False)
    assert deal in document
    with pytest.raises(FormatError, match=message):
        view_from_json(document.replace(deal, edit(deal), 1))  # type: ignore[operator]


def test_the_untouched_documents_load(record: GameRecord) -> None:
    """The hostile variants above differ from valid documents only by their edit."""
    assert load_record(record.to_text()) == record
    assert record_from_json(record.to_json()) == record


def test_over_long_records_are_refused_before_they_are_read(record: GameRecord) -> None:
    text = record.to_text()
    assert load_record(text, max_chars=len(text)) == record
    for load in (load_record, GameRecord.from_text):
        with pytest.raises(FormatError, match=f"too large: {len(text)} characters"):
            load(text, max_chars=len(text) - 1)
    padded = text + "#" * 20_000_000
    with pytest.raises(FormatError, match="too large"):
        load_record(padded)


def test_random_damage_to_a_past_line_is_a_format_error_or_a_valid_record(
    record: GameRecord,
) -> None:
    """Nothing but FormatError, whatever is flipped in a past line."""
    text = record.to_text()
    line = _past_line(text)
    rng = random.Random(17)
    alphabet = '{}[]",:0123456789-eE.NaInfity \\tfrulsn'
    for _ in range(300):
        chars = list(line)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len("past: "), len(chars))
            chars[at] = rng.choice(alphabet)
        try:
            loaded = load_record(text.replace(line, "".join(chars), 1))
        except FormatError:
            continue
        assert isinstance(loaded, GameRecord)


# ------------------------------------------------- the readers every loader shares


def test_the_shared_readers_name_where_they_failed() -> None:
    from bohmisch_watten import _strict_json as doc

    read = doc.DealReader(3)
    cases = [
        (lambda: doc.read_array({}, "here"), "here: expected an array, got an object"),
        (lambda: doc.read_array([1], "here", 2), "here: expected 2 items, got 1"),
        (lambda: doc.read_int(True, "here", 0, 3), "here: expected an integer, got true"),
        (lambda: doc.read_int(None, "here", 0, 3), "here: expected an integer, got null"),
        (lambda: doc.read_int(7, "here", 0, 3), "here: expected 0 to 3, got 7"),
        (lambda: doc.read_bool(1, "here"), "here: expected true or false, got a number"),
        (lambda: doc.read_str([], "here"), "here: expected a string, got an array"),
        (lambda: doc.read_card("XX", "here"), "here: "),
        (lambda: doc.read_distinct_cards(["HK"] * 6, "here", None, 5), "at most 5 cards"),
        (lambda: doc.read_distinct_cards(["HK", "hk"], "here", None, 5), "HK appears twice"),
        (lambda: read.seats([0, 1, 2, 0], "here"), "more seats than players"),
        (lambda: read.plays([{"seat": 0, "card": "HK"}] * 4, "here"), "more plays"),
        (lambda: read.tricks([{}] * 6, "here"), "more than five tricks"),
        (lambda: read.cut([{}] * 4, "here"), "more than three looks"),
        (lambda: read.deal([], "here"), "expected an object with a field cut"),
        (lambda: doc.read_object({"a": 1, "b": 2}, "here", ("a",)), "unknown field"),
    ]
    for call, message in cases:
        with pytest.raises(FormatError, match=re.escape(message)):
            call()


def test_json_depth_ignores_brackets_inside_strings() -> None:
    from bohmisch_watten.notation import json_depth, parse_json

    assert json_depth('"[[[{"') == 0
    assert json_depth('["[[", {"a": "\\"[["}]') == 2
    assert json_depth("12") == 0
    assert parse_json('{"a": ["[", 1]}', "x", max_chars=100, max_depth=2) == {"a": ["[", 1]}
    with pytest.raises(FormatError, match="x is nested 2 levels deep, limit 1"):
        parse_json('{"a": []}', "x", max_chars=100, max_depth=1)
    with pytest.raises(FormatError, match="x: field 'a' appears twice"):
        parse_json('{"a": 1, "a": 1}', "x", max_chars=100, max_depth=2)
    with pytest.raises(FormatError, match="x is too large"):
        parse_json("[1, 2]", "x", max_chars=5, max_depth=2)


def test_an_action_document_must_hold_an_object() -> None:
    document = json.dumps({"format": "bohmisch_watten.action", "version": 1, "action": [1]})
    with pytest.raises(FormatError, match="action: expected an object, got an array"):
        from_json(document)
