"""The transcript and the schema in docs/engine-protocol.md: one deal and the next
decision between the real host and the real served engine (``python -m
bohmisch_watten engine --log``), and the schema file the package ships.

``python tests/engine_transcript.py`` rewrites both blocks in the page after a
deliberate change of the protocol; ``tests/test_engine_docs.py`` checks the page shows
what the code does today.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

from bohmisch_watten import new_game
from bohmisch_watten.bots import HeuristicBot
from bohmisch_watten.engine import Engine
from bohmisch_watten.events import describe

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "engine-protocol.md"
SCHEMA = ROOT / "src" / "bohmisch_watten" / "engine" / "schemas" / "protocol.schema.json"
BEGIN = "<!-- transcript: begin -->"
END = "<!-- transcript: end -->"
SCHEMA_BEGIN = "<!-- schema: begin -->"
SCHEMA_END = "<!-- schema: end -->"


def transcript() -> str:
    """Seat 0 of a 2-player game, served by the heuristic bot, for the first deal and
    the first decision of the second (with the first deal's ``deal_over``)."""
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "dialogue.log"
        command = [sys.executable, "-m", "bohmisch_watten", "engine", "--bot", "heuristic",
                   "--log", str(log)]  # fmt: skip
        board = random.Random(2)
        rngs = [random.Random(10), random.Random(11)]
        other = HeuristicBot()
        with Engine.popen(command, hello_timeout_ms=60_000, timeout_ms=5000) as engine:
            state = new_game(2)
            engine.new_game(2, 0, state.rules, state.position, rngs[0].getrandbits(31))
            decided_in_deal_2 = False
            while not decided_in_deal_2:
                if state.is_chance_node:
                    action = state.sample_chance(board)
                elif state.current_player == 0:
                    action = engine.choose(state.view(0), rngs[0])
                    decided_in_deal_2 = state.deal_number == 2
                else:
                    action = other.choose(state.view(1), rngs[1])
                after = state.apply(action)
                engine.observe(describe(state, action, after, observer=0))
                state = after
        return log.read_text(encoding="utf-8")


def block(text: str) -> str:
    """The transcript as the page shows it, between its markers."""
    return f"{BEGIN}\n\n```text\n{text}```\n\n{END}"


def schema_block() -> str:
    """The schema file as the page shows it, between its markers."""
    return f"{SCHEMA_BEGIN}\n\n```json\n{SCHEMA.read_text(encoding='utf-8')}```\n\n{SCHEMA_END}"


def update() -> None:
    page = PAGE.read_text(encoding="utf-8")
    start, end = page.index(BEGIN), page.index(END) + len(END)
    page = page[:start] + block(transcript()) + page[end:]
    start, end = page.index(SCHEMA_BEGIN), page.index(SCHEMA_END) + len(SCHEMA_END)
    page = page[:start] + schema_block() + page[end:]
    PAGE.write_text(page, encoding="utf-8")


if __name__ == "__main__":
    update()
