"""The lobby and the table page pass an automated accessibility audit, and the lobby
works by keyboard alone.

The audit is axe-core (npm, the exact version of ``package.json``/``package-lock.json``
in this folder; ``make browser`` runs ``npm ci`` here), injected by Playwright into
Debian's Chromium: the lobby (empty, with the suggestion and its warning at a big table,
with the links of a new table) and the table page (every turn of the person's, and the
game-over panel), in English and German, on a phone and a desktop.  A serious or
critical violation fails the test with axe's own words and the elements it names.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from playwright.sync_api import Browser, Page
from test_browser import shot
from test_server_browser import one_move

from bohmisch_watten import Rules, Schleck, suggested_rules
from bohmisch_watten.web.backends import open_storage
from bohmisch_watten.web.server import GameServer, create_server
from threaded_server import running

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
LOCALES = {"en": "en-GB", "de": "de-DE"}
BLOCKING = ("serious", "critical")


@pytest.fixture(scope="module")
def axe() -> Path:
    assert AXE.exists(), (
        f"{AXE} is missing: npm ci --prefix tests/browser (make browser does; needs npm)"
    )
    return AXE


@pytest.fixture(scope="module")
def game_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, GameServer]]:
    """The game server of ``serve`` on a loopback port, in this process (the tests read
    the tables the lobby created)."""
    db = tmp_path_factory.mktemp("a11y") / "tables.sqlite"
    app = create_server(open_storage(str(db)))
    with running(app) as port:
        yield f"http://127.0.0.1:{port}", app.state.server


def audit(page: Page, axe: Path, where: str) -> None:
    """axe-core on the page as it is now: no serious or critical violation."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(axe))
    violations: list[dict[str, Any]] = page.evaluate(
        """() => axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations.map(v => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => n.target.join(" ") + ": " + n.failureSummary)})))"""
    )
    blocking = [v for v in violations if v["impact"] in BLOCKING]
    assert blocking == [], f"{where}: " + json.dumps(blocking, indent=1, ensure_ascii=False)


def table_of(server: GameServer, href: str) -> Any:
    """The table whose seat link is ``href`` (``/play/<token>``)."""
    token = href.rsplit("/", 1)[1]
    (table,) = [
        hub.table for hub in server.hubs.values() if any(s.token == token for s in hub.table.seats)
    ]
    return table


@pytest.mark.rule("R1", "R33")
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("lang", list(LOCALES))
def test_axe_finds_nothing_serious_on_the_lobby_and_the_table(
    browser: Browser, axe: Path, game_server: tuple[str, GameServer], lang: str, viewport: str
) -> None:
    base, server = game_server
    context = browser.new_context(
        locale=LOCALES[lang], viewport=VIEWPORTS[viewport], bypass_csp=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base + "/")
    assert page.locator("html").get_attribute("lang") == lang
    audit(page, axe, f"the lobby ({lang}, {viewport})")
    # seven seats: the suggestion is chosen (RULES.md §9.3); turned off, the lobby warns
    page.select_option("#pack", "36")
    page.select_option("#players", "7")
    assert page.is_checked("#rule-plus_fifty")
    assert page.locator("[data-variant='plus_fifty'] .chip.suggested").is_visible()
    page.uncheck("#rule-plus_fifty")
    assert page.locator("#warning").is_visible()
    audit(page, axe, f"the lobby's warning ({lang}, {viewport})")
    shot(page, f"a11y-lobby-warning-{lang}-{viewport}")
    page.click("#suggest")
    assert page.is_checked("#rule-plus_fifty")
    assert page.inner_text("#warning") == ""
    for bot in page.locator("select.bot").all():
        bot.select_option("random")
    page.fill("#rule-start_score", "1")  # one deal ends the game (R28, R31)
    page.fill("#delay", "0")
    page.click("#submit")
    seat = page.locator("#links a[data-seat='0']")
    seat.wait_for()
    page.wait_for_selector("#tables tbody tr[data-table]")
    audit(page, axe, f"the lobby with a new table's links ({lang}, {viewport})")
    shot(page, f"a11y-lobby-{lang}-{viewport}")
    href = seat.get_attribute("href")
    assert href is not None
    assert table_of(server, href).rules == Rules(pack=36, plus_fifty=True, start_score=1)
    seat.click()
    page.wait_for_url("**/play/**")
    page.wait_for_selector("#hand svg.card[data-card]")
    turns = 0
    while True:
        page.wait_for_function(
            "document.body.dataset.turn === 'you' || document.body.dataset.gameOver === 'true'",
            timeout=30_000,
        )
        if page.evaluate("document.body.dataset.gameOver") == "true":
            break
        audit(page, axe, f"the table, turn {turns} ({lang}, {viewport})")
        if turns == 1:
            shot(page, f"a11y-table-{lang}-{viewport}")
        assert one_move(page)
        turns += 1
        assert turns < 40, "the game did not end"
    assert turns >= 2  # the exchange and a card at least
    page.wait_for_selector("#gameover", state="visible")
    assert page.evaluate("document.activeElement.closest('#gameover [role=dialog]') !== null")
    audit(page, axe, f"the game-over panel ({lang}, {viewport})")
    page.click("#review-button")  # the person's decisions judged by the search bot
    page.wait_for_selector("#review p", timeout=60_000)
    audit(page, axe, f"the review ({lang}, {viewport})")
    # every look of a judged decision, whichever this game happened to have: the page's
    # own renderReview with the person's first decision labelled each way, one at a time
    # (a row scrolled out of the review's view is not judged)
    for label in ("inaccuracy", "mistake", "blunder"):
        page.evaluate(
            """async (label) => {
                const data = await (await fetch("/api/tables/" + TABLE + "/review")).json();
                const first = data.decisions.find((d) => d.seat === frame.seat);
                data.decisions = [{...first, label}];
                renderReview(data);
            }""",
            label,
        )
        assert page.locator(f"#review tr.{label}").count() == 1
        audit(page, axe, f"the review of a {label} ({lang}, {viewport})")
    shot(page, f"a11y-game-over-{lang}-{viewport}")
    context.close()
    assert errors == []


def focused(page: Page) -> dict[str, Any]:
    """The element the keyboard is on: its id, tag, seat link, and its focus ring."""
    found: dict[str, Any] = page.evaluate(
        """() => { const e = document.activeElement, s = getComputedStyle(e);
            return {id: e.id, tag: e.tagName.toLowerCase(), seat: e.dataset.seat ?? null,
                    card: e.dataset.card ?? null, action: e.dataset.action ?? null,
                    outline: s.outlineStyle, width: parseFloat(s.outlineWidth)}; }"""
    )
    return found


def tab_to(page: Page, wanted: str, *, most: int = 40) -> list[str]:
    """Press Tab until the element with id ``wanted`` has the focus; every stop on the way
    shows a focus ring of 2 px or more.  The ids passed, in order."""
    passed: list[str] = []
    for _ in range(most):
        page.keyboard.press("Tab")
        now = focused(page)
        assert now["outline"] not in ("none", ""), now
        assert now["width"] >= 2, now
        passed.append(now["id"] or now["tag"])
        if now["id"] == wanted:
            return passed
    raise AssertionError(f"Tab never reached #{wanted}: {passed}")


@pytest.mark.rule("R14", "R26", "R28")
def test_the_lobby_by_keyboard_alone(browser: Browser, game_server: tuple[str, GameServer]) -> None:
    """Tab through the lobby in the order it reads, choose with the keys, create the
    table with Enter, follow the seat link with Enter and make a move with Enter."""
    base, server = game_server
    page = browser.new_page(viewport=VIEWPORTS["desktop"], bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base + "/")
    page.wait_for_function("document.querySelectorAll('select.bot').length === 3")
    order = tab_to(page, "pack")
    assert order[:2] == ["a", "a"]  # the language switch first (then any open table's link)
    page.keyboard.press("Tab")
    assert focused(page)["id"] == "players"
    page.keyboard.press("ArrowUp")  # four players by default: three
    page.keyboard.press("ArrowUp")
    assert page.input_value("#players") == "2"
    assert page.locator("select.bot").count() == 1
    assert tab_to(page, "bot-0") == ["humans", "bot-0"]
    page.keyboard.type("r")  # a select chooses the option its typed letter starts
    assert page.input_value("#bot-0") == "random"
    page.keyboard.press("Tab")
    page.keyboard.type("Anna")
    page.keyboard.press("Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("0")
    assert tab_to(page, "rule-schleck") == ["suggest", "rule-schleck"]
    page.keyboard.type("n")
    assert page.input_value("#rule-schleck") == "none"
    assert tab_to(page, "rule-must_head") == ["rule-dealer_stock_limit", "rule-must_head"]
    page.keyboard.press("Space")
    assert not page.is_checked("#rule-must_head")
    assert tab_to(page, "rule-start_score") == [
        "rule-overshoot",
        "rule-plus_fifty",
        "rule-start_score",
    ]
    page.keyboard.press("Control+A")
    page.keyboard.type("1")
    assert tab_to(page, "rules") == ["rule-hearts_double", "rule-min_fold_score", "rules"]
    # the advanced field shows the choices in the rules notation, as str(Rules) writes it
    chosen = Rules(schleck=Schleck.NONE, must_head=False, start_score=1)
    assert page.input_value("#rules") == str(chosen)
    assert tab_to(page, "submit") == ["submit"]
    page.keyboard.press("Enter")
    page.wait_for_selector("#links a[data-seat='0']")
    assert focused(page)["id"] == "links-intro"  # the keyboard is where the links are
    page.keyboard.press("Tab")
    link = focused(page)
    assert link["tag"] == "a", link
    assert link["seat"] == "0", link
    href = page.locator("#links a[data-seat='0']").get_attribute("href")
    assert href is not None
    table = table_of(server, href)
    assert table.rules == chosen
    assert table.seats[0].display == "Anna"
    page.keyboard.press("Enter")
    page.wait_for_url("**" + href)
    page.wait_for_function("document.body.dataset.turn === 'you'", timeout=30_000)
    mine = sum(seat == 0 for seat, _ in table.state.history)  # the person's moves so far
    for _ in range(60):  # Tab to the first control of the move: a legal card or a button
        page.keyboard.press("Tab")
        now = focused(page)
        assert now["outline"] not in ("none", ""), now
        assert now["width"] >= 2, now
        if now["action"] in ("exchange", "take") or now["card"]:
            break
    else:
        raise AssertionError("Tab never reached a control of the move")
    control = page.evaluate_handle("document.activeElement")
    page.keyboard.press("Enter" if now["action"] else "Space")  # a button, or a card
    page.wait_for_function("el => !el.isConnected", arg=control, timeout=30_000)
    assert sum(seat == 0 for seat, _ in table.state.history) == mine + 1
    page.close()
    assert errors == []


def test_the_lobby_suggests_the_rules_for_each_table_size(
    browser: Browser, game_server: tuple[str, GameServer]
) -> None:
    """Every table size starts at ``suggested_rules`` (RULES.md §9.3); a choice the person
    made stays when the size changes; typed rules set the choices; the button brings the
    suggestion back."""
    base, _ = game_server
    page = browser.new_page(viewport=VIEWPORTS["desktop"], bypass_csp=True)
    page.goto(base + "/")
    for pack in (32, 36):
        page.select_option("#pack", str(pack))
        for players in range(2, Rules(pack=pack).max_players + 1):
            page.select_option("#players", str(players))
            rules = suggested_rules(players, pack)
            assert page.is_checked("#rule-plus_fifty") == rules.plus_fifty, (pack, players)
            assert page.input_value("#rules") == str(attrs.evolve(rules, pack=32))  # own choice
            assert page.inner_text("#warning") == ""
    page.select_option("#players", "7")
    page.select_option("#rule-overshoot", "added_back")
    page.select_option("#players", "3")  # the person's choice stays; the suggestion changes
    assert page.input_value("#rule-overshoot") == "added_back"
    assert not page.is_checked("#rule-plus_fifty")
    page.select_option("#players", "6")
    assert page.is_checked("#rule-plus_fifty")
    assert page.input_value("#rules") == "overshoot=added_back,plus_fifty=true"
    page.fill("#rules", "Hearts_Double = false, min_fold_score=-3")
    assert not page.is_checked("#rule-hearts_double")
    assert page.input_value("#rule-min_fold_score") == "-3"
    assert page.input_value("#rule-overshoot") == "wins"  # the text is the whole rules
    assert not page.is_checked("#rule-plus_fifty")
    assert "“Reaching 50 also wins”" in page.inner_text("#warning")
    page.select_option("#players", "7")  # typed rules stay as typed
    assert page.input_value("#rules") == "Hearts_Double = false, min_fold_score=-3"
    page.click("#suggest")
    assert page.input_value("#rules") == "plus_fifty=true"
    assert page.is_checked("#rule-hearts_double")
    page.close()
