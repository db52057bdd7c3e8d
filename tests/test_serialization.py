"""JSON documents: round trips, impossible states, and hostile input for every loader."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bohmisch_watten import (
    DECK,
    FORMAT_VERSION,
    MAX_DOCUMENT_CHARS,
    Card,
    FormatError,
    GameRecord,
    GameState,
    PlayerView,
    Rules,
    Shuffle,
    from_json,
    load_record,
    new_game,
    parse_action,
    parse_rules,
    replay,
    to_json,
)
from bohmisch_watten.serialization import (
    MAX_JSON_DEPTH,
    action_from_json,
    card_from_json,
    record_from_json,
    rules_from_json,
    state_from_json,
    to_dict,
    view_from_json,
)

from helpers import random_game
from serialization_strategies import games, reachable_states, rules_strategy

# --------------------------------------------------------------------- round trips


def test_every_card_round_trips() -> None:
    for card in DECK:
        document = to_json(card)
        assert json.loads(document) == {
            "format": "bohmisch_watten.card",
            "version": FORMAT_VERSION,
            "card": str(card),
        }
        assert card_from_json(document) is card
        assert from_json(document) is card


@given(rules_strategy)
def test_rules_round_trip(rules: Rules) -> None:
    document = to_json(rules)
    assert rules_from_json(document) == rules
    assert from_json(document) == rules
    assert set(json.loads(document)["rules"]) == {
        "schleck",
        "dealer_stock_limit",
        "must_head",
        "overshoot",
        "plus_fifty",
        "start_score",
        "hearts_double",
        "min_fold_score",
    }


@pytest.mark.rule("R11", "R12", "R18", "R19", "R24")
@given(reachable_states())
def test_every_action_round_trips(state: GameState) -> None:
    actions = [*state.legal_actions(), *(a for _, a in state.history[-4:])]
    for action in actions:
        document = to_json(action)
        assert action_from_json(document) == action
        assert from_json(document) == action


@pytest.mark.rule("R15", "R29")
@given(reachable_states())
def test_state_round_trips(state: GameState) -> None:
    document = state.to_json()
    again = GameState.from_json(document)
    assert again == state
    assert again.history == state.history
    assert state_from_json(document.encode()) == state
    assert from_json(document) == state
    assert to_json(again) == document  # the writer is deterministic


@given(reachable_states())
def test_record_document_round_trips(state: GameState) -> None:
    record = state.record()
    assert record_from_json(to_json(record)) == record
    assert from_json(record.to_json()) == record


def test_state_snapshot_shows_the_public_fields() -> None:
    """The snapshot lets a UI read a state without replaying it."""
    final, states = random_game(4, seed=2)
    state = next(s for s in states if s.phase.name == "PLAY" and s.trick)
    snapshot = json.loads(state.to_json())["state"]
    assert snapshot["phase"] == "play"
    assert snapshot["hands"] == [[str(c) for c in hand] for hand in state.hands]
    assert snapshot["trick"] == [{"seat": seat, "card": str(card)} for seat, card in state.trick]
    view = json.loads(to_json(state.view(0)))["view"]
    assert snapshot["trick"] == view["trick"]  # one spelling of a play in every document
    assert snapshot["trump_card"] == str(state.trump_card)
    assert snapshot["scores"] == list(state.scores)
    last = json.loads(final.to_json())["state"]
    assert last["winners"] == list(final.winners)
    assert last["last_deal"]["points"] == list(final.last_deal.points)  # type: ignore[union-attr]


# ------------------------------------------------------- states the rules forbid


def _tampered(state: GameState, edit: Callable[[dict[str, Any]], None]) -> str:
    document = json.loads(state.to_json())
    edit(document)
    return json.dumps(document)


def _play_state() -> GameState:
    _, states = random_game(4, seed=4)
    return next(s for s in states if s.phase.name == "PLAY" and len(s.trick) == 2)


def _set(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    def edit(document: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = document
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return edit


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("state.scores.0", 21, r"state\.scores is \[21"),
        ("state.scores.0", 20.0, r"state\.scores is"),
        ("state.phase", "exchange", r"state\.phase is \"exchange\""),
        ("state.hands.0", ["HK", "HK", "S7", "E7"], r"state\.hands is"),  # a card twice
        ("state.hands.0", [], r"state\.hands is"),  # wrong hand size
        ("state.current_player", None, r"state\.current_player is null"),
        ("state.folded.1", 1, r"state\.folded is"),  # 1 is not false
        ("state.winners", [0], r"state\.winners is \[0\]"),
        ("state.deal_number", 99, r"state\.deal_number is 99"),
        ("state.trump_card", "EA", r"state\.trump_card is"),
    ],
)
def test_impossible_states_are_rejected(path: str, value: object, message: str) -> None:
    document = _tampered(_play_state(), _set(path, value))
    with pytest.raises(FormatError, match=message + ".*does not follow from its record"):
        state_from_json(document)


def test_record_with_an_illegal_action_is_reported() -> None:
    state = _play_state()
    hand = state.hands[state.current_player]  # type: ignore[index]
    legal = {a.card for a in state.legal_actions()}  # type: ignore[union-attr]
    other = next(c for c in DECK if c not in hand)
    number = len(state.history) + 1

    def add(document: dict[str, Any]) -> None:
        document["record"]["actions"].append(f"play {other}")

    with pytest.raises(FormatError, match=rf"^record action {number}: play {other}: R24"):
        state_from_json(_tampered(state, add))
    assert legal


def test_state_document_needs_its_snapshot() -> None:
    state = _play_state()
    for key in ("record", "state"):

        def drop(document: dict[str, Any], key: str = key) -> None:
            del document[key]

        with pytest.raises(FormatError, match=f"missing field.*{key}"):
            state_from_json(_tampered(state, drop))


# ------------------------------------------------------------------------ views


@pytest.mark.rule("R13", "R23")
@given(reachable_states(), st.integers(0, 3))
def test_view_round_trips(state: GameState, seat: int) -> None:
    view = state.view(seat % state.num_players)
    document = to_json(view)
    again = view_from_json(document)
    assert again == view
    assert from_json(document) == view
    assert PlayerView.from_json(view.to_json()) == view  # the reader beside the writer
    assert again.legal_actions() == view.legal_actions()
    assert json.loads(document)["view"] == view.to_dict()


def _view_in_play() -> tuple[GameState, dict[str, Any]]:
    state = _play_state()
    seat = state.current_player
    assert seat is not None
    return state, json.loads(to_json(state.view(seat)))


@pytest.mark.rule("R13", "R23")
def test_views_no_game_can_give_are_rejected() -> None:
    state, document = _view_in_play()
    played = document["view"]["trick"][0]["card"]
    hand = document["view"]["hand"]
    cases: list[tuple[str, object, str]] = [
        # holding a card that is already on the table
        ("hand", sorted([*hand[1:], played], key=lambda c: Card.parse(c).index), "legal|no game"),
        ("hand", hand[1:], "hand_sizes|legal_actions|no game"),  # a card short
        ("scores", [s + 1 for s in state.scores], "no game gives this view"),
        ("legal_actions", [], r"view\.legal_actions is \[\]"),
        ("stock_size", 0, "stock_size|no game|contradict"),
        ("winners", [0], "no game gives this view"),
        ("current_player", None, "legal_actions|no game"),
    ]
    for key, value, message in cases:
        changed = json.loads(json.dumps(document))
        changed["view"][key] = value
        with pytest.raises(FormatError, match=message):
            view_from_json(json.dumps(changed))


def test_view_fields_are_read_strictly() -> None:
    _, document = _view_in_play()
    for key, value, message in [
        ("hand", ["HK", "HK"], r"view\.hand: HK appears twice"),
        ("phase", "lunch", r"view\.phase: expected one of"),
        ("num_players", 5, r"view\.num_players: expected 2 to 4"),
        ("folded", [False], r"view\.folded: expected \d items"),
        ("trick", [{"seat": 9, "card": "HK"}], r"view\.trick\[0\]\.seat: expected 0 to"),
        ("tricks", [{}] * 6, r"view\.tricks: more than five tricks"),
    ]:
        changed = json.loads(json.dumps(document))
        changed["view"][key] = value
        with pytest.raises(FormatError, match=message):
            view_from_json(json.dumps(changed))
    del document["view"]["hand"]
    with pytest.raises(FormatError, match=r"view: missing field hand"):
        view_from_json(json.dumps(document))


# ------------------------------------------------------------ document structure


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ("", "not valid JSON"),
        ("[]", "must be a JSON object, got an array"),
        ('"card"', "must be a JSON object"),
        ("{}", "needs a format field"),
        ('{"format": "chess.pgn", "version": 1}', "needs a format field"),
        ('{"format": "bohmisch_watten.card", "version": 2, "card": "HK"}', "unsupported version"),
        ('{"format": "bohmisch_watten.card", "version": true, "card": "HK"}', "version"),
        ('{"format": "bohmisch_watten.card", "version": 1.0, "card": "HK"}', "version"),
        ('{"format": "bohmisch_watten.card", "version": 1}', "missing field.*card"),
        ('{"format": "bohmisch_watten.card", "version": 1, "card": "HK", "x": 1}', "unknown"),
        ('{"format": "bohmisch_watten.card", "version": 1, "card": "H5"}', "card: not a card"),
        ('{"format": "bohmisch_watten.card", "version": 1, "card": 7}', "card: a card must"),
        ('{"format": "bohmisch_watten.card", "version": 1, "card": "HK", "card": "S7"}', "twice"),
        ('{"format": "bohmisch_watten.card", "version": 1, "card": NaN}', "NaN is not allowed"),
        ('{"format": "bohmisch_watten.card", "version": 1, "card": "HK"} x', "not valid JSON"),
        ('{"format": "bohmisch_watten.rules", "version": 1, "rules": {}}', "missing field"),
        (
            '{"format": "bohmisch_watten.action", "version": 1, "action": {"type": "jump"}}',
            r"action\.type: expected one of",
        ),
        (
            '{"format": "bohmisch_watten.action", "version": 1, '
            '"action": {"type": "exchange", "discard": ["S9", "S9"], "take_trump_card": false}}',
            r"action\.discard: S9 appears twice",
        ),
        (
            '{"format": "bohmisch_watten.action", "version": 1, '
            '"action": {"type": "shuffle", "pack": ["S9"]}}',
            r"action\.pack: expected 32 or 36 cards \(R6\), got 1",
        ),
        (
            '{"format": "bohmisch_watten.record", "version": 1, "num_players": 8, '
            '"first_dealer": 0, "rules": {}, "actions": []}',
            r"record\.num_players: expected 2 to 7",
        ),
    ],
)
def test_bad_documents(document: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        from_json(document)


def test_rules_values_are_checked_by_rules() -> None:
    document = json.loads(to_json(Rules()))
    document["rules"]["dealer_stock_limit"] = 4
    with pytest.raises(FormatError, match=r"rules: Rules\.dealer_stock_limit must be 2 or 3"):
        rules_from_json(json.dumps(document))
    document["rules"]["dealer_stock_limit"] = True
    with pytest.raises(FormatError, match=r"rules\.dealer_stock_limit: expected an integer"):
        rules_from_json(json.dumps(document))


def test_typed_loaders_accept_only_their_kind() -> None:
    card = to_json(Card.parse("HK"))
    with pytest.raises(FormatError, match="expected a bohmisch_watten.state document"):
        state_from_json(card)
    with pytest.raises(FormatError, match="expected a bohmisch_watten.rules document"):
        rules_from_json(card)


def test_size_and_depth_limits() -> None:
    assert MAX_DOCUMENT_CHARS == 16_000_000
    document = to_json(Card.parse("HK"))
    padded = document[:-1] + " " * (MAX_DOCUMENT_CHARS - len(document)) + "}"
    assert len(padded) == MAX_DOCUMENT_CHARS
    assert from_json(padded) is Card.parse("HK")
    with pytest.raises(FormatError, match="too large"):
        from_json(padded + " ")
    with pytest.raises(FormatError, match="too large"):
        from_json(b" " * (MAX_DOCUMENT_CHARS + 1))
    assert from_json(padded + " " * 100, max_chars=2 * MAX_DOCUMENT_CHARS) is Card.parse("HK")
    deep = "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)
    with pytest.raises(FormatError, match="nested 17 levels deep"):
        from_json(deep)
    with pytest.raises(FormatError, match="nested"):
        from_json("[" * 900_000)  # would be a RecursionError in the JSON parser
    brackets_in_strings = json.dumps({"format": "[" * 100 + '\\"{', "version": 1})
    with pytest.raises(FormatError, match="needs a format field"):
        from_json(brackets_in_strings)


def test_huge_numbers_and_bad_bytes() -> None:
    with pytest.raises(FormatError, match="not valid JSON"):
        from_json('{"format": "bohmisch_watten.card", "version": ' + "9" * 5000 + "}")
    with pytest.raises(FormatError, match="not UTF-8"):
        from_json(b'{"format": "\xff"}')
    with pytest.raises(FormatError, match="must be a string"):
        from_json(12)  # type: ignore[arg-type]


def test_to_json_rejects_other_objects() -> None:
    with pytest.raises(TypeError, match="cannot write dict"):
        to_json({})  # type: ignore[arg-type]


# ----------------------------------------------------------------------- fuzzing

LOADERS: list[Callable[[Any], object]] = [
    from_json,
    card_from_json,
    rules_from_json,
    action_from_json,
    record_from_json,
    state_from_json,
    view_from_json,
    load_record,
    GameRecord.from_text,
    parse_action,
    parse_rules,
    lambda text: replay(load_record(text)),
]
"""Every loader of the library; each may raise FormatError and nothing else."""


def _only_format_errors(text: object) -> None:
    for loader in LOADERS:
        message = "ok"
        try:
            loader(text)
        except FormatError as error:
            message = str(error)
        assert 0 < len(message) < 1000  # says something, never echoes a whole document


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)


@given(json_values)
def test_random_json_values(value: object) -> None:
    _only_format_errors(json.dumps(value))


@given(st.text(max_size=200) | st.binary(max_size=200).map(bytes))
def test_random_text_and_bytes(text: str | bytes) -> None:
    _only_format_errors(text)


@st.composite
def mutated_documents(draw: st.DrawFn) -> str:
    """A valid document (of any kind) with one value, key or character changed."""
    states = draw(games())
    state = states[draw(st.integers(0, len(states) - 1))]
    kind = draw(st.sampled_from(["state", "record", "text", "rules", "action", "card", "view"]))
    if kind == "view":
        text = to_json(state.view(draw(st.integers(0, state.num_players - 1))))
    elif kind == "text":
        text = state.record().to_text()
    elif kind == "record":
        text = state.record().to_json()
    elif kind == "rules":
        text = to_json(state.rules)
    elif kind == "action":
        text = to_json(state.history[-1][1] if state.history else Card.parse("HK"))
    elif kind == "card":
        text = to_json(DECK[draw(st.integers(0, 31))])
    else:
        text = state.to_json()
    how = draw(st.sampled_from(["value", "key", "char", "cut", "drop"]))
    if how in ("value", "key", "drop") and kind != "text":
        document = json.loads(text)
        _mutate(document, draw, how)
        return json.dumps(document)
    i = draw(st.integers(0, max(0, len(text) - 1)))
    if how == "cut":
        return text[:i]
    return text[:i] + draw(st.sampled_from(list('{}[]",:#\n 0x-9tHK'))) + text[i + 1 :]


def _mutate(value: Any, draw: st.DrawFn, how: str) -> None:
    """Walk down to a random container inside ``value`` and change one of its items."""
    while True:
        keys = list(value.keys()) if isinstance(value, dict) else list(range(len(value)))
        if not keys:
            return
        key = draw(st.sampled_from(keys))
        child = value[key]
        if isinstance(child, (dict, list)) and child and draw(st.booleans()):
            value = child
            continue
        if how == "drop":
            del value[key]
        elif how == "key" and isinstance(value, dict):
            value[key + draw(st.sampled_from(["_", "X"]))] = value.pop(key)
        else:
            value[key] = draw(
                st.sampled_from([None, True, 0, -1, 2**40, 1.5, "", "HK", "play HK", [], {}])
            )
        return


@given(mutated_documents())
def test_mutated_documents(text: str) -> None:
    _only_format_errors(text)


def test_a_mutation_that_changes_nothing_loads() -> None:
    """Sanity: the fuzzing oracle is not vacuous; valid documents load without error."""
    state = random_game(3, seed=9)[1][40]
    assert state_from_json(state.to_json()) == state
    assert load_record(state.record().to_text()) == state.record()


@pytest.mark.rule("R11")
def test_shuffle_documents_must_hold_every_card_once() -> None:
    pack = list(DECK)
    random.Random(3).shuffle(pack)
    document = json.loads(to_json(Shuffle(pack)))
    document["action"]["pack"][5] = document["action"]["pack"][6]
    with pytest.raises(FormatError, match=re.escape("action.pack:")):
        action_from_json(json.dumps(document))
    assert parse_action(str(Shuffle(pack))) == Shuffle(pack)


def test_to_dict_is_json_types_only() -> None:
    state = random_game(2, seed=1)[0]
    document = to_dict(state)
    assert json.loads(json.dumps(document)) == document
    assert new_game(2).to_json() != state.to_json()
