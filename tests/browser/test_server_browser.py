"""The game server in a real browser: a table created in the lobby, played by clicking,
across a reload and across a ``kill -9`` and restart of the server, watched by a
spectator whose frames carry no card hidden from every seat."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page
from test_browser import shot

from bohmisch_watten import load_record, replay

from knowledge import cards_in, known_cards

SRC = Path(__file__).resolve().parents[2] / "src"


@contextmanager
def server(db: str, port: int) -> Iterator[subprocess.Popen[bytes]]:
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    command = [sys.executable, "-m", "bohmisch_watten", "serve", "--db", db]
    process = subprocess.Popen(
        [*command, "--port", str(port), "--delay", "0.05"], env=env, stdout=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 30
    while True:
        assert process.poll() is None, "the server exited"
        assert time.monotonic() < deadline, "the server did not start"
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=2):
                break
        except OSError:
            time.sleep(0.1)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(10)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def one_move(page: Page) -> bool:
    """Wait for this seat's turn and make a move by clicking; False once the game is over."""
    page.wait_for_function(
        "document.body.dataset.turn === 'you' || document.body.dataset.gameOver === 'true'",
        timeout=30_000,
    )
    if page.evaluate("document.body.dataset.gameOver") == "true":
        return False
    controls = ('[data-action="take"]', '[data-action="exchange"]', '#hand [data-legal="true"]')
    for selector in controls:
        target = page.locator(selector)
        if target.count():
            handle = target.first.element_handle()
            assert handle is not None
            handle.click()
            page.wait_for_function("el => !el.isConnected", arg=handle, timeout=30_000)
            return True
    raise AssertionError("no control to click on this seat's turn")


def test_lobby_play_reload_crash_and_watch(browser: Browser, tmp_path: Path) -> None:
    db, port = str(tmp_path / "tables.sqlite"), free_port()
    base = f"http://127.0.0.1:{port}"
    spectator_frames: list[str] = []
    with server(db, port) as first:
        page = browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(base + "/")
        assert page.locator("#empty").is_visible()
        page.select_option("#players", "2")
        page.locator("select.bot").first.select_option("random")
        page.fill("#rules", "start_score=6")
        page.fill("#name", "Anna")
        page.click("#submit")
        page.wait_for_selector("#links a[data-seat='0']")
        page.wait_for_selector("#tables tbody tr[data-table]")
        shot(page, "server-lobby")
        page.click("#links a[data-seat='0']")
        page.wait_for_url("**/play/**")
        seat_url = page.url
        page.wait_for_selector("#hand svg.card[data-card]")
        table = json.load(urllib.request.urlopen(base + "/api/tables"))["tables"][0]["table"]
        watcher = browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
        watcher.on(
            "websocket",
            lambda ws: ws.on("framereceived", lambda data: spectator_frames.append(str(data))),
        )
        watcher.goto(f"{base}/watch/{table}")
        watcher.wait_for_selector("#opponents .seat")
        assert watcher.locator("#hand svg.card").count() == 0
        assert watcher.locator(".seat").count() == 2  # every seat is "another" seat
        for _ in range(3):
            assert one_move(page)
        page.reload()  # a closed tab: the link puts the person back in the seat
        page.wait_for_selector("#hand svg.card[data-card]")
        assert one_move(page)
        shot(watcher, "server-spectator")
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        page.wait_for_function(
            "document.getElementById('status').textContent.startsWith('Connection lost')"
        )
    with server(db, port):  # the same database and port: the page reconnects by itself
        moves = 0
        while one_move(page):
            moves += 1
            assert moves < 200
        assert page.url == seat_url
        page.wait_for_selector("#gameover", state="visible")
        href = page.locator("#gameover a[download]").get_attribute("href")
        assert href == f"/api/tables/{table}/record"
        record = page.request.get(base + href)
        assert record.status == 200
        final = replay(load_record(record.text()))
        assert final.is_terminal
        watcher.wait_for_function("document.body.dataset.gameOver === 'true'", timeout=30_000)
        shot(page, "server-game-over")
        assert errors == []
    public = set.intersection(*(known_cards(final, seat) for seat in range(2)))
    assert spectator_frames
    for frame in spectator_frames:
        assert cards_in(frame) <= public  # nothing hidden from every seat, ever
