"""Ten million decisions through the compiled core's entry points keep memory flat.

benchmarks/soak.py plays them in ten rounds: random playouts in C, a game stepped one
id at a time with every getter read, the public API on the compiled core with views,
sampled worlds and the solver, and the batched API.  A lost reference in C keeps
objects alive, so the interpreter's allocated blocks would grow with the decisions
(one leaked object per thousand decisions is 9,000 blocks over the last nine rounds);
here they may move by a few hundred at most, and the resident memory by a few MiB
(the allocator's fragmentation), from the first round to the last.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bohmisch_watten import _cores

SOAK = Path(__file__).resolve().parent.parent / "benchmarks" / "soak.py"
DECISIONS = 10_000_000
MAX_BLOCK_GROWTH = 300
MAX_RSS_GROWTH_KIB = 8 * 1024

pytestmark = pytest.mark.skipif(
    _cores.NATIVE is None, reason="the soak is of the compiled core (CI always builds it)"
)


def test_ten_million_decisions_keep_memory_flat() -> None:
    result = subprocess.run(
        [sys.executable, str(SOAK), "--decisions", str(DECISIONS), "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    report = json.loads(result.stdout)
    assert report["decisions"] >= DECISIONS
    first, last = report["rounds"][1], report["rounds"][-1]
    assert last["blocks"] - first["blocks"] <= MAX_BLOCK_GROWTH, report["rounds"]
    assert last["rss_kib"] - first["rss_kib"] <= MAX_RSS_GROWTH_KIB, report["rounds"]
