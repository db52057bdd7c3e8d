"""The README's code examples run as shown."""

from __future__ import annotations

import contextlib
import io
import random
import re
from pathlib import Path

import bohmisch_watten as bw

README = Path(__file__).resolve().parent.parent / "README.md"


def blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_usage_example_plays_a_whole_game() -> None:
    namespace: dict[str, object] = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(blocks()[0], namespace)
    state = namespace["state"]
    assert isinstance(state, bw.GameState)
    assert state.is_terminal
    assert "winners:" in out.getvalue()


def test_views_example_runs_on_a_game_in_progress() -> None:
    rng = random.Random(11)
    state = bw.new_game(4)
    while state.deal_number < 3 or state.phase is not bw.Phase.PLAY:
        legal = state.legal_actions()
        state = state.apply(state.sample_chance(rng) if state.is_chance_node else rng.choice(legal))
    namespace: dict[str, object] = {**vars(bw), "state": state, "rng": rng}
    exec(blocks()[1], namespace)
    assert namespace["view"] == state.view(2)
    guess = namespace["guess"]
    assert isinstance(guess, bw.GameState)
    assert guess.view(2) == state.view(2)
