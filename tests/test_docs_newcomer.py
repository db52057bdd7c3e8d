"""What a newcomer meets first is true: the README's set-up costs and commands, the
browser table's first page, seating bots and pacing a client, the examples a pip user
does not have, the figures page, and the pages that still spoke of 32 cards and
protocol 1."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bohmisch_watten.cards import CARDS
from bohmisch_watten.commands.cli import build_parser
from bohmisch_watten.engine.protocol import hello_message

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = (ROOT / "README.md").read_text(encoding="utf-8")
UI = (DOCS / "ui.md").read_text(encoding="utf-8")
FENCE = re.compile(r"^```(\S*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)


def _section(text: str, heading: str) -> str:
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


# ------------------------------------------------------------------ the README


def test_the_readme_says_what_make_test_costs_and_needs() -> None:
    setup = " ".join(_section(README, "Set-up: two commands").split())
    for heavy in ("PyTorch", "Ray", "OpenSpiel"):
        assert heavy in setup
    assert "about half an hour" in setup
    assert "apt-get install chromium" in setup
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "train" in re.search(r"\.dev-installed:.*?\n\t(.*)", makefile).group(1)  # type: ignore[union-attr]


def test_the_readmes_arena_command_is_a_short_one() -> None:
    """400 search games took about 8 minutes: the command shown is ten times shorter,
    and the long one is said to be long."""
    text = " ".join(README.split())
    shown = re.search(r"arena --bots search[\w,]* --games (\d+)`", text)
    assert shown is not None
    assert int(shown.group(1)) <= 50
    assert "`--games 400`, for intervals narrow enough" in text
    assert "takes about ten times as long" in text


def test_plain_serve_opens_an_empty_lobby_as_the_readme_says(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from live_server import serving

    browser = " ".join(_section(README, "Play in the browser").split())
    assert "It opens the lobby" in browser
    assert "You sit with" not in browser  # what plain serve did not do
    with serving(tmp_path, "--bot", "mine=heuristic") as server:
        assert server.tables() == []  # no table: the lobby only
        body = _ui_table_request()
        status, created = server.post(body)
        assert status == 201, created
        assert len(created["seats"]) == body["humans"]
        status, mine = server.post({**body, "bots": ["mine", "heuristic", "heuristic"]})
        assert status == 201, mine  # the registered name, as the page says
        kinds = [seat["kind"] for seat in server.tables()[0]["seats"]]
        assert len(kinds) == body["players"]


# ------------------------------------------------------------- the UI pages


def _ui_table_request() -> dict[str, object]:
    """The body of the ``POST /api/tables`` that docs/ui.md shows."""
    block = next(body for info, body in FENCE.findall(UI) if info == "sh" and "POST" in body)
    found = re.search(r"-d '(\{.*?\})'", block.replace("\\\n", " "), re.S)
    assert found is not None
    request: dict[str, object] = json.loads(found.group(1))
    return request


def test_the_ui_page_shows_how_to_seat_bots() -> None:
    body = _ui_table_request()
    bots = body["bots"]
    assert isinstance(bots, list)
    assert len(bots) == int(body["players"]) - int(body["humans"])  # type: ignore[call-overload]
    assert "serve --bot mine=" in UI
    assert '"bots": ["mine"' in UI
    serve = {o for a in build_parser("serve")._actions for o in a.option_strings}
    assert {"--bot", "--bots", "--players", "--humans"} <= serve


def test_the_pacing_advice_is_the_servers_limits() -> None:
    pytest.importorskip("starlette")
    from bohmisch_watten.web._rate import Bucket
    from bohmisch_watten.web.server import Limits

    rate = Limits().messages_per_second
    assert build_parser("serve").parse_args([]).rate == rate
    assert f"`--rate` messages\na second (default {rate:g})" in UI
    assert f"({1000 / rate:g} ms by default)" in UI
    bucket = Bucket(rate)
    burst = sum(bucket.take() for _ in range(int(4 * rate)))
    assert burst == 2 * rate  # "in bursts of at most twice as many"
    assert "in bursts of at most twice as many" in UI


def test_the_page_module_holds_as_many_faces_as_the_page_says() -> None:
    faces = re.search(r"the (\d+) faces", UI)
    assert faces is not None
    assert int(faces.group(1)) == len(CARDS) == 36


# ------------------------------------------------------------ pip users, figures


def test_every_examples_script_after_a_pip_install_says_it_needs_a_checkout() -> None:
    """A pip user has no examples/: a block that installs with pip and then runs a
    script of examples/ says where the script is, in the block or just before it."""
    checked = 0
    for page in sorted(DOCS.rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            body = match.group(2)
            if "pip install" in body and re.search(r"\bexamples/\w+\.py", body):
                before = text[max(0, match.start() - 400) : match.start()]
                assert "checkout" in before + body, f"{page.name}: {body[:60]!r}"
                checked += 1
    assert checked >= 1


def test_the_figures_page_names_its_results_files_and_the_env_it_measured() -> None:
    page = (DOCS / "performance.md").read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("| ") and "---" not in line]
    for row in rows[1:]:
        results = row.strip("|").split("|")[3]
        path = re.search(r"`(benchmarks/RESULTS-[\w-]+\.md)`", results)
        assert path is not None, row
        assert (ROOT / path.group(1)).is_file()
    pettingzoo = next(row for row in rows if "PettingZoo" in row)
    assert "`raw_env`" in pettingzoo
    assert "`env()`" in pettingzoo  # what the adapter page uses, and that it is not this


def test_the_policy_decision_cost_is_said_with_its_thread_count() -> None:
    text = " ".join((DOCS / "learning.md").read_text(encoding="utf-8").split())
    assert "fraction of a millisecond" not in text
    assert "when PyTorch computes on one thread (`torch.set_num_threads(1)`)" in text


# --------------------------------------------------- 36 cards and protocol 2


def test_the_engines_page_shows_the_hosts_real_hello() -> None:
    page = (DOCS / "engines.md").read_text(encoding="utf-8")
    shown = re.search(r"host's `(\{\"type\": \"hello\"[^`]*\})`", page)
    assert shown is not None
    assert json.loads(shown.group(1)) == hello_message()
    assert "engine protocol 1" not in page
    assert "`deal_over`" in page


@pytest.mark.parametrize("page", ["README.md", "docs/concepts.md"])
def test_a_shuffle_is_any_order_of_the_packs_cards(page: str) -> None:
    text = " ".join((ROOT / page).read_text(encoding="utf-8").split())
    assert "permutation of the 32 cards" not in text
    assert re.search(r"permutation of the pack's cards", text)
