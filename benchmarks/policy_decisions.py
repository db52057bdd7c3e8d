"""PolicyBot in the arena: its mean, median and first-decision times.

A script, not a test: ``python benchmarks/policy_decisions.py`` from a folder holding
``policy.pt``, a checkpoint of ``save_policy(PolicyNet(4), "policy.pt")`` (random
weights, ``torch.manual_seed(0)``).  ``policy:policy.pt`` against three random bots,
8 games, ``jobs=1``; the arena makes every game's bots anew, so a cost paid once per
bot shows in each game's first decision.
"""

from bohmisch_watten.arena import run_arena

summary, results = run_arena(
    ["policy:policy.pt", "random", "random", "random"], players=4, games=8, seed=1, jobs=1
)
line = summary.lines[0]
first = sorted(r.decision_ms[r.seating.index(0)][0] for r in results)
print(
    f"{line.decisions} decisions: mean {line.mean_decision_ms:.2f} ms, median"
    f" {line.median_decision_ms:.2f} ms; first decision of a game: max {first[-1]:.1f} ms,"
    f" median {first[len(first) // 2]:.1f} ms"
)
