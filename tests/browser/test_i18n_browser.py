"""The lobby and a table in a real browser, in German and in English: the language the
browser asks for (``Accept-Language``), the DE | EN switch, and the cookie remembering it."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page
from test_server_browser import free_port, server


def create_table(page: Page, base: str) -> str:
    """Create a table of two (one person, one random bot) in the lobby; its seat link."""
    page.goto(base + "/")
    page.select_option("#players", "2")
    page.locator("select.bot").first.select_option("random")
    page.click("#submit")
    link = page.locator("#links a[data-seat='0']")
    link.wait_for()
    href = link.get_attribute("href")
    assert href is not None
    return href


def wait_for_log(page: Page, start: str) -> None:
    page.wait_for_function(
        "start => Array.from(document.querySelectorAll('#log li'))"
        ".some((li) => li.textContent.startsWith(start))",
        arg=start,
    )


def test_lobby_and_table_in_german_and_english(browser: Browser, tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with server(str(tmp_path / "tables.sqlite"), port):
        german = browser.new_context(locale="de-DE", bypass_csp=True)
        page = german.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        seat = create_table(page, base)
        assert page.locator("html").get_attribute("lang") == "de"
        assert page.inner_text("#lobby h2 >> nth=0") == "Offene Tische"
        assert page.inner_text("#submit") == "Tisch anlegen"
        page.wait_for_selector("#tables tbody tr[data-table]")
        assert page.inner_text("#tables tbody tr a") == "Zuschauen"
        assert "Schick jedem Menschen seinen eigenen Link" in page.inner_text("#links")

        page.goto(base + seat)
        page.wait_for_function("document.body.dataset.phase !== ''")
        wait_for_log(page, "Runde 1: ")
        assert page.inner_text("#status").startswith("Spiel 1 · Runde 1")
        assert page.inner_text("#handlabel").startswith("Deine Karten")
        assert page.inner_text("aside h2 >> nth=2") == "Tischprotokoll"
        assert "Deal 1:" not in page.inner_text("#log")
        page.evaluate(
            "showError(\"R24: it is seat 1's turn, not seat 0's\")"
        )  # as the server says it
        assert page.inner_text("#error") == "R24: Platz 1 ist dran, nicht Platz 0"
        assert page.evaluate("actionText('play HK')") == "spiel Herz König"
        assert page.evaluate("actionText('exchange E7 GU +trump')") == (
            "tausch Eichel 7 Gras Unter + Trumpfkarte"
        )
        follow = page.evaluate("trRule('R25.1: must follow Bells with SA or S9')")
        assert (
            follow
            == "R25.1: Farbe bedienen: du musst Schellen zugeben, mit Schellen Sau oder Schellen 9"
        )

        page.click("a[data-lang='en']")  # the switch, remembered for the next pages
        page.wait_for_function("document.body.dataset.phase !== ''")
        wait_for_log(page, "Deal 1: ")
        assert page.locator("html").get_attribute("lang") == "en"
        assert page.inner_text("#status").startswith("Game 1 · Deal 1")
        assert page.inner_text("#handlabel").startswith("Your hand")
        assert "Runde 1:" not in page.inner_text("#log")
        page.goto(base + "/")
        assert page.inner_text("#lobby h2 >> nth=0") == "Open tables"
        german.close()

        english = browser.new_context(locale="en-GB", bypass_csp=True)
        page = english.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(base + "/")
        assert page.inner_text("#submit") == "Create the table"
        page.goto(base + seat)
        wait_for_log(page, "Deal 1: ")
        assert page.inner_text("aside h2 >> nth=2") == "Table log"
        assert (
            page.evaluate("trRule('R25.2: must overtrump with HK')")
            == "R25.2: must overtrump with HK"
        )
        page.click("a[data-lang='de']")
        wait_for_log(page, "Runde 1: ")
        assert page.inner_text("#handlabel").startswith("Deine Karten")
        english.close()
        assert errors == []
