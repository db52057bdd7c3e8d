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
    ("big integer", lambda j: _score(j, str(10**30)), "expected -1000000 to 1000000"),
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
