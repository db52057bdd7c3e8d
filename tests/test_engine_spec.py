"""Engine specs as the page describes them: shell-like splitting, relative paths from the
working directory, options in brackets, comma lists split outside quotes and brackets."""

from __future__ import annotations

import os
import random
import stat
import sys
from pathlib import Path

import pytest

from bohmisch_watten import new_game
from bohmisch_watten.bots import make_bot
from bohmisch_watten.engine import Engine
from bohmisch_watten.engine.spec import engine_from_spec, is_engine_spec, split_specs

PYTHON = sys.executable
EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "engines"


def test_the_command_is_split_like_a_shell_would_split_it() -> None:
    engine = engine_from_spec(f"engine:{PYTHON} -c 'print(1, 2)' \"a b\" c\\ d")
    assert engine.command == (PYTHON, "-c", "print(1, 2)", "a b", "c d")
    assert engine.options == {}
    assert make_bot(f"ENGINE:{PYTHON} x").command == (PYTHON, "x")  # type: ignore[attr-defined]


def test_options_go_in_brackets_with_json_or_text_values() -> None:
    spec = f"engine[depth=3 ratio=0.5 fast=true name=calm label='\"42\"' path=a:b]:{PYTHON} x"
    engine = make_bot(spec)
    assert isinstance(engine, Engine)
    assert engine.command == (PYTHON, "x")
    assert engine.options == {
        "depth": 3, "ratio": 0.5, "fast": True, "name": "calm", "label": "42", "path": "a:b",
    }  # fmt: skip
    assert is_engine_spec(spec)
    assert not is_engine_spec("random")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (f"engine[depth=3:{PYTHON}", r"no '\]:' closes the options"),
        (f"engine[depth]:{PYTHON}", "option 'depth' is not KEY=VALUE"),
        (f"engine[a=1 a=2]:{PYTHON}", "option 'a' is given twice"),
        (f"engine[a='1]:{PYTHON}", "bad options"),
        (f"engine:{PYTHON} 'unclosed", "No closing quotation"),
        ("engine:", "needs a command"),
        ("engine:./no-such-engine --flag", "'./no-such-engine' is not an executable program"),
        ("random", "not an engine spec"),
    ],
)
def test_bad_specs_are_refused_with_the_reason(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        engine_from_spec(spec)


def test_a_spec_must_be_a_string() -> None:
    with pytest.raises(TypeError, match="spec must be a string"):
        engine_from_spec(3)  # type: ignore[arg-type]


def test_a_relative_program_is_found_from_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    program = tmp_path / "my-engine"
    program.write_text(
        f"#!{PYTHON}\n" + (EXAMPLES / "random_engine.py").read_text(encoding="utf-8")
    )
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    monkeypatch.chdir(tmp_path)
    with make_bot("engine:./my-engine") as engine:  # type: ignore[attr-defined]
        engine.start()
        assert engine.name == "random.py"
    monkeypatch.chdir(tmp_path.parent)
    with pytest.raises(ValueError, match="not an executable program"):
        make_bot("engine:./my-engine")
    assert os.access(program, os.X_OK)


def test_options_from_a_spec_reach_the_engine(tmp_path: Path) -> None:
    """The served search bot declares its fields as options; the spec sets one."""
    log = tmp_path / "dialogue.log"
    spec = f"engine[rollouts=7 colour=red]:{PYTHON} -m bohmisch_watten engine --bot search"
    bot = make_bot(f"{spec} --log {log}")
    assert isinstance(bot, Engine)
    state = new_game(2)
    rng = random.Random(2)
    while state.current_player != 0:
        state = state.apply(
            state.sample_chance(rng) if state.is_chance_node else state.legal_actions()[0]
        )
    with bot.with_timeout(20_000) as engine:
        engine.hello_timeout_ms = 60_000
        engine.choose(state.view(0), rng)
        assert engine.warnings == ["unknown option 'colour'"]
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines[2] == '> {"type":"options","values":{"rollouts":7,"colour":"red"}}'


@pytest.mark.parametrize(
    ("text", "specs"),
    [
        ("random, heuristic ,,", ["random", "heuristic"]),
        ("engine:./e --names 'a,b',random", ["engine:./e --names 'a,b'", "random"]),
        ('engine:./e "x,\\"y",random', ['engine:./e "x,\\"y"', "random"]),
        ("engine:./e a\\,b,random", ["engine:./e a\\,b", "random"]),
        (
            "engine[names='a,b' n=1]:./e,search:rollouts=5",
            ["engine[names='a,b' n=1]:./e", "search:rollouts=5"],
        ),
    ],
)
def test_a_list_of_specs_splits_at_commas_outside_quotes_and_brackets(
    text: str, specs: list[str]
) -> None:
    assert split_specs(text) == specs


@pytest.mark.parametrize(
    ("text", "message"),
    [("engine:./e 'a,b,random", "no closing quotation"), ("engine[a=1:./e", "no closing bracket")],
)
def test_an_unclosed_quote_or_bracket_in_a_list_is_named(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        split_specs(text)
