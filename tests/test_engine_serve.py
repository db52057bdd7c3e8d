"""The engine side in this process: ``serve`` over in-memory streams, and the command."""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path

import attrs
import pytest

from bohmisch_watten import new_game
from bohmisch_watten.bots import HeuristicBot, RandomBot, SearchBot
from bohmisch_watten.commands.cli import build_parser, main
from bohmisch_watten.engine import serve
from bohmisch_watten.engine.protocol import (
    DecideEncoder,
    decide_message,
    encode,
    new_game_message,
)
from bohmisch_watten.engine.serve import declared_options


def _view():  # type: ignore[no-untyped-def]
    state = new_game(3)
    rng = random.Random(4)
    while state.is_chance_node:
        state = state.apply(state.sample_chance(rng))
    return state.view(state.current_player)  # type: ignore[arg-type]


def _dialogue(lines: list[bytes], log: io.StringIO | None = None) -> list[dict[str, object]]:
    out = io.BytesIO()
    assert serve(HeuristicBot(), "served", io.BytesIO(b"".join(lines)), out, log) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_serve_answers_hello_and_decide_and_stops_at_quit() -> None:
    view = _view()
    answers = _dialogue([
        encode({"type": "hello", "protocol": 1}),
        encode(new_game_message(3, view.player, view.rules, view.position, 9)),
        encode({"type": "event", "events": []}),
        encode(decide_message(view, 1000)),
        encode({"type": "quit"}),
        encode(decide_message(view, 1000)),  # after quit: never read
    ])  # fmt: skip
    assert answers[0] == {"type": "hello", "protocol": 1, "name": "served",
                          "author": "bohmisch_watten", "options": {}}  # fmt: skip
    assert answers[1]["type"] == "action"
    assert answers[1]["action"] in decide_message(view, 1000)["legal"]
    assert len(answers) == 2


def test_serve_plays_as_the_bot_would_from_the_view() -> None:
    view = _view()
    expected = str(HeuristicBot().choose(view, random.Random(9)))
    answers = _dialogue([
        encode(new_game_message(3, view.player, view.rules, view.position, 9)),
        encode(decide_message(view, 1000)),
    ])  # fmt: skip
    assert answers == [{"type": "action", "action": expected}]


def test_serve_reports_what_it_could_not_use_as_warnings_on_its_next_answer() -> None:
    view = _view()
    bad_view = decide_message(view, 1000)
    bad_view["view"] = {"player": 0}
    answers = _dialogue([
        b"not json\n",
        b'{"type": "options", "type": "options", "values": {}}\n',
        encode({"type": "options", "values": {"depth": 3}}),
        encode({"type": "options", "values": "nonsense"}),
        encode({"type": "dance"}),
        encode(["a", "list"]),
        encode(bad_view),
        encode({"type": "decide", "legal": "nonsense"}),
    ])  # fmt: skip
    first, second = answers
    assert first["action"] == bad_view["legal"][0]
    warnings = first["warnings"]
    assert warnings[0].startswith("not JSON")
    assert warnings[1].startswith("not JSON")  # a repeated key (the hardened parser)
    assert warnings[2:6] == [
        "unknown option 'depth'",
        "options: values must be an object",
        "unknown message type 'dance'",
        "unknown message type 'None'",
    ]
    assert warnings[6].startswith("FormatError")
    assert second["action"] == ""
    assert "warnings" in second


def test_serve_logs_the_dialogue() -> None:
    log = io.StringIO()
    _dialogue([encode({"type": "hello", "protocol": 1})], log)
    lines = log.getvalue().splitlines()
    assert lines[0] == '> {"type":"hello","protocol":1}'
    assert lines[1].startswith('< {"type":"hello"')


def test_the_engine_command_serves_stdin(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    view = _view()
    stdin = io.TextIOWrapper(io.BytesIO(encode(decide_message(view, 1000))))
    stdout = io.TextIOWrapper(io.BytesIO())
    monkeypatch.setattr(sys, "stdin", stdin)
    monkeypatch.setattr(sys, "stdout", stdout)
    log = tmp_path / "log.txt"
    assert main(["engine", "--bot", "random", "--log", str(log)]) == 0
    stdout.flush()
    answer = json.loads(stdout.buffer.getvalue())  # type: ignore[attr-defined]
    assert answer["action"] in decide_message(view, 1000)["legal"]
    assert log.read_text().startswith('> {"type":"decide"')
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    assert main(["engine"]) == 0


def test_the_engine_command_refuses_a_bad_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["engine", "--bot", "nonsense"]) == 2
    assert "unknown bot 'nonsense'" in capsys.readouterr().err


def test_random_bot_is_served_by_default() -> None:
    parser = build_parser("engine")
    assert parser.parse_args([]).bot == "random"
    assert "--rules" not in parser.format_help()  # new_game brings the rules


def test_a_served_bot_declares_its_settings_as_options_and_takes_their_values() -> None:
    hello, action = _dialogue_with(SearchBot(), [
        encode({"type": "hello", "protocol": 1}),
        encode({"type": "options", "values": {"rollouts": 3, "rollout": "nonsense"}}),
        encode({"type": "options", "values": {"rollouts": 4, "colour": "red"}}),
        encode(decide_message(_view(), 1000)),
    ])  # fmt: skip
    assert hello["options"] == declared_options(SearchBot())
    assert hello["options"]["rollouts"] == {"type": "int", "default": 120}
    assert action["warnings"][0].startswith("options not applied: ")
    assert action["warnings"][1:] == ["unknown option 'colour'"]
    assert declared_options(RandomBot()) == {}
    assert declared_options(object()) == {}  # type: ignore[arg-type]


def test_options_change_the_served_bot() -> None:
    """The bot is rebuilt with the values: a search bot with 4 rollouts is the one used."""
    seen = []

    @attrs.frozen
    class Recording:
        depth: int = 1

        def choose(self, view, rng):  # type: ignore[no-untyped-def]
            seen.append(self.depth)
            return view.legal_actions()[0]

    _dialogue_with(Recording(), [
        encode({"type": "options", "values": {"depth": 4}}),
        encode(decide_message(_view(), 1000)),
    ])  # fmt: skip
    assert seen == [4]


def _dialogue_with(bot, lines):  # type: ignore[no-untyped-def]
    out = io.BytesIO()
    serve(bot, "served", io.BytesIO(b"".join(lines)), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _late_view():  # type: ignore[no-untyped-def]
    """A view of seat 0 in a later deal with several legal actions (finished deals known)."""
    state = new_game(2)
    rng = random.Random(8)
    while state.is_chance_node or state.deal_number < 3 or len(state.legal_actions()) < 2:
        state = state.apply(
            state.sample_chance(rng) if state.is_chance_node else rng.choice(state.legal_actions())
        )
    return state.view(state.current_player)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("offered", "wanted", "chosen"),
    [(None, None, 1), ([1, 2], None, 2), ([1, 2], 1, 1), ([1], None, 1), ([1, 2, 9], 2, 2),
     ([1], 2, 1), ("2", None, 1), ([True, "2"], None, 1)],
)  # fmt: skip
def test_serve_chooses_the_newest_protocol_offered_or_the_one_asked_for(
    offered: object, wanted: int | None, chosen: int
) -> None:
    hello: dict[str, object] = {"type": "hello", "protocol": 1}
    if offered is not None:
        hello["protocols"] = offered
    out = io.BytesIO()
    serve(RandomBot(), "served", io.BytesIO(encode(hello)), out, protocol=wanted)
    assert json.loads(out.getvalue())["protocol"] == chosen


def test_serve_reads_a_protocol_2_decide_as_the_current_deal_view() -> None:
    """The bot decides from the deal's view alone, as from the same view without the
    finished deals; the deal_over messages before it need no answer."""
    view = _late_view()
    lines = DecideEncoder(2).encode(view, 1000)[0]
    assert lines.count(b'"type":"deal_over"') == view.deal_number - 1
    answers = _dialogue([encode({"type": "hello", "protocol": 1, "protocols": [1, 2]}), lines])
    assert answers[0]["protocol"] == 2
    assert "warnings" not in answers[1]
    assert answers[1]["action"] == str(HeuristicBot().choose(view, random.Random(0)))


def test_serve_answers_a_forced_decision_without_reading_the_view() -> None:
    view = _view()
    message = decide_message(view, 1000)
    message["view"] = {"player": "nonsense"}  # would be a warning if it were read
    only = message["legal"][-1]
    answers = _dialogue([encode({**message, "legal": [only]}), encode(message)])
    assert answers[0] == {"type": "action", "action": only}
    assert answers[1]["action"] == message["legal"][0]
    assert "FormatError" in answers[1]["warnings"][0]  # type: ignore[index]
