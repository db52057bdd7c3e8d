"""Every loader takes the same ``max_chars`` keyword, with the same meaning.

A loader is a public function or method that reads a whole input a user may get from
anywhere: every ``*_from_json``, ``from_text``, ``load_*`` and ``Position.parse``.  Each
takes a keyword-only ``max_chars: int`` whose default is its documented limit
(:data:`~bohmisch_watten.notation.MAX_DOCUMENT_CHARS` for documents and records,
:data:`~bohmisch_watten.position.MAX_POSITION_CHARS` for a position), refuses a longer
input with :class:`FormatError` before reading it, and reads an input exactly at the
limit.  The list of loaders is found by walking the package, so a new loader cannot be
forgotten.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import random
import re
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import bohmisch_watten
from bohmisch_watten import (
    MAX_DOCUMENT_CHARS,
    Card,
    FormatError,
    GameRecord,
    GameState,
    Position,
    Rules,
    new_game,
)
from bohmisch_watten import serialization as ser
from bohmisch_watten.position import MAX_POSITION_CHARS
from bohmisch_watten.records import load_record

_LOADER_NAME = re.compile(r"(.*_)?from_json|from_text|load_.*|parse")


def _public_callables() -> Iterator[tuple[str, Callable[..., Any]]]:
    """Every public function and method of every public module, by its dotted name."""
    seen: set[int] = set()
    package = bohmisch_watten
    names = [package.__name__] + [
        info.name
        for info in pkgutil.walk_packages(package.__path__, prefix=package.__name__ + ".")
        if not any(part.startswith("_") for part in info.name.split("."))
    ]
    for module_name in names:
        module = importlib.import_module(module_name)
        for name, obj in vars(module).items():
            if name.startswith("_") or getattr(obj, "__module__", None) != module_name:
                continue
            if inspect.isfunction(obj) and id(obj) not in seen:
                seen.add(id(obj))
                yield f"{module_name}.{name}", obj
            elif inspect.isclass(obj):
                for attr, member in vars(obj).items():
                    function = getattr(member, "__func__", member)
                    if attr.startswith("_") or not inspect.isfunction(function):
                        continue
                    if id(function) not in seen:
                        seen.add(id(function))
                        yield f"{module_name}.{name}.{attr}", getattr(obj, attr)


HELPERS = {"bohmisch_watten.notation.check_text", "bohmisch_watten.notation.parse_json"}
"""Public functions with a ``max_chars`` that are not loaders: the check loaders call."""


def _is_loader(name: str, function: Callable[..., Any]) -> bool:
    if name in HELPERS:
        return False
    short = name.rsplit(".", 1)[1]
    parameters = inspect.signature(function).parameters
    if "max_chars" in parameters:
        return True
    if not _LOADER_NAME.fullmatch(short):
        return False
    # Parsers of one token or line (a card, an action, a rules string) have a fixed
    # limit of their own and no document to raise it for.
    return not name.startswith(("bohmisch_watten.notation.", "bohmisch_watten.cards."))


LOADERS = sorted(name for name, function in _public_callables() if _is_loader(name, function))

LIMITS = {
    "bohmisch_watten.position.Position.parse": MAX_POSITION_CHARS,
}
"""Loaders whose default limit is not MAX_DOCUMENT_CHARS."""


def _resolve(name: str) -> Callable[..., Any]:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj  # type: ignore[no-any-return]
    raise AssertionError(name)  # pragma: no cover


def test_the_loaders_are_found() -> None:
    expected = {
        "bohmisch_watten.serialization.from_json",
        "bohmisch_watten.serialization.card_from_json",
        "bohmisch_watten.serialization.rules_from_json",
        "bohmisch_watten.serialization.action_from_json",
        "bohmisch_watten.serialization.record_from_json",
        "bohmisch_watten.serialization.state_from_json",
        "bohmisch_watten.serialization.view_from_json",
        "bohmisch_watten.records.load_record",
        "bohmisch_watten.records.GameRecord.from_json",
        "bohmisch_watten.records.GameRecord.from_text",
        "bohmisch_watten.state.GameState.from_json",
        "bohmisch_watten.position.Position.parse",
    }
    assert expected <= set(LOADERS)


@pytest.mark.parametrize("name", LOADERS)
def test_every_loader_takes_max_chars_with_its_documented_default(name: str) -> None:
    parameter = inspect.signature(_resolve(name)).parameters.get("max_chars")
    assert parameter is not None, f"{name} takes no max_chars"
    assert parameter.kind is inspect.Parameter.KEYWORD_ONLY
    assert parameter.default == LIMITS.get(name, MAX_DOCUMENT_CHARS)
    assert parameter.annotation in ("int", int)


def _documents() -> dict[str, str]:
    state = new_game(2)
    return {
        "from_json": ser.to_json(Card.parse("HK")),
        "card_from_json": ser.to_json(Card.parse("HK")),
        "rules_from_json": ser.to_json(Rules(schleck="none")),
        "action_from_json": ser.to_json(state.sample_chance(random.Random(0))),
        "record_from_json": state.record().to_json(),
        "state_from_json": state.to_json(),
        "view_from_json": ser.to_json(state.view(0)),
        "load_record": state.record().to_text(),
        "GameRecord.from_json": state.record().to_json(),
        "GameRecord.from_text": state.record().to_text(),
        "GameState.from_json": state.to_json(),
        "PlayerView.from_json": state.view(0).to_json(),
        "Position.parse": str(Position.start(2)),
        "read_records": state.record().to_text(),
        "GameState.from_text": state.to_text(),
        "state_from_text": state.to_text(),
        "load_game": state.to_json(),
    }


@pytest.mark.parametrize("name", LOADERS)
def test_every_loader_reads_up_to_max_chars_and_refuses_more(name: str) -> None:
    load = _resolve(name)
    key = name.split(".", 2)[2] if name.count(".") > 2 else name.rsplit(".", 1)[1]
    text = _documents()[key]
    assert load(text, max_chars=len(text)) is not None
    assert load(text.encode(), max_chars=len(text.encode())) is not None
    for shorter in (text, text.encode()):
        with pytest.raises(FormatError, match=rf"too large: {len(shorter)} .*max_chars="):
            load(shorter, max_chars=len(shorter) - 1)


def test_the_default_limit_is_the_same_for_every_document_loader() -> None:
    """One input just over MAX_DOCUMENT_CHARS: every document loader refuses it, and the
    message says how to raise the limit; raising it lets it through to the parser."""
    text = " " * (MAX_DOCUMENT_CHARS + 1)
    for name in LOADERS:
        if name in LIMITS:
            continue
        load = _resolve(name)
        with pytest.raises(FormatError, match="too large") as refused:
            load(text)
        assert f"max_chars={MAX_DOCUMENT_CHARS + 1}" in str(refused.value)
        with pytest.raises(FormatError) as parsed:
            load(text, max_chars=len(text))
        assert "too large" not in str(parsed.value)


def test_a_position_over_its_limit_says_how_to_raise_it() -> None:
    text = "p2/d0/n1/s20.20/f00/default" + " " * MAX_POSITION_CHARS
    with pytest.raises(FormatError, match=f"max_chars={len(text)}"):
        Position.parse(text)
    assert Position.parse(text, max_chars=len(text)) == Position.start(2)


def test_state_from_json_none_is_the_deprecated_default() -> None:
    document = new_game(2).to_json()
    with pytest.warns(DeprecationWarning, match="max_chars=None"):
        state = ser.state_from_json(document, max_chars=None)  # type: ignore[arg-type]
    assert state == GameState.from_json(document)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert GameState.from_json(document) == state  # no warning for the default


def test_record_loaders_are_the_same_for_both_forms() -> None:
    record = new_game(3).record()
    for text in (record.to_json(), record.to_text()):
        assert load_record(text) == record
        assert load_record(text, max_chars=len(text)) == record
    assert isinstance(GameRecord.from_text(record.to_text()), GameRecord)
