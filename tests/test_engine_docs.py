"""The engine protocol's page shows what the code does: its transcript is current, every
message of it fits its JSON Schema, and the examples stay short."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine_transcript import BEGIN, END, PAGE, block, transcript

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "engines"
SCHEMA = re.compile(r"^% schema: ([^\n]+)\n```json\n(.*?)\n```$", re.M | re.S)


def _schemas() -> dict[str, dict[str, object]]:
    page = PAGE.read_text(encoding="utf-8")
    return {name: json.loads(text) for name, text in SCHEMA.findall(page)}


def _shown_transcript() -> str:
    page = PAGE.read_text(encoding="utf-8")
    return page[page.index(BEGIN) : page.index(END) + len(END)]


def test_the_transcript_is_what_the_code_does_today() -> None:
    assert _shown_transcript() == block(transcript()), (
        "the protocol changed: run python tests/engine_transcript.py and review the diff"
    )


def test_there_is_one_schema_per_message() -> None:
    assert set(_schemas()) == {
        "host hello", "engine hello", "options", "new_game", "decide", "action", "event", "quit",
    }  # fmt: skip


def test_every_message_of_the_transcript_fits_its_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema checks the schemas")
    schemas = _schemas()
    for schema in schemas.values():
        jsonschema.Draft202012Validator.check_schema(schema)
    lines = _shown_transcript().splitlines()
    messages = [(line[0], json.loads(line[2:])) for line in lines if line[:2] in ("> ", "< ")]
    kinds = [message["type"] for _, message in messages]
    assert kinds[:3] == ["hello", "hello", "new_game"]
    assert {"decide", "action", "event"} <= set(kinds)
    assert kinds[-1] == "quit"
    for direction, message in messages:
        name = message["type"]
        if name == "hello":
            name = "host hello" if direction == ">" else "engine hello"
        jsonschema.validate(message, schemas[name])
    broken = {"type": "decide", "view": {}, "legal": [], "time_ms": 0}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schemas["decide"])


@pytest.mark.parametrize("name", ["random.js", "random.c", "random_engine.py"])
def test_each_example_is_short_and_in_the_readme(name: str) -> None:
    lines = (EXAMPLES / name).read_text(encoding="utf-8").splitlines()
    assert len(lines) < 50
    assert name in (EXAMPLES / "README.md").read_text(encoding="utf-8")


def test_the_python_example_needs_only_the_standard_library() -> None:
    source = (EXAMPLES / "random_engine.py").read_text(encoding="utf-8")
    imported = set(re.findall(r"^import (\w+)|^from (\w+)", source, re.M))
    assert {name for pair in imported for name in pair if name} == {"json", "random", "sys"}
