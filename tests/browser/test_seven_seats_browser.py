"""Seven seats with the 36-card pack in a real browser (R1): a table made in the lobby,
one person and six bots, played by clicking, laid out without overlap on a phone and a
desktop.

The game server runs in this process (real uvicorn on a loopback socket), so the test
reads the table the page shows and compares: every seat's name and score on the page
is the table's, and no two seats, names or cards played to the trick overlap.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from test_browser import shot
from test_server_browser import one_move

from bohmisch_watten import Phase, Rules, load_record, replay
from bohmisch_watten.web.backends import open_storage
from bohmisch_watten.web.server import GameServer, create_server
from bohmisch_watten.web.table import Table
from threaded_server import running

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
BOTS = ["heuristic", "random", "heuristic", "random", "heuristic", "random"]


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two bounding boxes share more than a hairline (a pixel of rounding)."""
    return (
        min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"]) > 1
        and min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]) > 1
    )


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (
        inner["x"] >= outer["x"] - 1
        and inner["y"] >= outer["y"] - 1
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 1
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 1
    )


def boxes(page: Page, selector: str) -> list[dict[str, Any]]:
    """Each element's bounding box (page coordinates) and its text."""
    found: list[dict[str, Any]] = page.evaluate(
        """selector => Array.from(document.querySelectorAll(selector)).map(e => {
            const r = e.getBoundingClientRect();
            return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height,
                    text: e.innerText, seat: e.closest("[data-seat]")?.dataset.seat};
        })""",
        selector,
    )
    return found


def check_layout(page: Page, table: Table, width: int) -> None:
    """Every other seat's tile shows its name, score, tricks and folded or exchanged state,
    inside the tile and the window; no two tiles, names or played cards overlap."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "scrolls sideways"
    view = table.state.view(0)
    tiles = boxes(page, "#opponents .seat")
    assert sorted(int(t["seat"]) for t in tiles) == list(range(1, 7))
    names = boxes(page, "#opponents .seat .name .who")
    facts = boxes(page, "#opponents .seat .meta")
    for group in (tiles, names, facts):
        assert all(box["width"] > 0 and box["height"] > 0 for box in group)
        assert all(box["x"] >= 0 and box["x"] + box["width"] <= width for box in group)
        for i, a in enumerate(group):
            assert not any(overlap(a, b) for b in group[i + 1 :]), (a, group)
    for tile in tiles:
        seat = int(tile["seat"])
        name = next(n for n in names if n["seat"] == tile["seat"])
        meta = next(m for m in facts if m["seat"] == tile["seat"])
        assert inside(name, tile)
        assert inside(meta, tile)
        assert name["text"] == f"Seat {seat}"  # a bot's name; its kind is a chip beside it
        assert meta["text"].startswith(f"{view.scores[seat]} point")
        assert f"{view.tricks_won[seat]} trick" in meta["text"]
        if view.folded[seat]:
            assert "folded" in tile["text"]
        elif view.exchanged[seat] is not None:
            assert f"exchanged {view.exchanged[seat]}" in meta["text"]
    assert page.locator("#handlabel").inner_text().startswith(f"Your hand · {view.scores[0]} ")
    played = boxes(page, "#trick .played")
    labels = boxes(page, "#trick .played .who")
    assert [label["text"].split("\n")[0] for label in labels] == [
        "You" if seat == 0 else f"Seat {seat}" for seat, _ in view.trick
    ]
    for i, a in enumerate(played):
        assert a["x"] >= 0
        assert a["x"] + a["width"] <= width
        assert not any(overlap(a, b) for b in played[i + 1 :])
    assert len(played) == len(view.trick)
    assert page.locator("#trick svg.card[data-card]").count() == len(view.trick)


def create_in_lobby(page: Page, base: str) -> str:
    """The lobby's form: the 36-card pack, seven players, one person; the person's link."""
    page.goto(base + "/")
    assert page.locator("#players option").all_inner_texts() == ["2", "3", "4"]
    page.select_option("#pack", "36")
    assert page.locator("#players option").all_inner_texts() == [str(n) for n in range(2, 8)]
    page.select_option("#players", "7")
    assert page.locator("#humans option").count() == 7
    bots = page.locator("select.bot")
    assert bots.count() == 6
    for i, kind in enumerate(BOTS):
        bots.nth(i).select_option(kind)
    page.fill("#rules", "start_score=2")
    page.fill("#delay", "0")
    page.click("#submit")
    page.wait_for_selector("#links a[data-seat='0']")
    page.wait_for_selector("#tables tbody tr[data-table]")
    assert "pack=36" in page.inner_text("#tables tbody tr")
    shot(page, "seven-seats-lobby")
    link = page.locator("#links a[data-seat='0']").get_attribute("href")
    assert link is not None
    return link


@pytest.mark.rule("R1", "R6")
def test_seven_seats_with_the_36_card_pack(browser: Browser, tmp_path: Path) -> None:
    app = create_server(open_storage(str(tmp_path / "seven.sqlite")))
    server: GameServer = app.state.server
    errors: list[str] = []
    with running(app) as port:
        base = f"http://127.0.0.1:{port}"
        desk = browser.new_page(viewport=DESKTOP, bypass_csp=True)
        desk.on("pageerror", lambda error: errors.append(str(error)))
        link = create_in_lobby(desk, base)
        (hub,) = server.hubs.values()
        table = hub.table
        assert table.rules == Rules(pack=36, start_score=2)
        assert [s.kind for s in table.seats] == ["human", *BOTS]
        desk.goto(base + link)
        phone = browser.new_page(viewport=PHONE, bypass_csp=True)
        phone.on("pageerror", lambda error: errors.append(str(error)))
        phone.goto(base + link)
        looked: set[str] = set()
        decisions = 0
        while one_move(desk):
            decisions += 1
            assert decisions < 80, "the game did not end"
            state = table.state
            if state.current_player != 0 or state.phase is not Phase.PLAY:
                continue
            if len(state.trick) >= 3 and "trick" not in looked:  # the person's turn, mid-trick
                for page, size, name in ((desk, DESKTOP, "desktop"), (phone, PHONE, "phone")):
                    page.wait_for_function(
                        f"document.querySelectorAll('#trick .played').length === {len(state.trick)}"
                    )
                    check_layout(page, table, size["width"])
                    shot(page, f"seven-seats-{name}")
                looked.add("trick")
        assert looked == {"trick"}
        desk.wait_for_selector("#gameover", state="visible")
        phone.wait_for_selector("#gameover", state="visible")
        shot(desk, "seven-seats-game-over")
        shot(phone, "seven-seats-phone-game-over")
        for size in (PHONE, DESKTOP):  # German words are longer: still no sideways scroll
            german = browser.new_page(viewport=size, bypass_csp=True)
            german.goto(base + link + "?lang=de")
            german.wait_for_selector("#opponents .seat")
            assert german.inner_text("#opponents .seat .who >> nth=0") == "Platz 1"
            assert german.evaluate("document.documentElement.scrollWidth") <= size["width"]
            german.close()
        final = table.state
        assert final.is_terminal
        record = desk.request.get(f"{base}/api/tables/{hub.table_id}/record")
        assert record.status == 200
        assert replay(load_record(record.text())) == final
        summary = json.load(urllib.request.urlopen(f"{base}/api/tables/{hub.table_id}"))
        assert summary["players"] == 7
        assert summary["rules"] == "start_score=2,pack=36"
    assert errors == []
