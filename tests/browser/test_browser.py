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
from playwright.sync_api import Browser, Page, sync_playwright

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
    """A table (one person, three bots) served by uvicorn on a free loopback port."""
    table = Table(players=4, humans=1, seed=7)
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


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM.exists(), f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does)"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=ARGS
        )
        yield chromium
        chromium.close()


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def wait_for_turn_or_deal(page: Page, deal: int) -> None:
    page.wait_for_function(
        "d => document.body.dataset.turn === 'you' || Number(document.body.dataset.deal) >= d",
        arg=deal,
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
    tried_illegal = shots = False
    for _ in range(200):
        wait_for_turn_or_deal(page, 2)
        if page.evaluate("Number(document.body.dataset.deal)") >= 2:
            break
        # every card face on the page carries its notation
        assert page.locator("svg.card:not(.back):not([data-card])").count() == 0
        if page.locator('[data-action="take"]').count():
            shot(page, "cut-ritual")
            click_and_wait(page, '[data-action="take"]')
        elif page.locator('[data-action="exchange"]').count():
            assert page.locator('#hand [data-legal="true"]').count() == 5
            click_and_wait(page, "#hand [data-card]")  # select one card
            assert page.locator("#hand svg.card.selected").count() == 1
            shot(page, "exchange")
            click_and_wait(page, '[data-action="exchange"]')
        else:
            assert page.evaluate("document.body.dataset.phase") == "play"
            illegal = page.locator('#hand svg.card:not([data-legal="true"])')
            if not tried_illegal and illegal.count():
                illegal.first.click()
                page.wait_for_selector("#error", state="visible")
                assert page.inner_text("#error").startswith("R25")
                shot(page, "illegal-card")
                tried_illegal = True
            if not shots and page.locator("#trick .played").count():
                shot(page, "trick")
                shots = True
            click_and_wait(page, '#hand [data-legal="true"]')
    else:
        pytest.fail("the deal did not end")
    assert table.state.deal_number >= 2
    assert table.state.last_deal is not None
    page.wait_for_selector("#summary table")
    points = [int(x) for x in page.locator("#summary tr td:nth-child(3)").all_inner_texts()]
    assert points == list(table.state.last_deal.points)
    shot(page, "deal-summary")
    wait_for_turn_or_deal(page, 99)
    page.click("#hint")
    page.wait_for_function("document.getElementById('hintbox').textContent.startsWith('Hint: ')")
    shot(page, "hint")
    phone = browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True)
    phone.goto(page.url)
    phone.wait_for_selector("#board svg.card[data-card]")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "the page scrolls sideways on a phone"
    shot(phone, "phone")
    phone.close()
    page.close()
    assert errors == []
