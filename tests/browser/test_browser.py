"""A real browser at the table: Chromium (Debian's package) driven by Playwright.

Run on their own (``make browser``): sync Playwright and asyncio tests do not mix in
one process.  Screenshots go to ``test-artifacts/`` (ignored by git).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Browser, Page

from bohmisch_watten import Rules, load_record, replay
from bohmisch_watten.web import Table
from bohmisch_watten.web.app import create_app

CHROMIUM = Path("/usr/lib/chromium/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Table]]:
    """A table (one person, three bots) served by uvicorn on a free loopback port.

    The person cuts (seat 1 deals) and is offered Belli (seed 0); with a start score of
    1 the first deal ends the game (R28, R31), so one deal shows every screen.
    """
    table = Table(players=4, humans=1, seed=0, rules=Rules(start_score=1), dealer=1)
    config = uvicorn.Config(create_app(table, delay=0.05), log_level="warning", ws_max_size=65536)
    uv = uvicorn.Server(config)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not uv.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", table
    uv.should_exit = True
    thread.join(10)
    sock.close()


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def wait_for_turn_or_end(page: Page) -> None:
    page.wait_for_function(
        "document.body.dataset.turn === 'you' || document.body.dataset.gameOver === 'true'",
        timeout=30_000,
    )


def click_and_wait(page: Page, selector: str) -> None:
    """Click and wait until the page has redrawn (the clicked element is replaced)."""
    handle = page.locator(selector).first.element_handle()
    assert handle is not None
    handle.click()
    page.wait_for_function("el => !el.isConnected", arg=handle, timeout=30_000)


def test_play_a_whole_deal_by_clicking(server: tuple[str, Table], browser: Browser) -> None:
    base, table = server
    # bypass_csp: Playwright evaluates its waiting predicates as strings (the page's own
    # policy forbids eval, as it should).
    page = browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base + "/")
    assert "/play/" in page.url
    assert page.request.get(base + "/record").status == 409
    seen: set[str] = set()
    for _ in range(200):
        wait_for_turn_or_end(page)
        if page.evaluate("document.body.dataset.gameOver") == "true":
            break
        # every card face on the page carries its notation
        assert page.locator("svg.card:not(.back):not([data-card])").count() == 0
        if page.locator('[data-action="take"]').count():
            assert page.locator('#prompt [data-card="S7"]').count() == 1  # Belli on offer
            assert page.locator('[data-action="leave"]').count() == 1
            shot(page, "cut-ritual")
            seen.add("cut")
            click_and_wait(page, '[data-action="take"]')
        elif page.locator('[data-action="exchange"]').count():
            assert (
                page.locator('#hand [data-legal="true"]').count()
                == page.locator("#hand svg.card").count()
            )
            click_and_wait(page, "#hand [data-card]")  # select one card
            assert page.locator("#hand svg.card.selected").count() == 1
            shot(page, "exchange")
            seen.add("exchange")
            click_and_wait(page, '[data-action="exchange"]')
        else:
            assert page.evaluate("document.body.dataset.phase") == "play"
            illegal = page.locator('#hand svg.card:not([data-legal="true"])')
            if "illegal" not in seen and illegal.count():
                illegal.first.click()
                page.wait_for_selector("#error", state="visible")
                assert page.inner_text("#error").startswith("R25")
                shot(page, "illegal-card")
                seen.add("illegal")
            if "trick" not in seen and page.locator("#trick .played.winning").count():
                assert "winning" in page.inner_text("#trick")
                shot(page, "trick")
                seen.add("trick")
            if "hint" not in seen:
                page.click("#hint")
                page.wait_for_function(
                    "document.getElementById('hintbox').textContent.startsWith('Hint: play ')"
                )
                seen.add("hint")
            if "keyboard" not in seen:  # a legal card is reachable with Tab and Enter
                handle = page.locator('#hand [data-legal="true"]').first.element_handle()
                assert handle is not None
                handle.focus()
                page.keyboard.press("Enter")
                page.wait_for_function("el => !el.isConnected", arg=handle, timeout=30_000)
                seen.add("keyboard")
                continue
            click_and_wait(page, '#hand [data-legal="true"]')
    else:
        pytest.fail("the game did not end")
    assert seen >= {"cut", "exchange", "trick", "hint", "keyboard"}
    state = table.state
    assert state.is_terminal
    assert state.last_deal is not None
    # the game-over screen: winners and losers by name, the deal's points
    page.wait_for_selector("#gameover", state="visible")
    text = page.inner_text("#gameover-text")
    assert text.startswith("Winners: ")
    assert "Losers: " in text
    points = [int(x) for x in page.locator("#summary tr td:nth-child(3)").all_inner_texts()]
    assert points == list(state.last_deal.points)
    history = page.locator("#scores tr").nth(1).locator("td").all_inner_texts()
    assert history == ["1"] + [
        f"{score} ({'+' if point > 0 else ''}{point})"
        for score, point in zip(state.scores, state.last_deal.points, strict=True)
    ]
    shot(page, "game-over")
    record = page.request.get(base + "/record")
    assert record.status == 200
    assert replay(load_record(record.text())) == state
    assert page.locator("#gameover a[download]").get_attribute("href") == "/record"
    # the review of the person's decisions (the search bot judges a handful: about a second)
    page.click("#review-button")
    page.wait_for_selector("#review p", timeout=60_000)
    assert " judged, average loss " in page.inner_text("#review p")
    for row in page.locator("#review tr").all()[1:]:  # each labelled decision, in words
        cells = row.locator("td").all_inner_texts()
        assert cells[1].startswith(("Hand ", "no cards yet")), cells
        assert cells[2].startswith(
            ("kept your hand", "exchanged", "folded", "played", "took", "left")
        )
    # the host starts a new game (R5: a winner deals)
    page.click("#again")
    page.wait_for_function("document.body.dataset.gameOver === 'false'")
    assert page.inner_text("#status").startswith("Game 2 · Deal 1")
    phone = browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True)
    phone.goto(page.url)
    phone.wait_for_selector("#board svg.card[data-card]")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "the page scrolls sideways on a phone"
    shot(phone, "phone")
    phone.close()
    page.close()
    assert errors == []
