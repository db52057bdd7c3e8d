"""The README's code blocks run as pasted, each on its own in a fresh interpreter.

A reader copies one block into a new ``python`` session, not the whole README, so each
block must import what it uses and build what it needs: every ``python`` block runs in
a subprocess of its own, with nothing defined beforehand.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
EXAMPLES = ROOT / "examples"


def blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)


BLOCKS = blocks(README.read_text(encoding="utf-8"))


def run_alone(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``code`` as a script in a fresh interpreter (a new process, an empty namespace)."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        check=False,
    )


def test_the_readme_has_code_blocks() -> None:
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("number", range(len(BLOCKS)), ids=lambda n: f"block{n + 1}")
def test_each_block_runs_on_its_own(number: int, tmp_path: Path) -> None:
    result = run_alone(BLOCKS[number], tmp_path)
    assert result.returncode == 0, f"README block {number + 1}:\n{result.stderr}"
    assert result.stderr == ""


SEEDS = [*range(300), 619]
"""Seeds the seeded blocks must end on: 619 makes the first block's random players drift
upwards without end (past 40,000 deals, scores in the thousands) unless it caps the deals."""


def with_seeds(code: str, seeds: list[int]) -> str:
    """``code`` run once per seed: its ``random.Random(N)`` given each seed in turn."""
    seeded = re.sub(r"random\.Random\(\d+\)", "random.Random(SEED)", code)
    body = "".join(f"    {line}\n" if line.strip() else "\n" for line in seeded.splitlines())
    return f"for SEED in {seeds!r}:\n{body}"


SEEDED = [n for n, code in enumerate(BLOCKS) if re.search(r"random\.Random\(\d+\)", code)]


def test_the_blocks_with_a_seed_are_found() -> None:
    assert 0 in SEEDED
    assert with_seeds("rng = random.Random(7)\n\nx = 1\n", [1, 2]) == (
        "for SEED in [1, 2]:\n    rng = random.Random(SEED)\n\n    x = 1\n"
    )


@pytest.mark.parametrize("number", SEEDED, ids=lambda n: f"block{n + 1}")
def test_each_seeded_block_ends_on_every_seed(number: int, tmp_path: Path) -> None:
    """A reader may change the seed: the example must end whatever it is."""
    result = subprocess.run(
        [sys.executable, "-c", with_seeds(BLOCKS[number], SEEDS)],
        capture_output=True,
        text=True,
        timeout=90,
        cwd=tmp_path,
        check=False,
    )
    assert result.returncode == 0, f"README block {number + 1}:\n{result.stderr}"


def test_the_first_block_prints_a_finished_game(tmp_path: Path) -> None:
    out = run_alone(BLOCKS[0], tmp_path).stdout
    assert re.search(r"^\(-?\d+, -?\d+, -?\d+, -?\d+\) winners: \(\d", out, re.M), out


def test_a_block_that_needs_an_earlier_one_fails(tmp_path: Path) -> None:
    """The check can fail: the old second block used names only the first one defined."""
    dependent = "view = state.view(2)\nassert replay(GameRecord.from_text('')) == state\n"
    result = run_alone(dependent, tmp_path)
    assert result.returncode != 0
    assert "NameError" in result.stderr


def test_blocks_are_found_whatever_their_content() -> None:
    text = "x\n```python\na = 1\n```\n```sh\nmake\n```\n```python\nb = '```'\n```\n"
    assert blocks(text) == ["a = 1\n", "b = '```'\n"]


@pytest.mark.parametrize("script", sorted(p.name for p in EXAMPLES.glob("*.py")))
def test_each_example_says_how_to_run_it(script: str) -> None:
    name = script.removesuffix(".py")
    docstring = (EXAMPLES / script).read_text(encoding="utf-8").split('"""')[1]
    text = " ".join(docstring.split())
    assert f"make example NAME={name}" in text
    assert f".venv/bin/python examples/{script}" in text
    assert "make demo" in text


def test_the_readme_says_how_to_run_an_example() -> None:
    text = README.read_text(encoding="utf-8")
    assert "make example NAME=greedy_bot" in text
    assert ".venv/bin/python examples/greedy_bot.py" in text
    for script in EXAMPLES.glob("*.py"):
        assert f"examples/{script.name}" in text


def test_make_example_runs_the_script_with_the_venv_python() -> None:
    result = subprocess.run(
        ["make", "--no-print-directory", "-n", "example", "NAME=greedy_bot", "ARGS=50 7"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    commands = [line for line in result.stdout.splitlines() if "examples/" in line]
    assert commands == [".venv/bin/python examples/greedy_bot.py 50 7"], result.stdout
