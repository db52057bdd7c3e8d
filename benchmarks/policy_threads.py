"""PolicyBot's time a decision in process, with torch's threads as a machine sets them.

A script, not a test: ``[THREADS=N] python benchmarks/policy_threads.py`` from a folder
holding ``policy.pt`` (see ``benchmarks/policy_decisions.py``).  300 decision views of
random four-player games, one ``make_bot("policy:policy.pt")``; ``THREADS`` calls
``torch.set_num_threads(N)`` first, as torch's default on an N-core machine.
"""

import os
import random
import statistics
import time

import torch

from bohmisch_watten import new_game
from bohmisch_watten.bots import make_bot

if os.environ.get("THREADS"):
    torch.set_num_threads(int(os.environ["THREADS"]))  # a machine with that many cores\' default
bot = make_bot("policy:policy.pt")
rng, state, views = random.Random(1), new_game(4), []
while len(views) < 300:
    if state.is_terminal:
        state = new_game(4)
    if state.is_chance_node:
        state = state.apply(state.sample_chance(rng))
        continue
    views.append(state.view(state.current_player))
    state = state.apply(rng.choice(state.legal_actions()))
bot.choose(views[0], rng)  # the first decision (reads the checkpoint on the base)
times = []
for view in views:
    start = time.perf_counter()
    bot.choose(view, rng)
    times.append(1000 * (time.perf_counter() - start))
print(
    f"torch threads {torch.get_num_threads()}: median {statistics.median(times):.2f} ms,"
    f" mean {statistics.mean(times):.2f} ms"
)
