"""Records like PGN: tags (unknown ones kept), several games in one file, header errors
with the line and the header as written, and the arena's records naming their bots."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from bohmisch_watten import (
    FormatError,
    GameRecord,
    Rules,
    load_record,
    new_game,
    read_records,
    replay,
    write_records,
)
from bohmisch_watten.arena import run_arena
from bohmisch_watten.bots import RandomBot, play_out
from bohmisch_watten.records import STANDARD_TAGS

HEADER = "format: bohmisch_watten.record\nversion: 1\nplayers: {n}\nfirst_dealer: {d}\nrules:\n"


def _game(seed: int, players: int = 2) -> GameRecord:
    end = play_out(new_game(players), [RandomBot()] * players, random.Random(seed), max_deals=2)
    return end.record()


def test_tags_are_kept_in_order_through_text_and_json() -> None:
    record = _game(1).with_tags(event="Club night", site="Linz", date="2026.12.01", seat0="Anna")
    record = record.with_tags({"seat1": "Bert", "colour": "red", "EVENT": "Club final"})
    assert record.tags == (
        ("event", "Club final"), ("site", "Linz"), ("date", "2026.12.01"), ("seat0", "Anna"),
        ("seat1", "Bert"), ("colour", "red"),
    )  # fmt: skip
    assert record.tag("Event") == "Club final"
    assert record.tag("round") is None
    assert record.tag("round", "?") == "?"
    text = record.to_text()
    assert "\nevent: Club final\nsite: Linz\n" in text
    assert GameRecord.from_text(text) == record
    assert load_record(record.to_json()) == record
    assert replay(record) == replay(_game(1))  # tags do not change the game
    assert {"event", "site", "date", "result", "seat0", "seat3"} <= set(STANDARD_TAGS)


def test_an_unknown_header_is_a_tag_not_an_error() -> None:
    text = HEADER.format(n=2, d=0) + "Event: Club night\nmy-rating: 1800 # a comment\ntake\n"
    record = GameRecord.from_text(text)
    assert record.tags == (("Event", "Club night"), ("my-rating", "1800"))
    with pytest.raises(FormatError, match="missing header line.*: players.*'player' read as a tag"):
        GameRecord.from_text(text.replace("players: 2", "player: 2"))


@pytest.mark.parametrize(
    ("tags", "message"),
    [
        ({"players": "4"}, "header of the record itself"),
        ({"seat 0": "Anna"}, "a tag name is a word"),
        ({"event": "Club #1"}, "without '#'"),
        ({"event": "two\nlines"}, "one line"),
        ({"event": "x" * 201}, "at most 200"),
        ({"event": 3}, "must be a text"),
        ([("event", "a"), ("EVENT", "b")], "given twice"),
        ([("event",)], "pairs"),
        ("event", "mapping"),
    ],
)
def test_bad_tags_are_refused(tags: object, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        GameRecord(2, new_game(2).rules, 0, (), tags=tags)  # type: ignore[arg-type]


_P5 = (
    r"line 3: num_players must be 2 to 4 with the 32-card pack \(R1\), got 5 "
    r"\(header 'players: 5'\)"
)
_D2 = r"line 4: first_dealer must be a seat from 0 to 1 \(R3\), got 2 \(header 'first_dealer: 2'\)"
_P4 = r"line 3: players must be a small number, got 'four' \(header 'players: four'\)"
_S0 = r"line 6: a tag name is a word.*\(header 'seat 0: Anna'\)"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (HEADER.format(n=5, d=0), _P5),
        (HEADER.format(n=2, d=2), _D2),
        (HEADER.format(n="four", d=0), _P4),
        (HEADER.format(n=2, d=0) + "seat 0: Anna\n", _S0),
        (HEADER.format(n=2, d=0) + "event: a\nEvent: b\n", "line 7: header event given twice"),
    ],
)
def test_header_errors_give_the_line_and_the_header_as_written(text: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        GameRecord.from_text(text)


def test_several_games_in_one_file(tmp_path: Path) -> None:
    games = [_game(1).with_tags(round="1"), _game(2, 3), _game(3, 4).with_tags(round="3")]
    path = tmp_path / "games.txt"
    assert write_records(games, path) == 3
    assert list(read_records(path)) == games
    text = path.read_text(encoding="utf-8")
    assert list(read_records(text)) == games
    assert list(read_records(text.encode())) == games
    assert list(read_records(io.StringIO(text))) == games
    buffer = io.StringIO()
    write_records(iter(games[:2]), buffer)
    assert list(read_records(buffer.getvalue())) == games[:2]
    with pytest.raises(FormatError, match="no record in the file"):
        read_records("# nothing but a comment\n\n")
    empty = [new_game(2).record(), new_game(3).record().with_tags(round="2")]
    assert list(read_records("".join(r.to_text() for r in empty))) == empty
    with pytest.raises(FormatError, match="several games in one file: read_records"):
        GameRecord.from_text(text)


def test_a_bad_record_in_a_file_names_the_record_and_the_file_line() -> None:
    first = _game(1).to_text()
    broken = HEADER.format(n=2, d=0) + "play XX\n"
    text = first + "\n" + broken
    line = len(first.splitlines()) + 1 + 6
    records = read_records(text)
    assert next(records) == _game(1)
    with pytest.raises(FormatError, match=rf"^record 2: line {line}: record action 1: not a card"):
        next(records)
    with pytest.raises(FormatError, match="too large"):
        read_records(text, max_chars=len(text) - 1)
    with pytest.raises(FormatError, match="expected a text, a path or a file"):
        read_records(42)  # type: ignore[arg-type]
    with pytest.raises(FormatError, match="expected GameRecord"):
        write_records(["not a record"], io.StringIO())  # type: ignore[list-item]


def test_the_arena_records_name_each_seats_bot() -> None:
    bots = ["heuristic", "random", "arena_bots.RaisingBot"]
    _, results = run_arena(bots, players=3, games=3, seed=2, keep_records=True)
    for result in results:
        assert result.record is not None
        record = load_record(result.record)
        for seat, contestant in enumerate(result.seating):
            assert record.tag(f"seat{seat}") == bots[contestant]
        assert record.tag("round") == str(result.index)
        assert record.tag("event") == "bohmisch_watten arena, seed 2"
        winners = " ".join(map(str, result.winners))
        assert record.tag("result") == (
            f"seat {result.forfeit} forfeits; winners {winners}; losers {result.forfeit}"
        )


def test_the_arena_records_say_how_a_game_ended() -> None:
    _, results = run_arena(["random", "random"], players=2, games=2, seed=1, max_deals=1,
                           keep_records=True)  # fmt: skip
    assert all(r.record is not None for r in results)
    tags = [load_record(r.record or "").tag("result") or "" for r in results]
    assert all(t.startswith("adjudicated after 1 deal; winners ") for t in tags)
    _, results = run_arena(["heuristic", "heuristic"], players=2, games=2, seed=1,
                           rules=Rules(start_score=3), keep_records=True)  # fmt: skip
    for result in results:
        record = load_record(result.record or "")
        assert replay(record).is_terminal
        assert record.tag("result") == f"winners {result.winners[0]}; losers {result.losers[0]}"
        assert record.tag("seat0") == record.tag("seat1") == "heuristic"
