"""The built-in bots' decision times in an arena whose games end early.

A script, not a test: ``python benchmarks/arena_first_decisions.py`` from a folder
holding ``crash.py`` (``class Crash`` whose ``choose`` raises), in a fresh process.
Every game ends at the crashing bot's first decision (a forfeit), so the built-in bots
decide only a few times and any one-time cost timed inside a decision shows.
"""

from bohmisch_watten.arena import run_arena

summary, results = run_arena(
    ["random", "heuristic", "./crash.py:Crash"], players=3, games=3, seed=1
)
for line in summary.lines[:2]:
    print(
        line.name,
        line.decisions,
        f"mean {line.mean_decision_ms:.2f} ms",
        f"median {line.median_decision_ms:.2f} ms",
    )
ms = [m for r in results for seat, c in enumerate(r.seating) if c != 2 for m in r.decision_ms[seat]]
print(f"max {max(ms):.1f} ms over {len(ms)} decisions")
