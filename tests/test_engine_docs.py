"""The engine protocol's page shows what the code does: its transcript is current, its
schema is the one the package ships, every action text is described, and the examples
stay short."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from bohmisch_watten import Rules, new_game
from bohmisch_watten.encoding import ACTION_ID_NAMES
from engine_transcript import (
    BEGIN,
    END,
    PAGE,
    SCHEMA,
    SCHEMA_BEGIN,
    SCHEMA_END,
    block,
    schema_block,
    transcript,
)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "engines"


def _shown_transcript() -> str:
    page = PAGE.read_text(encoding="utf-8")
    return page[page.index(BEGIN) : page.index(END) + len(END)]


def test_the_transcript_is_what_the_code_does_today() -> None:
    assert _shown_transcript() == block(transcript()), (
        "the protocol changed: run python tests/engine_transcript.py and review the diff"
    )


def test_the_page_shows_the_schema_the_package_ships() -> None:
    page = PAGE.read_text(encoding="utf-8")
    shown = page[page.index(SCHEMA_BEGIN) : page.index(SCHEMA_END) + len(SCHEMA_END)]
    assert shown == schema_block(), "run python tests/engine_transcript.py"
    body = shown.split("```json\n", 1)[1].rsplit("```", 1)[0]
    assert json.loads(body) == json.loads(SCHEMA.read_text(encoding="utf-8"))


CARD = re.compile(r"\b[EGHS](?:10|[AKOU9876])\b")


def _form(text: str) -> str:
    """The shape of an action text, as the page's Actions table names it."""
    shape = CARD.sub("C", text)
    if shape.startswith("exchange C"):
        return "exchange C… +trump" if shape.endswith("+trump") else "exchange C…"
    return shape


def _documented_forms() -> dict[str, str]:
    """Action form → its row, from the Actions table: the first backticked text of the
    second column."""
    page = PAGE.read_text(encoding="utf-8")
    section = page[page.index("## Actions") : page.index("## The view")]
    rows = [line.split("|") for line in section.splitlines() if line.startswith("| `")]
    forms = {}
    for row in rows:
        form = re.match(r"\s*`([^`]+)`", row[2])
        assert form is not None, row
        forms[form.group(1)] = row[3]
    return forms


def test_every_action_text_the_library_produces_is_described_on_the_page() -> None:
    """Random games of every size under every exchange and ritual variant: each legal
    action's shape has its row (with a meaning), and every row is a shape that occurs."""
    documented = _documented_forms()
    rng = random.Random(52)
    seen: dict[str, int] = {}
    for game in range(120):
        rules = Rules(
            dealer_stock_limit=(2, 3)[game % 2],
            schleck=("alternate", "cutter_only", "none")[game % 3],
            start_score=6,
        )
        state = new_game(2 + game % 3, rules=rules)
        while not state.is_terminal:
            if state.is_chance_node:
                state = state.apply(state.sample_chance(rng))
                continue
            for action in state.legal_actions():
                text = str(action)
                form = _form(text)
                assert form in documented, (text, sorted(documented))
                cards = len(CARD.findall(text))
                limit = {"exchange C…": 3, "exchange C… +trump": rules.dealer_stock_limit + 1}
                assert cards <= limit.get(form, 1), text
                seen[form] = seen.get(form, 0) + 1
            state = state.apply(rng.choice(state.legal_actions()))
    assert set(seen) == set(documented)
    assert all(len(meaning.strip()) > 20 for meaning in documented.values())
    verbs = {name.split()[0] for name in ACTION_ID_NAMES}  # the whole action id table
    assert verbs == {text.split()[0] for text in documented}


@pytest.mark.parametrize("name", ["random.js", "random.c", "random_engine.py"])
def test_each_example_is_short_and_in_the_readme(name: str) -> None:
    lines = (EXAMPLES / name).read_text(encoding="utf-8").splitlines()
    assert len(lines) < 50
    assert name in (EXAMPLES / "README.md").read_text(encoding="utf-8")


def test_the_python_example_needs_only_the_standard_library() -> None:
    source = (EXAMPLES / "random_engine.py").read_text(encoding="utf-8")
    imported = set(re.findall(r"^import (\w+)|^from (\w+)", source, re.M))
    assert {name for pair in imported for name in pair if name} == {"json", "random", "sys"}
