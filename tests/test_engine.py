"""The engine host: a well-behaved engine plays, and every misbehaviour is a clear error.

Each misbehaving engine is a small real program (a Python script written to
``tmp_path``, run with ``sys.executable``), so the pipes, deadlines and exit codes are
the real ones.  Timeouts are generous where success is expected (a loaded machine
starts Python slowly) and short only where a timeout is the expected outcome.
"""

from __future__ import annotations

import gc
import json
import pickle
import random
import time
from pathlib import Path

import pytest

from bohmisch_watten import Rules, new_game
from bohmisch_watten.bots import RandomBot, make_bot, play_out
from bohmisch_watten.engine import (
    Engine,
    EngineExitedError,
    EngineProtocolError,
    EngineTimeoutError,
)
from bohmisch_watten.engine.host import STDERR_LINES
from bohmisch_watten.engine.protocol import GRACE_MS, MAX_LINE_BYTES, decide_message, encode
from engine_scripts import PYTHON, alive, engine_script

SLOW_START = {"hello_timeout_ms": 30_000, "timeout_ms": 20_000}
"""Limits for engines expected to behave: never the reason a test fails."""

STDLIB_ENGINE = Path(__file__).resolve().parent.parent / "examples" / "engines" / "random_engine.py"


def _first_view(players: int = 2, seed: int = 1):  # type: ignore[no-untyped-def]
    state = new_game(players)
    rng = random.Random(seed)
    while state.is_chance_node:
        state = state.apply(state.sample_chance(rng))
    assert state.current_player is not None
    return state, state.view(state.current_player)


# ------------------------------------------------------------------ a good engine


def test_a_stdlib_engine_plays_whole_games_with_legal_actions() -> None:
    with Engine.popen([PYTHON, str(STDLIB_ENGINE)], **SLOW_START) as engine:
        assert (engine.name, engine.author) == ("random.py", "example")
        pid = engine.pid
        assert pid is not None
        assert alive(pid)
        end = play_out(new_game(2), [engine, RandomBot()], random.Random(3))
        assert end.is_terminal
    assert not alive(pid)
    assert engine.pid is None


def test_a_seeded_engine_plays_the_same_game_twice() -> None:
    """new_game carries a seed drawn from the bot's generator: reproducible engines."""
    ends = []
    for _ in range(2):
        with Engine([PYTHON, str(STDLIB_ENGINE)], **SLOW_START) as engine:
            ends.append(play_out(new_game(2), [engine, RandomBot()], random.Random(5)).history)
    assert ends[0] == ends[1]


def test_our_own_bot_served_as_an_engine(tmp_path: Path) -> None:
    log = tmp_path / "dialogue.log"
    command = [PYTHON, "-m", "bohmisch_watten", "engine", "--bot", "heuristic", "--log", str(log)]
    with Engine.popen(command, options={"colour": "blue"}, **SLOW_START) as engine:
        assert engine.name == "bohmisch_watten heuristic"
        _state, view = _first_view()
        action = engine.choose(view, random.Random(0))
        assert view.is_legal(action)
        assert engine.warnings == ["unknown option 'colour'"]
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines[0] == '> {"type":"hello","protocol":1,"protocols":[1,2]}'
    assert lines[1].startswith('< {"type":"hello","protocol":2,"name":"bohmisch_watten heuristic"')
    assert engine.protocol == 2
    assert [line[:2] for line in lines] == ["> ", "< ", "> ", "> ", "> ", "< ", "> "]
    assert json.loads(lines[-1][2:]) == {"type": "quit"}


def test_a_served_bot_answers_a_view_it_cannot_read_with_a_legal_action_and_a_warning() -> None:
    """The host never sends such a view; the served side still keeps the dialogue whole."""
    with Engine.popen([PYTHON, "-m", "bohmisch_watten", "engine"], **SLOW_START) as engine:
        _state, view = _first_view()
        engine.new_game(2, view.player, view.rules, view.position)
        message = decide_message(view, 1000)
        message["view"] = {"player": "nonsense"}
        engine._send(message, 5000)
        reply = engine._ask({"type": "event", "events": []}, "action", 20_000, "decide")
        assert reply["action"] == message["legal"][0]
        assert "FormatError" in reply["warnings"][0]


def test_engine_specs_build_lazy_picklable_engines() -> None:
    bot = make_bot(f"engine:{PYTHON} {STDLIB_ENGINE} --flag")
    assert isinstance(bot, Engine)
    assert bot.command == (PYTHON, str(STDLIB_ENGINE), "--flag")
    assert bot.pid is None  # nothing runs before the first message
    copy = pickle.loads(pickle.dumps(bot))
    assert isinstance(copy, Engine)
    assert (copy.command, copy.timeout_ms, copy.pid) == (bot.command, bot.timeout_ms, None)
    assert "random_engine.py --flag" in repr(bot)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("engine:", "needs a command"),
        ("engine:   ", "needs a command"),
        ("engine:./no/such/engine", "is not an executable program"),
        ("engine:'unclosed", "bad command"),
    ],
)
def test_bad_engine_specs_are_refused(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(spec)


def test_bad_arguments_name_themselves() -> None:
    with pytest.raises(TypeError, match="command"):
        Engine(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="empty"):
        Engine([])
    with pytest.raises(TypeError, match="timeout_ms"):
        Engine("x", timeout_ms=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="timeout_ms"):
        Engine("x", timeout_ms=0)
    with pytest.raises(TypeError, match="grace_ms"):
        Engine("x", grace_ms=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="grace_ms"):
        Engine("x", grace_ms=-1)
    with pytest.raises(TypeError, match="options"):
        Engine("x", options=[1])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="view"):
        Engine("x").choose("view", random.Random())  # type: ignore[arg-type]
    state, view = _first_view()
    with pytest.raises(ValueError, match=f"seat {1 - view.player} is not to act"):
        Engine("x").choose(state.view(1 - view.player), random.Random())


def test_the_documented_limits() -> None:
    assert MAX_LINE_BYTES == 1 << 20
    assert GRACE_MS == 250
    assert Engine("x").grace_ms == GRACE_MS


def test_an_engine_dropped_without_closing_is_killed_when_collected() -> None:
    engine = Engine.popen([PYTHON, str(STDLIB_ENGINE)], **SLOW_START)
    pid = engine.pid
    assert pid is not None
    assert alive(pid)
    del engine
    gc.collect()
    assert not alive(pid)


def test_a_view_of_another_seat_starts_a_new_game(tmp_path: Path) -> None:
    record = tmp_path / "seen.txt"
    script = engine_script(
        tmp_path,
        f"""
        with open({str(record)!r}, "a") as seen:
            for message in messages():
                seen.write(message["type"] + "\\n")
                seen.flush()
                if message["type"] == "hello":
                    hello()
                elif message["type"] == "decide":
                    send({{"type": "action", "action": message["legal"][0]}})
        """,
    )
    state, view = _first_view(3)
    rng = random.Random(2)
    later = state
    while later.deal_number == 1 or later.current_player in (None, view.player):
        later = later.apply(rng.choice(later.legal_actions()) if not later.is_chance_node
                            else later.sample_chance(rng))  # fmt: skip
    assert later.current_player is not None
    with Engine.popen(script, **SLOW_START) as engine:
        engine.choose(view, random.Random(0))
        engine.choose(view, random.Random(0))  # the same point again: the same game
        engine.choose(later.view(later.current_player), random.Random(0))  # another seat
        engine.choose(later.view(later.current_player), random.Random(0))
        engine.choose(view, random.Random(0))  # an earlier deal: a new game
        engine.observe([])
    seen = record.read_text().split()
    assert seen == ["hello", "new_game", "decide", "decide", "new_game", "decide", "decide",
                    "new_game", "decide", "event", "quit"]  # fmt: skip


# ------------------------------------------------------------------ misbehaviours


def test_an_engine_that_cannot_be_started() -> None:
    with pytest.raises(EngineExitedError, match="could not start"):
        Engine.popen(["/no/such/engine"])


def test_an_engine_that_exits_at_start(tmp_path: Path) -> None:
    script = engine_script(tmp_path, 'sys.stderr.write("cannot start\\n"); sys.exit(3)')
    with pytest.raises(EngineExitedError) as error:
        Engine.popen(script, **SLOW_START)
    assert (
        str(error.value) == "exited with status 3 during hello; its stderr ends:\n    cannot start"
    )


def test_a_crashed_engine_shows_the_end_of_its_stack_trace(tmp_path: Path) -> None:
    """The exception's type and message are the last line of a Python (or Java) trace:
    the reason quotes the last 20 lines, not one."""
    script = engine_script(
        tmp_path,
        """
        for number in range(30):
            sys.stderr.write(f"log line {number}\\n")
        sys.stdin.readline()
        hello()
        next(messages())
        raise RuntimeError("no weights file at ./weights.bin")
        """,
    )
    with Engine.popen(script, **SLOW_START) as engine, pytest.raises(EngineExitedError) as error:
        engine.choose(_first_view()[1], random.Random(0))
    reason = str(error.value)
    assert reason.startswith("exited with status 1 during decide; its stderr ends:\n")
    lines = reason.splitlines()[1:]
    assert len(lines) == STDERR_LINES == 20
    assert lines[-1] == "    RuntimeError: no weights file at ./weights.bin"
    assert any(line.strip().startswith("Traceback") for line in lines)
    assert "log line 29" in reason
    assert "log line 0\n" not in reason


def test_an_engine_that_exits_mid_game(tmp_path: Path) -> None:
    script = engine_script(
        tmp_path,
        """
        decisions = 0
        for message in messages():
            if message["type"] == "hello":
                hello()
            elif message["type"] == "decide":
                decisions += 1
                if decisions == 3:
                    sys.exit(5)
                send({"type": "action", "action": message["legal"][0]})
        """,
    )
    engine = Engine(script, **SLOW_START)
    with pytest.raises(EngineExitedError, match="exited with status 5 during decide") as error:
        play_out(new_game(2), [engine, RandomBot()], random.Random(1))
    assert engine.pid is None  # reaped at once
    with pytest.raises(EngineExitedError) as again:  # it cannot play on
        engine.choose(_first_view()[1], random.Random(0))
    assert again.value is error.value


def test_an_engine_that_never_answers_hello(tmp_path: Path) -> None:
    script = engine_script(tmp_path, "time.sleep(60)")
    started = time.monotonic()
    with pytest.raises(EngineTimeoutError, match="did not answer hello within 300 ms"):
        Engine.popen(script, hello_timeout_ms=300)
    assert time.monotonic() - started < 10


def test_an_engine_that_answers_past_its_time(tmp_path: Path) -> None:
    script = engine_script(
        tmp_path,
        """
        for message in messages():
            if message["type"] == "hello":
                hello()
            elif message["type"] == "decide":
                time.sleep(30)
        """,
    )
    with Engine.popen(script, hello_timeout_ms=30_000, timeout_ms=100, grace_ms=150) as engine:
        started = time.monotonic()
        with pytest.raises(EngineTimeoutError) as error:
            engine.choose(_first_view()[1], random.Random(0))
        assert time.monotonic() - started < 10
    assert str(error.value) == "did not answer decide within 250 ms (100 ms + 150 ms grace)"


def test_an_answer_within_the_grace_margin_counts(tmp_path: Path) -> None:
    script = engine_script(
        tmp_path,
        """
        for message in messages():
            if message["type"] == "hello":
                hello()
            elif message["type"] == "decide":
                time.sleep(message["time_ms"] / 1000 + 0.05)  # just over its time
                send({"type": "action", "action": message["legal"][-1]})
        """,
    )
    with Engine.popen(script, hello_timeout_ms=30_000, timeout_ms=50, grace_ms=20_000) as engine:
        _state, view = _first_view()
        assert engine.choose(view, random.Random(0)) == view.legal_actions()[-1]


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("'hello world\\n'", "answered decide with 'hello world', not JSON"),
        # The one hardened parser: a repeated key is refused, not resolved to the last.
        (
            '\'{"type": "action", "action": "fold", "action": "fold"}\\n\'',
            "not JSON",
        ),
        ("'[1, 2]\\n'", "answered decide with '[1, 2]', not a 'action' message"),
        ('\'{"type": "actions"}\\n\'', "not a 'action' message"),
        (
            '\'{"type": "action", "action": "play XX"}\\n\'',
            "answered action '\"play XX\"', which is not one of the 26 legal actions",
        ),
        ('\'{"type": "action", "action": 7}\\n\'', "answered action '7', which is not"),
        ("'x' * (2 << 20)", "wrote a line longer than the cap of 1048576 bytes"),
        ("'x' * (2 << 20) + '\\n'", "wrote a line longer than the cap of 1048576 bytes"),
    ],
)
def test_an_engine_that_answers_badly(tmp_path: Path, written: str, message: str) -> None:
    script = engine_script(
        tmp_path,
        f"""
        for message in messages():
            if message["type"] == "hello":
                hello()
            elif message["type"] == "decide":
                sys.stdout.write({written})
                sys.stdout.flush()
                time.sleep(30)
        """,
    )
    with Engine.popen(script, **SLOW_START) as engine, pytest.raises(EngineProtocolError) as error:
        engine.choose(_first_view()[1], random.Random(0))
    assert message in str(error.value)


def test_an_engine_that_answers_twice(tmp_path: Path) -> None:
    script = engine_script(
        tmp_path,
        """
        for message in messages():
            if message["type"] == "hello":
                hello()
            elif message["type"] == "decide":
                send({"type": "action", "action": message["legal"][0]})
                send({"type": "action", "action": message["legal"][0]})
        """,
    )
    with Engine.popen(script, **SLOW_START) as engine:
        _state, view = _first_view()
        # Seen with the first answer if both lines come in one read, else before the next.
        with pytest.raises(EngineProtocolError, match=r"\(an extra answer\)"):  # noqa: PT012
            engine.choose(view, random.Random(0))
            time.sleep(0.3)  # the second answer has been written by now
            engine.choose(view, random.Random(0))


def test_an_engine_that_answers_a_message_that_needs_no_answer(tmp_path: Path) -> None:
    """Its unasked line is read before the decision or as its answer: an error either way."""
    script = engine_script(
        tmp_path,
        """
        for message in messages():
            if message["type"] in ("hello", "new_game"):
                hello()
            elif message["type"] == "decide":
                send({"type": "action", "action": message["legal"][0]})
        """,
    )
    unasked = "no answer was due|not a 'action' message"
    with (
        Engine.popen(script, **SLOW_START) as engine,
        pytest.raises(EngineProtocolError, match=unasked),
    ):
        engine.choose(_first_view()[1], random.Random(0))


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        ('{"type": "hello", "protocol": 3, "name": "x"}', "speaks protocol '3', not one of 1, 2"),
        ('{"type": "hello", "protocol": true, "name": "x"}', "speaks protocol 'true'"),
        ('{"type": "action"}', "answered hello with"),
    ],
)
def test_an_engine_with_a_bad_hello(tmp_path: Path, reply: str, message: str) -> None:
    script = engine_script(tmp_path, f"sys.stdin.readline(); print({reply!r}, flush=True)")
    with pytest.raises(EngineProtocolError, match=message):
        Engine.popen(script, **SLOW_START)


def test_an_engine_that_stops_reading_its_input(tmp_path: Path) -> None:
    script = engine_script(tmp_path, "sys.stdin.readline(); hello(); time.sleep(60)")
    with Engine.popen(script, hello_timeout_ms=30_000, timeout_ms=100, grace_ms=100) as engine:
        _state, view = _first_view()
        engine.new_game(2, view.player, Rules(), view.position)
        message = decide_message(view, 100)
        for _ in range(1 + (1 << 20) // len(encode(message))):  # more than any pipe holds
            engine._notify(message)
        with pytest.raises(EngineTimeoutError, match="stopped reading its input"):
            engine.choose(view, random.Random(0))


def test_an_engine_that_closes_its_stdout_but_runs_on(tmp_path: Path) -> None:
    script = engine_script(tmp_path, "sys.stdin.readline(); os.close(1); time.sleep(60)")
    with pytest.raises(EngineExitedError, match="closed its stdout during hello"):
        Engine.popen(script, **SLOW_START)


def test_an_engine_that_exits_right_after_hello(tmp_path: Path) -> None:
    """The next write finds no reader: the failure waits for the decision, with its reason."""
    script = engine_script(tmp_path, "sys.stdin.readline(); hello(); sys.exit(7)")
    engine = Engine.popen(script, **SLOW_START)
    pid = engine.pid
    assert pid is not None
    deadline = time.monotonic() + 20
    while engine._process is not None and engine._process.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    with pytest.raises(EngineExitedError, match="exited with status 7 during decide"):
        engine.choose(_first_view()[1], random.Random(0))
    assert not alive(pid)


def test_a_long_stderr_is_quoted_by_its_last_lines_only(tmp_path: Path) -> None:
    """Megabytes of logs: the reason holds at most 20 whole lines of at most 200
    characters each, from the end."""
    script = engine_script(
        tmp_path,
        """
        for number in range(20000):
            sys.stderr.write(f"{number:06d} " + "x" * 300 + "\\n")
        sys.stderr.write("\\n\\nFATAL the end\\n")
        sys.exit(2)
        """,
    )
    with pytest.raises(EngineExitedError) as error:
        Engine.popen(script, **SLOW_START)
    lines = str(error.value).splitlines()
    assert lines[0] == "exited with status 2 during hello; its stderr ends:"
    assert lines[-1] == "    FATAL the end"
    assert 1 < len(lines) - 1 <= STDERR_LINES
    assert all(len(line) <= 4 + 200 for line in lines[1:])
    assert lines[1].strip()  # a fragment or a blank first line is not quoted
    assert "019999" in str(error.value)
