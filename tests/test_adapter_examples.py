"""The adapter examples run and print what they promise."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(script: str, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=EXAMPLES.parent,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_openspiel_ismcts_example_plays_deals_against_random() -> None:
    pytest.importorskip("pyspiel")
    out = run("openspiel_ismcts.py", "3", "20", "5")
    deals = re.findall(r"^deal (\d): returns \[([-\d, ]+)\]$", out, re.M)
    assert [d for d, _ in deals] == ["1", "2", "3"]
    for _, returns in deals:
        values = [int(x) for x in returns.split(",")]
        assert len(values) == 4
        assert all(-10 <= v <= 10 for v in values)  # R29, R30
    assert re.search(r"^ISMCTS \(seat 0\): [-+]\d+\.\d\d per deal", out, re.M)


def test_pettingzoo_random_example_plays_a_whole_game() -> None:
    pytest.importorskip("pettingzoo")
    out = run("pettingzoo_random.py", "3", "4")
    match = re.search(r"final scores \[([-\d, ]+)\]", out)
    assert match, out
    scores = [int(s) for s in match.group(1).split(",")]
    assert len(scores) == 3
    assert min(scores) <= 0  # R31: somebody reached the goal
    totals = [int(t) for t in re.findall(r"^player_\d: total reward ([-+]\d+)$", out, re.M)]
    assert len(totals) == 3
    assert re.search(r"^winners \[\d", out, re.M)
