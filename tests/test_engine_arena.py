"""Engines in the arena: the example engines play, and a failing engine forfeits with its
reason (in the results, the table, the JSON and a log line) while the arena goes on."""

from __future__ import annotations

import json
import logging
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from bohmisch_watten.arena import run_arena
from bohmisch_watten.arena.report import to_json_dict, to_table
from bohmisch_watten.commands.cli import main
from engine_scripts import PYTHON, children, engine_script

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "engines"


def _spec(command: list[str]) -> str:
    return "engine:" + shlex.join(command)


@pytest.fixture(scope="module")
def c_engine(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The C example, built with gcc (CI has it; skipped with the reason where it is not)."""
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        pytest.skip("no C compiler (gcc or cc) on this machine: the C example is not built")
    binary = tmp_path_factory.mktemp("c_engine") / "random-engine"
    subprocess.run(
        [
            compiler,
            "-O2",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-o",
            str(binary),
            str(EXAMPLES / "random.c"),
        ],
        check=True,
        timeout=120,
    )
    return [str(binary)]


@pytest.fixture(scope="module")
def js_engine() -> list[str]:
    """The JavaScript example, run by Node (CI has it; skipped with the reason where not)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js (node) is not installed: the JavaScript example cannot run")
    return [node, str(EXAMPLES / "random.js")]


def _play(bots: list[str], players: int = 2, games: int = 4, **kwargs: object):  # type: ignore[no-untyped-def]
    return run_arena(bots, players=players, games=games, seed=7, decision_timeout=30.0, **kwargs)  # type: ignore[arg-type]


def _check_clean(summary, results, spec: str) -> None:  # type: ignore[no-untyped-def]
    assert summary.incidents == ()
    assert all(r.forfeit is None for r in results)
    line = next(line for line in summary.lines if line.name == spec)
    assert line.forfeits == 0
    assert line.decisions > 0
    assert 0 < line.median_decision_ms < 30_000
    assert line.games == len(results)
    assert sum(line.wins for line in summary.lines) == pytest.approx(len(results))


def test_the_c_example_plays_against_our_bots(c_engine: list[str]) -> None:
    spec = _spec(c_engine)
    summary, results = _play([spec, "heuristic", "random"], players=3, games=3)
    _check_clean(summary, results, spec)
    again = _play([spec, "heuristic", "random"], players=3, games=3)[1]  # seeded by new_game
    assert [r.scores for r in again] == [r.scores for r in results]


def test_the_javascript_example_plays_against_our_bots(js_engine: list[str]) -> None:
    spec = _spec(js_engine)
    summary, results = _play([spec, "random"])
    _check_clean(summary, results, spec)


def test_the_stdlib_python_example_plays_against_our_bots() -> None:
    spec = _spec([PYTHON, str(EXAMPLES / "random_engine.py")])
    before = set(children(os.getpid()))
    summary, results = _play([spec, "heuristic"])
    _check_clean(summary, results, spec)
    assert set(children(os.getpid())) <= before  # every game reaped its engines


def test_our_served_bot_plays_in_worker_processes() -> None:
    """Engines pickle as their command; each worker starts its own processes."""
    spec = _spec([PYTHON, str(EXAMPLES / "random_engine.py")])
    summary, results = _play([spec, "heuristic"], games=2, jobs=2)
    _check_clean(summary, results, spec)


def _answering(body: str) -> str:
    """An engine that answers hello and runs ``body`` (with ``message`` and ``n``, the
    number of the decision) for each decide."""
    indented = "\n".join("                " + line for line in body.strip().splitlines())
    return f"""
        n = 0
        for message in messages():
            if message["type"] == "hello":
                hello()
            elif message["type"] == "decide":
                n += 1
{indented}
    """


FAILURES = {
    "exits at start": (
        "sys.exit(3)",
        "raised EngineExitedError: exited with status 3 during hello",
    ),
    "exits mid-game": (
        _answering(
            'if n == 4: sys.exit(4)\nsend({"type": "action", "action": message["legal"][0]})'
        ),
        "raised EngineExitedError: exited with status 4 during decide",
    ),
    "crashes with a stack trace": (
        _answering(
            'if n == 3: raise RuntimeError("no weights file")\n'
            'send({"type": "action", "action": message["legal"][0]})'
        ),
        "exited with status 1 during decide; its stderr ends:\n    Traceback",
    ),
    "closes its stdout": (
        _answering("os.close(1); time.sleep(30)"),
        "raised EngineExitedError: closed its stdout during decide",
    ),
    "speaks another version": (
        'sys.stdin.readline(); send({"type": "hello", "protocol": 3, "name": "x"})',
        "raised EngineProtocolError: speaks protocol '3', not one of 1, 2",
    ),
    "answers past its time": (
        _answering("time.sleep(30)"),
        "raised EngineTimeoutError: did not answer decide within 450 ms (200 ms + 250 ms grace)",
    ),
    "garbage": (_answering('print("bonjour", flush=True)'), "with 'bonjour', not JSON"),
    "a huge line": (
        _answering('sys.stdout.write("[" * (3 << 20)); sys.stdout.flush(); time.sleep(30)'),
        "wrote a line longer than the cap of 1048576 bytes",
    ),
    "an illegal action": (
        _answering('send({"type": "action", "action": "play HK!"})'),
        "answered action '\"play HK!\"', which is not one of the",
    ),
    "extra answers": (  # both lines in one write: they arrive together
        _answering(
            'answer = json.dumps({"type": "action", "action": message["legal"][0]})\n'
            'sys.stdout.write(answer + "\\n" + answer + "\\n"); sys.stdout.flush()'
        ),
        "after its answer (an extra answer)",
    ),
}


@pytest.mark.parametrize("failure", list(FAILURES))
def test_a_failing_engine_forfeits_with_its_reason(
    tmp_path: Path, failure: str, caplog: pytest.LogCaptureFixture
) -> None:
    body, reason = FAILURES[failure]
    spec = _spec(engine_script(tmp_path, body))
    caplog.set_level(logging.WARNING)
    summary, results = run_arena(
        [spec, "random"],
        players=2,
        games=2,
        seed=3,
        decision_timeout=0.2 if "time" in failure else 30.0,
    )
    assert len(results) == 2
    for result in results:
        engine_seat = result.seating.index(0)
        assert result.forfeit == engine_seat, result.incident
        assert result.reason is not None
        assert reason in result.reason
        assert (
            result.incident == f"game {result.index}: {spec} (seat {engine_seat}) {result.reason}"
        )
    line = next(line for line in summary.lines if line.name == spec)
    assert (line.forfeits, line.wins) == (2, 0)
    assert [r.split(": ", 1)[0] for r in line.forfeit_reasons] == ["game 0", "game 1"]
    document = to_json_dict(summary)
    bot = next(bot for bot in document["bots"] if bot["name"] == spec)
    assert bot["forfeits"] == 2
    assert all(reason in text for text in bot["forfeit_reasons"])
    assert f"FORFEITS: {spec} forfeited 2 of 2 games" in to_table(summary)
    logged = [r.getMessage() for r in caplog.records if r.name == "bohmisch_watten.arena"]
    assert len(logged) == 2
    assert all(reason in message for message in logged)


def test_the_arena_command_takes_engines_and_writes_their_median(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    spec = _spec([PYTHON, str(EXAMPLES / "random_engine.py")])
    status = main(["arena", "--players", "2", "--bots", f"{spec},random", "--games", "2",
                   "--jobs", "1", "--quiet", "--json", str(out)])  # fmt: skip
    assert status == 0
    document = json.loads(out.read_text(encoding="utf-8"))
    for bot in document["bots"]:
        assert {"name", "games", "win_rate", "ci95", "forfeits", "mean_decision_ms",
                "median_decision_ms", "forfeit_reasons"} <= set(bot)  # fmt: skip
        assert bot["median_decision_ms"] > 0
        assert bot["forfeit_reasons"] == []
    assert [bot["name"] for bot in document["bots"]] == [spec, "random"]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("engine:./no-such-engine", "'./no-such-engine' is not an executable program"),
        (f"engine:{PYTHON} 'x", "No closing quotation"),
        (f"engine[depth]:{PYTHON} x", "option 'depth' is not KEY=VALUE"),
    ],
)
def test_the_arena_command_refuses_an_engine_spec_before_playing(
    capsys: pytest.CaptureFixture[str], spec: str, message: str
) -> None:
    status = main(["arena", "--players", "2", "--bots", f"{spec},random", "--quiet"])
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ")
    assert message.lower() in err.lower()


def test_the_arena_command_keeps_a_quoted_comma_in_an_engine_command(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    spec = _spec([PYTHON, str(EXAMPLES / "random_engine.py")]) + " 'a,b'"
    status = main(["arena", "--players", "2", "--bots", f"{spec},random", "--games", "2",
                   "--jobs", "1", "--quiet", "--json", str(out)])  # fmt: skip
    assert status == 0
    document = json.loads(out.read_text(encoding="utf-8"))
    assert [bot["name"] for bot in document["bots"]] == [spec, "random"]
