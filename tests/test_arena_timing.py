"""A built-in bot's decision time holds no one-time cost of the library.

In a run whose games end early (a bot forfeits at its first decision), the built-in
bots decide only a few times; the shared exchange tables built on first use were timed
inside the first of those decisions, 30–100 ms against a tenth of a millisecond.  The
arena runs in a fresh interpreter, as a worker does, so nothing is built beforehand.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"

_ARENA = """
import json
from bohmisch_watten.arena import run_arena
summary, results = run_arena(["random", "heuristic", "./crash.py:Crash"], players=3, games=3,
                             seed=1)
print(json.dumps({
    "forfeits": sum(r.forfeit is not None for r in results),
    "built_in_ms": [ms for r in results for seat, c in enumerate(r.seating) if c != 2
                    for ms in r.decision_ms[seat]],
}))
"""


def test_a_bot_forfeiting_early_leaves_the_built_in_bots_times_alone(tmp_path: Path) -> None:
    (tmp_path / "crash.py").write_text(
        "class Crash:\n    def choose(self, view, rng):\n        raise RuntimeError('no')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", _ARENA],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(SRC)},
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    result = json.loads(done.stdout)
    assert result["forfeits"] == 3  # every game ended at the crashing bot's first decision
    times = result["built_in_ms"]
    assert times  # the built-in bots decided before it, the first exchange among them
    assert max(times) < 20, times  # a decision of random or the heuristic: well under 1 ms
