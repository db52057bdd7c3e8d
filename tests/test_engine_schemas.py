"""The JSON Schemas of the engine protocol accept every message the host sends.

The schemas ship with the package (``bohmisch_watten/engine/schemas``) and are shown on
``docs/engine-protocol.md``.  Random games of every size and variant are walked; every
message the host would send to each seat, in protocol 1 and in protocol 2 (the lines
:class:`~bohmisch_watten.engine.protocol.DecideEncoder` writes, ``deal_over`` included),
must fit its schema, and so must the served engine's answers.  The schemas are strict
enough to fail: broken messages are refused.  A protocol 2 ``decide`` stays under 16 KB
at every deal of long games, and its size does not grow with the deal number.
"""

from __future__ import annotations

import json
import random
import statistics
from functools import cache
from importlib import resources
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bohmisch_watten import GameState, new_game
from bohmisch_watten.engine.protocol import (
    DecideEncoder,
    encode,
    event_message,
    hello_message,
    new_game_message,
    options_message,
    quit_message,
)
from bohmisch_watten.events import describe
from bohmisch_watten.rules import Rules

from game_strategies import policy, rules_strategy, seeds

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema checks the schemas")

DECIDE_BYTES = 16 * 1024
"""The bound on a protocol 2 ``decide`` line, whatever the deal number."""


@cache
def schema() -> dict[str, Any]:
    text = resources.files("bohmisch_watten.engine").joinpath("schemas/protocol.schema.json")
    loaded: dict[str, Any] = json.loads(text.read_text(encoding="utf-8"))
    return loaded


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    """``node`` with every local ``$ref`` replaced by its definition (the schema has no
    recursion): the same meaning, validated without resolving references, ~5x faster."""
    if isinstance(node, list):
        return [_inline(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _inline(value, defs) for key, value in node.items() if key != "$ref"}
    if "$ref" in node:
        target = _inline(defs[node["$ref"].removeprefix("#/$defs/")], defs)
        return {"allOf": [target, out]} if out else target
    return out


@cache
def validator(name: str) -> Any:
    """A validator for the message definition ``name`` of the schema."""
    defs = schema()["$defs"]
    return jsonschema.Draft202012Validator(_inline(defs[name], defs))


def check(name: str, message: object) -> None:
    errors = sorted(validator(name).iter_errors(message), key=lambda e: list(e.absolute_path))
    assert not errors, (name, [f"{list(e.absolute_path)}: {e.message[:200]}" for e in errors])


def _kind(line: bytes, protocol: int) -> tuple[str, Any]:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        return "host_hello", message
    if kind == "decide":
        return f"decide_{protocol}", message
    return kind, message


def _host_lines(state: GameState, rng: random.Random, protocol: int) -> list[list[bytes]]:
    """Per seat, every line the host writes to that seat's engine over a whole game."""
    n = state.num_players
    encoders = [DecideEncoder(protocol) for _ in range(n)]
    lines = [
        [
            encode(hello_message()),
            encode(options_message({"depth": 3, "style": "calm", "fast": True})),
            encode(new_game_message(n, seat, state.rules, state.position, seat)),
        ]
        for seat in range(n)
    ]
    while not state.is_terminal:
        mover = state.current_player
        if mover is not None:
            line, _legal = encoders[mover].encode(state.view(mover), 1000)
            lines[mover].append(line)
        action = policy(state, rng)
        after = state.apply(action)
        for seat in range(n):
            lines[seat].append(encode(event_message(describe(state, action, after, observer=seat))))
        state = after
    for seat in range(n):
        lines[seat].append(encode(quit_message()))
    return lines


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(schema())
    assert set(schema()["$defs"]) >= {
        "host_hello", "engine_hello", "options", "new_game", "event", "decide_1", "decide_2",
        "deal_over", "action", "quit",
    }  # fmt: skip


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 4), rules_strategy, seeds, st.sampled_from([1, 2]))
def test_every_message_the_host_sends_fits_its_schema(
    players: int, rules: Rules, seed: int, protocol: int
) -> None:
    """One seat's dialogue per game (validating costs ~10 ms a message), seat and
    variant drawn anew each time."""
    rules = attrs.evolve(rules, start_score=min(rules.start_score, 6))  # short games
    rng = random.Random(seed)
    seen: set[str] = set()
    lines = _host_lines(new_game(players, rules=rules), rng, protocol)[seed % players]
    for line in lines:
        name, message = _kind(line.splitlines()[-1], protocol)
        for extra in line.splitlines()[:-1]:  # deal_over lines written with a decide
            assert protocol == 2
            check("deal_over", json.loads(extra))
            seen.add("deal_over")
        check(name, message)
        if name not in seen:
            check_any(message)
        seen.add(name)
    assert {"host_hello", "options", "new_game", "event", "quit"} <= seen


def check_any(message: object) -> None:
    """The document as a whole accepts every message."""
    jsonschema.validate(message, schema())


def test_the_served_engine_answers_fit_their_schemas() -> None:
    """The transcript on the page is the real dialogue; its answers fit too."""
    from engine_transcript import transcript

    for line in transcript().splitlines():
        direction, message = line[:2], json.loads(line[2:])
        if direction == "< ":
            check("engine_hello" if message["type"] == "hello" else "action", message)
        else:
            name, _ = _kind(line[2:].encode(), 2)
            check(name, message)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("host_hello", {"type": "hello", "protocol": 2, "protocols": [1, 2]}),
        ("engine_hello", {"type": "hello", "protocol": 3, "name": "x"}),
        ("engine_hello", {"type": "hello", "protocol": 1}),
        ("action", {"type": "action", "action": "play XX"}),
        ("action", {"type": "action", "action": "exchange HK +trump +trump"}),
        ("action", {"type": "action"}),
        ("decide_2", {"type": "decide", "view": {}, "legal": ["fold"], "time_ms": 5}),
        ("decide_1", {"type": "decide", "view": {}, "legal": [], "time_ms": 0}),
        (
            "new_game",
            {"type": "new_game", "players": 2, "seat": 0, "rules": "", "position": "p2 d0"},
        ),
        ("event", {"type": "event", "events": [{"type": "card_played", "seat": 0}]}),
        ("event", {"type": "event", "events": [{"type": "teleported"}]}),
        ("deal_over", {"type": "deal_over", "deal": {"deal_number": 1}}),
    ],
)
def test_the_schemas_refuse_broken_messages(name: str, message: dict[str, Any]) -> None:
    assert list(validator(name).iter_errors(message))


def test_a_protocol_1_view_is_not_a_protocol_2_decide_and_back() -> None:
    """The two decides differ exactly by the keys protocol 2 leaves out."""
    state = new_game(2)
    rng = random.Random(3)
    while state.is_chance_node:
        state = state.apply(state.sample_chance(rng))
    mover = state.current_player
    assert mover is not None
    view = state.view(mover)
    one = json.loads(DecideEncoder(1).encode(view, 50)[0])
    two = json.loads(DecideEncoder(2).encode(view, 50)[0])
    check("decide_1", one)
    check("decide_2", two)
    assert list(validator("decide_1").iter_errors(two))
    assert set(one["view"]) - set(two["view"]) == {"legal_actions", "last_deal", "past_deals"}


def _long_game(seed: int, players: int) -> tuple[list[tuple[int, int]], int]:
    """(deal number, bytes) of every protocol 2 decide line of seat 0 in a long game,
    and the longest deal_over line."""
    rng = random.Random(seed)
    state: GameState = new_game(players, rules=Rules(start_score=400))
    encoder = DecideEncoder(2)
    sizes: list[tuple[int, int]] = []
    longest_deal = 0
    while not state.is_terminal and state.deal_number <= 80:
        mover = state.current_player
        if mover == 0:
            lines = encoder.encode(state.view(0), 10_000)[0].splitlines()
            sizes.append((state.deal_number, len(lines[-1])))
            longest_deal = max([longest_deal, *(len(line) for line in lines[:-1])])
        state = state.apply(policy(state, rng))
    return sizes, longest_deal


@pytest.mark.parametrize("players", [2, 4])
def test_a_protocol_2_decide_stays_small_however_long_the_game(players: int) -> None:
    sizes, longest_deal = _long_game(7, players)
    deals = max(deal for deal, _ in sizes)
    assert deals >= 60  # long enough that protocol 1 would send well over 16 KB
    assert max(size for _, size in sizes) <= DECIDE_BYTES
    assert longest_deal <= DECIDE_BYTES
    early = statistics.mean(size for deal, size in sizes if deal <= 5)
    late = statistics.mean(size for deal, size in sizes if deal > deals - 5)
    assert late < 1.25 * early  # no growth with the deal number


def test_protocol_1_grows_with_the_game_which_is_why_there_is_protocol_2() -> None:
    """The size test can fail: the same long game's protocol 1 decides pass the bound."""
    rng = random.Random(7)
    state: GameState = new_game(2, rules=Rules(start_score=400))
    encoder = DecideEncoder(1)
    largest = 0
    while not state.is_terminal and state.deal_number <= 80:
        if state.current_player == 0:
            largest = max(largest, len(encoder.encode(state.view(0), 10_000)[0]))
        state = state.apply(policy(state, rng))
    assert largest > DECIDE_BYTES
