"""Only what a seat may know crosses its engine's pipe (R13, R23).

The host builds every message with :mod:`bohmisch_watten.engine.protocol`, and the
arena tells an engine the events :func:`~bohmisch_watten.events.describe` gives for its
seat.  This walks random games, builds every message a seat's engine would get, in the
arena's order, and checks that no card in it is one the seat has not seen by then
(what it has seen is replayed independently of views and events, in ``knowledge``).
A second test proves the host writes exactly these messages, byte for byte.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bohmisch_watten import GameState, new_game
from bohmisch_watten.arena.match import ArenaSetup, play_game
from bohmisch_watten.arena.schedule import GameSpec
from bohmisch_watten.engine.protocol import (
    DecideEncoder,
    decide_message,
    encode,
    event_message,
    hello_message,
    new_game_message,
    quit_message,
)
from bohmisch_watten.events import describe
from bohmisch_watten.records import GameRecord
from bohmisch_watten.rules import Rules
from engine_scripts import engine_script

from game_strategies import policy, rules_strategy, seeds
from knowledge import _look, cards_in


def _walk(players: int, rules: Rules, seed: int, steps: int):  # type: ignore[no-untyped-def]
    """Per seat, the messages of a game and the cards the seat knew when each was sent."""
    rng = random.Random(seed)
    state: GameState = new_game(players, rules=rules)
    known: list[set[object]] = [set() for _ in range(players)]
    sent: list[list[tuple[dict[str, object], set[str]]]] = [[] for _ in range(players)]
    encoders = [DecideEncoder(2) for _ in range(players)]  # protocol 2: deal_over too
    for seat in range(players):
        _look(state, seat, known[seat])
        message = new_game_message(players, seat, rules, state.position, 1)
        sent[seat].append((message, {str(card) for card in known[seat]}))
    for _ in range(steps):
        if state.is_terminal:
            break
        mover = state.current_player
        if mover is not None:
            message = decide_message(state.view(mover), 1000)
            sent[mover].append((message, {str(card) for card in known[mover]}))
            for line in encoders[mover].encode(state.view(mover), 1000)[0].splitlines():
                sent[mover].append((json.loads(line), {str(card) for card in known[mover]}))
        action = policy(state, rng)
        after = state.apply(action)
        for seat in range(players):
            _look(after, seat, known[seat])
            message = event_message(describe(state, action, after, observer=seat))
            sent[seat].append((message, {str(card) for card in known[seat]}))
        state = after
    return sent


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 4), rules_strategy, seeds, st.integers(1, 200))
def test_no_message_to_a_seat_names_a_card_it_may_not_know(
    players: int, rules: Rules, seed: int, steps: int
) -> None:
    for seat, messages in enumerate(_walk(players, rules, seed, steps)):
        for message, known in messages:
            leaked = cards_in(json.dumps(message)) - known
            assert not leaked, (seat, message["type"], leaked)


def test_the_checker_sees_a_hidden_card() -> None:
    """The property can fail: another seat's hand in a message is caught."""
    state = new_game(2)
    rng = random.Random(1)
    while state.is_chance_node:
        state = state.apply(state.sample_chance(rng))
    known: set[object] = set()
    _look(state, 0, known)
    theirs = {str(card) for card in state.hands[1]}
    assert theirs - {str(card) for card in known}
    assert cards_in(json.dumps({"cards": sorted(theirs)})) == theirs


@pytest.mark.parametrize("protocol", [1, 2])
def test_the_host_writes_exactly_the_protocol_messages(tmp_path: Path, protocol: int) -> None:
    """Record what an engine receives in an arena game; rebuild it with the builders."""
    received = tmp_path / "received.jsonl"
    script = engine_script(
        tmp_path,
        f"""
        with open({str(received)!r}, "ab") as out:
            for line in sys.stdin.buffer:
                out.write(line)
                out.flush()
                message = json.loads(line)
                if message["type"] == "hello":
                    send({{"type": "hello", "protocol": {protocol}, "name": "recorder"}})
                elif message["type"] == "decide":
                    send({{"type": "action", "action": message["legal"][0]}})
        """,
    )
    spec = "engine:" + " ".join(script)
    setup = ArenaSetup((spec, "random"), (spec, "random"), 2, Rules(), seed=4,
                       decision_timeout=30.0, keep_records=True)  # fmt: skip
    result = play_game(setup, GameSpec(0, 0, (0, 1)))
    assert result.forfeit is None, result.incident
    lines = received.read_bytes().splitlines(keepends=True)

    record = GameRecord.from_text(result.record or "")
    seed = random.Random("4:game:0:seat:0").getrandbits(31)
    state: GameState = new_game(2)
    expected = [
        encode(hello_message()),
        encode(new_game_message(2, 0, Rules(), state.position, seed)),
    ]
    encoder = DecideEncoder(protocol)
    for action in record.actions:
        if state.current_player == 0:
            expected.extend(encoder.encode(state.view(0), 30_000)[0].splitlines(keepends=True))
        after = state.apply(action)
        expected.append(encode(event_message(describe(state, action, after, observer=0))))
        state = after
    expected.append(encode(quit_message()))
    assert state.is_terminal
    assert lines == expected
    if protocol == 2:  # every finished deal but the last was sent once, in order
        deals = [
            json.loads(line)["deal"] for line in lines if line.startswith(b'{"type":"deal_over"')
        ]
        assert [deal["deal_number"] for deal in deals] == list(range(1, state.deal_number))
    else:
        assert not any(line.startswith(b'{"type":"deal_over"') for line in lines)


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 4), seeds, st.integers(50, 600))
def test_the_decide_encoder_writes_exactly_the_decide_message(
    players: int, seed: int, steps: int
) -> None:
    """Reusing the past deals' text changes no byte, within a game and across games."""
    rng = random.Random(seed)
    encoder = DecideEncoder()
    for _game in range(2):  # the second game's past deals differ: the cache must notice
        state: GameState = new_game(players, rules=Rules(start_score=5))
        for _ in range(steps):
            if state.is_terminal:
                break
            if state.current_player is not None:
                view = state.view(state.current_player)
                line, legal = encoder.encode(view, 700)
                assert line == encode(decide_message(view, 700))
                assert legal == [str(action) for action in view.legal_actions()]
            state = state.apply(policy(state, rng))
