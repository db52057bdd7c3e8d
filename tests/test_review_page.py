"""The game-over review on the web table's page: the script's own words for a decision.

The page builds each judged decision's line from the review's JSON (the hand, the trump,
the trick or the exchange, the move taken and the better one), in the page's language.
These tests run those functions of ``table.js`` in Node with the page's real catalog.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from importlib import resources

import pytest

from bohmisch_watten import Rules
from bohmisch_watten.bots import SearchBot
from bohmisch_watten.web import Table
from bohmisch_watten.web._i18n import messages

NODE = shutil.which("node")
SCRIPT = resources.files("bohmisch_watten.web").joinpath("assets", "table.js").read_text("utf-8")
FIELDS = "langjs|record|table|lobby|css|script|review|token|cards|messages"
PLACEHOLDERS = re.compile(r"\{(?:" + FIELDS + r")\}")
"""The page's template fields (``web._page.render_page``), which it fills in the script too."""
FUNCTIONS = ("tr", "cardName", "name", "moveWords", "situationWords")


def test_the_review_functions_survive_the_page_template() -> None:
    """The page fills ``{cards}`` and its other fields in the script's text as well."""
    from bohmisch_watten.web._page import render_page

    for name in ("moveWords", "situationWords"):
        assert not PLACEHOLDERS.search(_function(name)), name
        assert _function(name) in render_page("T", lang="en")
    assert PLACEHOLDERS.search('tr("exchanged {cards}")')


def _function(name: str) -> str:
    start = SCRIPT.index(f"\nfunction {name}(") + 1
    ends = [SCRIPT.find(mark, start) for mark in ("\nfunction ", "\n$(", "\nconst ")]
    return SCRIPT[start : min(end for end in ends if end > 0)]


def run_page(lang: str, seat: int, calls: list[str]) -> list[str]:
    """Evaluate ``calls`` (JavaScript expressions) with the page's review functions."""
    if NODE is None:
        pytest.skip("node is not installed")
    program = "\n".join(
        [
            f"const LANG = {json.dumps(lang)};",
            f"const T = {json.dumps(dict(messages(lang)))};",
            f"const frame = {{seat: {seat}, players: [{{name: 'Anna'}}, {{name: 'Bot'}},"
            " {name: 'Cleo'}]};",
            'const SUITS_DE = {E: "Eichel", G: "Gras", H: "Herz", S: "Schellen"};',
            'const RANKS_DE = {U: "Unter", O: "Ober", K: "König", A: "Sau"};',
            *(_function(name) for name in FUNCTIONS),
            f"console.log(JSON.stringify([{', '.join(calls)}]));",
        ]
    )
    done = subprocess.run(
        [NODE, "-e", program], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    result: list[str] = json.loads(done.stdout)
    return result


def test_moves_in_words_in_both_languages() -> None:
    moves = ["exchange", "exchange HK S9", "exchange S9 +trump", "fold", "play GA", "take", "leave"]
    calls = [f"moveWords({json.dumps(m)})" for m in moves]
    assert run_page("en", 0, calls) == [
        "kept your hand",
        "exchanged HK, S9",
        "exchanged S9 and took the trump card",
        "folded",
        "played GA",
        "took the Critical",
        "left the Critical",
    ]
    assert run_page("de", 0, calls) == [
        "Karten behalten",
        "Herz König, Schellen 9 getauscht",
        "Schellen 9 getauscht und die Trumpfkarte genommen",
        "ausgestiegen",
        "Gras Sau gespielt",
        "den Kritischen genommen",
        "den Kritischen liegen gelassen",
    ]


def test_the_situation_of_each_phase() -> None:
    play = {
        "hand": ["GA", "H7"],
        "trump_card": "HO",
        "dealer": True,
        "trick": [{"seat": 1, "card": "G7"}, {"seat": 2, "card": "E7"}],
        "before": [],
        "offered": None,
    }
    lead = {**play, "trick": []}
    exchange = {
        "hand": ["E7"],
        "trump_card": "SU",
        "dealer": True,
        "trick": [],
        "before": [{"seat": 1, "exchanged": 0}, {"seat": 2, "exchanged": None}],
        "offered": None,
    }
    cut = {"hand": [], "trump_card": None, "dealer": False, "trick": [], "before": [],
           "offered": "HK"}  # fmt: skip
    calls = [
        f"situationWords({json.dumps(play)}, 'play')",
        f"situationWords({json.dumps(lead)}, 'play')",
        f"situationWords({json.dumps(exchange)}, 'exchange')",
        f"situationWords({json.dumps(cut)}, 'cut')",
    ]
    assert run_page("en", 0, calls) == [
        "Hand GA H7; trump HO; trick: Bot G7, Cleo E7",
        "Hand GA H7; trump HO; you lead",
        "Hand E7; trump SU; you deal; before you: Bot kept the hand, Cleo folded",
        "no cards yet; offered the Critical HK",
    ]
    assert run_page("de", 0, calls)[2] == (
        "Karten Eichel 7; Trumpf Schellen Unter; du gibst;"
        " vor dir: Bot hat die Karten behalten, Cleo ist ausgestiegen"
    )


def test_the_review_a_table_serves_is_shown_in_words() -> None:
    """The JSON of a real game's review goes through the page's functions unchanged."""
    table = Table(players=3, humans=1, seed=5, rules=Rules(start_score=3), judge=SearchBot(12))
    rng = random.Random(5)
    while not table.state.is_terminal:
        if table.needs_auto:
            table.step()
        else:
            seat = table.state.current_player
            assert seat is not None
            table.act(seat, str(rng.choice(table.state.legal_actions())))
    data = table.review()
    assert data is not None
    assert data["judge"] == "search:rollouts=12"
    decisions = data["decisions"]
    assert decisions
    calls = [
        f"[situationWords({json.dumps(d['situation'])}, {json.dumps(d['phase'])}),"
        f" moveWords({json.dumps(d['action'])}), moveWords({json.dumps(d['best'])})]"
        for d in decisions
    ]
    shown = run_page("en", 0, calls)
    for decision, (situation, played, better) in zip(decisions, shown, strict=True):
        seen = decision["situation"]
        assert situation.startswith("Hand " + " ".join(seen["hand"]) if seen["hand"] else "no")
        if seen["trump_card"] is not None:
            assert f"; trump {seen['trump_card']}" in situation
        for play in seen["trick"]:
            assert f" {play['card']}" in situation
        assert played == decision["played"]  # the page's words are the command's
        assert better == (decision["better"] or decision["played"])
