"""Game records: state.record(), replay(), the JSON and text forms, golden playthroughs."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bohmisch_watten import (
    MAX_DOCUMENT_CHARS,
    Card,
    FormatError,
    GameRecord,
    GameState,
    Phase,
    PlayCard,
    Rules,
    Shuffle,
    TakeCritical,
    load_record,
    new_game,
    parse_action,
    parse_rules,
    replay,
)
from bohmisch_watten.records import RECORD_FORMAT, RECORD_VERSION

from helpers import dealt_state, keep_all, play_cards, random_game
from serialization_strategies import games, reachable_states

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
EXAMPLES = ROOT / "examples"

# Two players, dealer 0, forehand 1 leads; Leaves are trumps (as in test_play.py).
TWO = {1: "SU E8 E9 E10 H7", 0: "SA S10 S9 GA H8"}


def bells_led() -> GameState:
    """Seat 1 has led SU; seat 0 holds SA S10 S9 and must follow (R25.1)."""
    return play_cards(keep_all(dealt_state(2, TWO, "G8")), "SU")


# ------------------------------------------------------------------ round trips


@pytest.mark.rule("R3", "R4", "R11")
@given(reachable_states())
def test_replay_of_record_gives_an_equal_state(state: GameState) -> None:
    record = state.record()
    assert record.num_players == state.num_players
    assert record.rules == state.rules
    assert len(record.actions) == len(state.history)
    again = replay(record)
    assert again == state
    assert again.history == state.history
    assert again.legal_actions() == state.legal_actions()


@given(reachable_states())
def test_text_and_json_forms_round_trip(state: GameState) -> None:
    record = state.record()
    text = record.to_text()
    assert GameRecord.from_text(text) == record
    assert load_record(text) == record
    document = record.to_json()
    assert GameRecord.from_json(document) == record
    assert load_record(document.encode()) == record
    assert GameRecord.from_json(record.to_json(indent=2)) == record


@pytest.mark.rule("R3", "R4")
@given(games())
def test_first_dealer_is_recovered_at_every_state(states: tuple[GameState, ...]) -> None:
    """The record's first dealer comes from the current dealer and deal number (R4)."""
    first = states[0].dealer
    for state in states[:: max(1, len(states) // 20)]:
        assert state.record().first_dealer == first


def test_record_of_a_new_game() -> None:
    state = new_game(3, rules=Rules(schleck="none"), dealer=2)
    record = state.record()
    assert record == GameRecord(3, Rules(schleck="none"), 2, ())
    assert replay(record) == state


# ------------------------------------------------------------------- text form


def test_text_form_layout() -> None:
    final, _ = random_game(3, seed=5, rules=Rules(start_score=6))
    text = final.record().to_text()
    lines = text.splitlines()
    assert lines[1:6] == [
        f"format: {RECORD_FORMAT}",
        f"version: {RECORD_VERSION}",
        "players: 3",
        "first_dealer: 0",
        "rules: start_score=6",
    ]
    actions = [line.split("#")[0].strip() for line in lines[6:]]
    actions = [a for a in actions if a]
    assert actions == [str(a) for _, a in final.history]  # one action per line
    assert "# deal 1: seat 0 deals" in lines
    assert any(line.startswith("# game over: winners") for line in lines)
    seat_comments = [int(m.group(1)) for m in re.finditer(r"# action \d+, seat (\d)", text)]
    assert seat_comments == [s for s, _ in final.history if s is not None]
    numbers = [int(m.group(1)) for m in re.finditer(r"# action (\d+)", text)]
    assert numbers == list(range(1, len(final.history) + 1))


def test_text_form_is_editable() -> None:
    """Comments, blank lines, spacing and case do not matter; header order is free."""
    state = bells_led()
    record = state.record()
    body = [str(a) for a in record.actions]
    text = "\n".join(
        [
            "RULES:   default   # a comment",
            "first_dealer: 0",
            "",
            "players:2",
            "version: 1",
            f"format: {RECORD_FORMAT}",
            *(f"   {line.upper()}   # edited by hand" for line in body),
            "",
        ]
    )
    assert GameRecord.from_text(text) == record
    assert replay(GameRecord.from_text(text + "play SA\n")) == state.apply(
        PlayCard(Card.parse("SA"))
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "missing header line"),
        ("format: x\n", "missing header line"),
        ("players: 4\nplayers: 4\n", "line 2: header players given twice"),
        ("colour: red\n", "line 1: unknown header"),
        (
            "format: bohmisch_watten.record\nversion: 2\nplayers: 4\nfirst_dealer: 0\nrules:\n",
            "line 2: unsupported record version",
        ),
        (
            "format: chess\nversion: 1\nplayers: 4\nfirst_dealer: 0\nrules:\n",
            "line 1: format must be bohmisch_watten.record",
        ),
        (
            "format: bohmisch_watten.record\nversion: 1\nplayers: four\nfirst_dealer: 0\nrules:\n",
            "line 3: players must be a small number",
        ),
        (
            "format: bohmisch_watten.record\nversion: 1\nplayers: 5\nfirst_dealer: 0\nrules:\n",
            "line 3: num_players must be 2 to 4 with the 32-card pack",
        ),
        (
            "format: bohmisch_watten.record\nversion: 1\nplayers: 2\nfirst_dealer: 2\nrules:\n",
            "first_dealer must be a seat from 0 to 1",
        ),
        (
            "format: bohmisch_watten.record\nversion: 1\nplayers: 2\nfirst_dealer: 0\n"
            "rules: schleck=never\n",
            "line 5: rules: Rules.schleck must be one of",
        ),
        (
            "format: bohmisch_watten.record\nversion: 1\nplayers: 2\nfirst_dealer: 0\nrules:\n"
            "\n# comment\nplay XX\n",
            "line 8: record action 1: not a card",
        ),
        (
            "format: bohmisch_watten.record\nversion: 1\nplayers: 2\nfirst_dealer: 0\nrules:\n"
            "take\nplayers: 3\n",
            "line 7: header line 'players' after the first action",
        ),
    ],
)
def test_bad_text_records(text: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        GameRecord.from_text(text)


def test_byte_order_mark_is_ignored() -> None:
    record = new_game(2).record()
    assert load_record("\ufeff" + record.to_text()) == record
    assert load_record(("\ufeff" + record.to_json()).encode()) == record


def test_size_limit() -> None:
    text = new_game(2).record().to_text()
    assert GameRecord.from_text(text, max_chars=len(text)) == new_game(2).record()
    with pytest.raises(FormatError, match="too large"):
        GameRecord.from_text(text, max_chars=len(text) - 1)
    with pytest.raises(FormatError, match="too large"):
        load_record("#" * (MAX_DOCUMENT_CHARS + 1))


# ----------------------------------------------------------------- replay errors


@pytest.mark.rule("R25")
def test_illegal_action_is_reported_with_number_notation_and_rule() -> None:
    record = bells_led().record()
    bad = attrs.evolve(record, actions=(*record.actions, PlayCard(Card.parse("GA"))))
    number = len(bad.actions)
    expected = f"record action {number}: play GA: R25.1: must follow Bells with S9, S10 or SA"
    with pytest.raises(FormatError, match=re.escape(expected)):
        replay(bad)
    text = bad.to_text()
    assert f"play GA  # action {number}, seat 0" in text.splitlines()  # findable by number
    with pytest.raises(FormatError, match=re.escape(expected)):
        replay(load_record(text))
    with pytest.raises(FormatError, match=re.escape(expected)):
        replay(load_record(bad.to_json()))


def test_illegal_record_still_writes_as_text() -> None:
    record = bells_led().record()
    bad = attrs.evolve(record, actions=(*record.actions, PlayCard(Card.parse("GA")), TAKE))
    text = bad.to_text()
    assert "# the action above is illegal: R25.1" in text
    assert GameRecord.from_text(text) == bad


TAKE = TakeCritical()


@pytest.mark.rule("R11", "R12")
def test_replay_rejects_actions_out_of_phase() -> None:
    with pytest.raises(FormatError, match="record action 1: take: R12"):
        replay(GameRecord(4, Rules(), 0, (TAKE,)))
    shuffle = new_game(2).sample_chance(random.Random(1))
    with pytest.raises(FormatError, match="record action 2: shuffle .*: R11"):
        replay(GameRecord(2, Rules(), 0, (shuffle, shuffle)))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ((5, Rules(), 0, ()), "num_players must be 2 to 4 with the 32-card pack"),
        ((True, Rules(), 0, ()), "num_players must be 2 to 4 with the 32-card pack"),
        ((4, "default", 0, ()), "rules must be a Rules object"),
        ((4, Rules(), 4, ()), "first_dealer must be a seat from 0 to 3"),
        ((4, Rules(), -1, ()), "first_dealer must be a seat"),
        ((4, Rules(), 0, "play HK"), "must be a sequence of actions"),
        ((4, Rules(), 0, ("play HK",)), "record action 1: not an action: str"),
        ((4, Rules(), 0, 7), "must be a sequence of actions"),
    ],
)
def test_record_fields_are_checked(fields: tuple[object, ...], message: str) -> None:
    with pytest.raises(FormatError, match=message):
        GameRecord(*fields)  # type: ignore[arg-type]


def test_replay_rejects_non_records_and_tampered_records() -> None:
    with pytest.raises(FormatError, match="needs a GameRecord"):
        replay("format: bohmisch_watten.record")  # type: ignore[arg-type]
    record = GameRecord(4, Rules(), 0, ())
    object.__setattr__(record, "num_players", 9)
    with pytest.raises(FormatError, match="num_players"):
        replay(record)


@given(games(), st.data())
def test_replay_of_a_corrupted_record_fails_cleanly_or_reaches_a_state(
    states: tuple[GameState, ...], data: st.DataObject
) -> None:
    """Swap, drop or replace one action: replay raises FormatError or gives a valid state."""
    actions = list(states[-1].record().actions)
    if len(actions) < 2:
        return
    i = data.draw(st.integers(0, len(actions) - 1), label="index")
    how = data.draw(st.sampled_from(["drop", "swap", "replace"]), label="how")
    if how == "drop":
        del actions[i]
    elif how == "swap":
        j = data.draw(st.integers(0, len(actions) - 1), label="other")
        actions[i], actions[j] = actions[j], actions[i]
    else:
        notation = data.draw(st.sampled_from(["take", "leave", "fold", "exchange", "play HK"]))
        actions[i] = parse_action(notation)
    record = attrs.evolve(states[-1].record(), actions=tuple(actions))
    try:
        state = replay(record)
    except FormatError as error:
        message = str(error)
    else:
        assert replay(state.record()) == state
        return
    assert message.startswith("record action ")


# ------------------------------------------------------------ golden playthroughs
# The golden files (tests/golden/*.txt, written by tests/golden/regenerate.py) show each
# step's legal actions and the chosen action in the action notation.  Reading them back
# with parse_action and replaying them checks the notation and replay against games
# that were reviewed by a person.

GOLDEN_FILES = sorted(GOLDEN.glob("*.txt"))
_HEADER = re.compile(r"# Golden playthrough \S+: (\d) players, rules (.*),\n# first dealer (\d+),")


def _golden_fields(block: str) -> dict[str, str]:
    """The labelled fields of one step, continuation lines joined (14-column labels)."""
    fields: dict[str, str] = {}
    label = ""
    for line in block.splitlines()[1:]:
        if line[:14].strip():
            label = line[:14].strip()
            fields[label] = line[14:].strip()
        elif label and line.strip():
            fields[label] += " " + line.strip()
    return fields


def read_golden(path: Path) -> tuple[GameRecord, list[list[str] | None], str]:
    """A golden file's record, each step's legal actions (None at chance) and its tail."""
    text = path.read_text(encoding="utf-8")
    header = _HEADER.match(text)
    assert header is not None, f"{path.name}: unexpected header"
    players, rules, dealer = int(header[1]), parse_rules(header[2]), int(header[3])
    actions, legal = [], []
    for block in text.split("\n--- step ")[1:]:
        fields = _golden_fields(block.split("\n\n")[0])
        actions.append(parse_action(fields["chosen"]))
        listed = fields.get(next((k for k in fields if k.startswith("legal")), ""), None)
        legal.append(None if listed is None else [a.strip() for a in listed.split(" | ")])
    return GameRecord(players, rules, dealer, tuple(actions)), legal, text


def test_golden_playthroughs_exist() -> None:
    assert len(GOLDEN_FILES) >= 6


@pytest.mark.rule("R11", "R12", "R18", "R24", "R34")
@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_golden_playthrough_replays(path: Path) -> None:
    record, legal, text = read_golden(path)
    state = new_game(record.num_players, rules=record.rules, dealer=record.first_dealer)
    for number, (action, listed) in enumerate(zip(record.actions, legal, strict=True), 1):
        if listed is None:
            assert state.is_chance_node, f"step {number}"
        else:
            assert [parse_action(a) for a in listed] == list(state.legal_actions())
        state = state.apply(action)
    assert replay(record) == state
    assert state.record() == record
    assert GameRecord.from_text(record.to_text()) == record
    assert GameState.from_json(state.to_json()) == state
    if state.is_terminal:
        verdict = f"=== game over: winners {list(state.winners)}, losers {list(state.losers)}"
        assert verdict in text


# --------------------------------------------------------------------- example


def test_committed_sample_record_replays() -> None:
    samples = sorted(EXAMPLES.glob("sample_record.*"))
    assert len(samples) >= 2  # the text form and the JSON form
    records = [load_record(p.read_text(encoding="utf-8")) for p in samples]
    assert all(r == records[0] for r in records)
    state = replay(records[0])
    assert state.is_terminal
    assert state.phase is Phase.GAME_OVER


@pytest.mark.parametrize("name", ["sample_record.txt", "sample_record.json"])
def test_example_script_prints_the_game(name: str) -> None:
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / "replay_record.py"), str(EXAMPLES / name)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Game over" in result.stdout
    assert "Winners" in result.stdout


def test_example_script_reports_a_bad_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("players: 4\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / "replay_record.py"), str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert "missing header line" in result.stderr


def test_shuffle_in_a_record_is_the_whole_pack() -> None:
    final, _ = random_game(2, seed=3)
    shuffles = [a for a in final.record().actions if isinstance(a, Shuffle)]
    assert len(shuffles) == final.deal_number
    assert all(sorted(s.pack) == sorted(shuffles[0].pack) for s in shuffles)


@pytest.mark.parametrize(
    "text",
    ["garbage\nplay EA\n", "play EA\nnot an action\n", "event: club night\ngarbage\n"],
)
def test_a_record_without_its_header_says_the_headers_are_missing(text: str) -> None:
    with pytest.raises(FormatError) as error:
        GameRecord.from_text(text)
    message = str(error.value)
    assert message.startswith(
        "record: missing header lines: format, version, players, first_dealer, rules"
    )
    assert "neither a header 'name: value' nor an action" in message
    assert "record action" not in message


def test_a_bad_action_after_the_header_is_still_told_by_its_number() -> None:
    text = f"format: {RECORD_FORMAT}\nversion: {RECORD_VERSION}\nplayers: 2\nfirst_dealer: 0\n"
    text += "rules: default\n"
    with pytest.raises(FormatError, match=r"^line 6: record action 1: not an action: 'xyz'"):
        GameRecord.from_text(text + "xyz\n")
