"""A bounded atheris run over the public loaders and ``apply`` (tests/fuzz/fuzz_public.py).

The fuzzer runs in its own process, with the core the environment selects (the
compiled one in CI's main run), from a seed corpus of real documents: a record in
text and JSON, a saved state, a position line, actions and rules.  A crash of the
compiled core kills that process, an unexpected exception ends it non-zero: either way
this test fails and prints the fuzzer's report (the crashing input is in tmp_path).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import bohmisch_watten as bw

FUZZER = Path(__file__).parent / "fuzz" / "fuzz_public.py"
RUNS = 8_000


def _seeds(folder: Path) -> None:
    rng = random.Random(5)
    state = bw.new_game(3)
    while state.deal_number < 2 and not state.is_terminal:
        action = (
            state.sample_chance(rng) if state.is_chance_node else rng.choice(state.legal_actions())
        )
        state = state.apply(action)
    documents = [
        state.record().to_text(),
        state.record().to_json(),
        state.to_json(),
        "take",
        "exchange HK S7",
        "pack=36,plus_fifty=true",
    ]
    for number, text in enumerate(documents):
        # The first byte picks the target (a loader, or the game); the rest is the text.
        target = number % 6
        (folder / f"seed{number}").write_bytes(bytes([target, 1]) + text.encode())


def test_the_loaders_and_apply_survive_the_fuzzer(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    _seeds(corpus)
    result = subprocess.run(
        [
            sys.executable,
            str(FUZZER),
            f"-atheris_runs={RUNS}",
            "-max_len=4096",
            "-timeout=10",
            f"-artifact_prefix={tmp_path}/",
            str(corpus),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    report = (result.stdout + result.stderr)[-4000:]
    assert result.returncode == 0, report
    assert f"Done {RUNS} " in report or f"Done {RUNS}\n" in report, report
