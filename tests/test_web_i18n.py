"""The players' language: catalogs, the choice per request, translated pages and logs."""

from __future__ import annotations

import random
import re
import string
from importlib import resources
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from starlette.testclient import TestClient

from bohmisch_watten import DECK, Card, Exchange, IllegalActionError, Phase, PlayCard, Rules
from bohmisch_watten.web import Table
from bohmisch_watten.web._i18n import (
    COOKIE,
    LANGUAGES,
    card_name,
    choose_language,
    gettext,
    messages,
)
from bohmisch_watten.web._narrate import narrate
from bohmisch_watten.web.backends import open_storage
from bohmisch_watten.web.server import create_server

ASSETS = resources.files("bohmisch_watten.web").joinpath("assets")


@pytest.mark.parametrize(
    ("header", "asked", "cookie", "expected"),
    [
        ("de-DE,de;q=0.9,en;q=0.8", None, None, "de"),
        ("en-US,en;q=0.9,de;q=0.8", None, None, "en"),
        ("fr-FR,fr;q=0.9,de-AT;q=0.5", None, None, "de"),
        ("en;q=0.3, de;q=0.7", None, None, "de"),
        ("de;q=0, en", None, None, "en"),
        ("fr, *;q=0.1", None, None, "en"),
        ("de;q=zz, en;q=0.5", None, None, "en"),
        (None, None, None, "en"),
        ("", None, None, "en"),
        ("de", "en", None, "en"),
        ("en", None, "de", "de"),
        ("en", "DE", "en", "de"),
        ("de", "xx", "yy", "de"),
    ],
)
def test_the_language_of_a_request(
    header: str | None, asked: str | None, cookie: str | None, expected: str
) -> None:
    assert choose_language(header, asked=asked, cookie=cookie) == expected


def test_cards_as_the_players_say_them() -> None:
    assert card_name(Card.parse("HK"), "de") == "Maxi (Herz König)"
    assert card_name(Card.parse("S7"), "de") == "Belli (Schellen 7)"
    assert card_name(Card.parse("E7"), "de") == "Spitz (Eichel 7)"
    assert card_name(Card.parse("GA"), "de") == "Gras Sau"
    assert card_name(Card.parse("EO"), "de") == "Eichel Ober"
    assert card_name(Card.parse("SU"), "de") == "Schellen Unter"
    assert card_name(Card.parse("H10"), "de") == "Herz 10"
    assert card_name(Card.parse("HK"), "en") == "HK"
    assert card_name(Card.parse("S6"), "de") == "Schellen 6"  # the 36-card pack's Sixes
    assert card_name(Card.parse("G6"), "en") == "G6"


@pytest.mark.rule("R6", "R20")
def test_a_seven_seat_table_logs_and_refuses_in_german() -> None:
    """Every card of the 36-card pack has its German name in the log, and the refusal a
    person at seven seats meets (no card to draw, R20) has a German pattern."""
    table = Table(players=7, humans=7, seed=8, rules=Rules(pack=36), dealer=6)
    rng = random.Random(8)
    sixes, refused = 0, set()
    while table.state.deal_number <= 3 and not table.state.is_terminal:
        state, seat = table.state, table.state.current_player
        if seat is None:
            table.step()
            continue
        if state.phase is Phase.EXCHANGE and state.legal_actions()[0] == Exchange([]):
            with pytest.raises(IllegalActionError) as refusal:
                state.apply(Exchange([state.hands[seat][0]]), seat=seat)
            refused.add(str(refusal.value))
        table.act(seat, str(rng.choice(state.legal_actions())))
        newest = table.frame(seat)["logs"]["de"][-1]
        sixes += bool(re.search(r"\b(Eichel|Gras|Herz|Schellen) 6\b", newest))
    assert sixes  # a Six was named in German ("Eichel 6") on some seat's newest line
    assert refused
    assert all(m.startswith("R20: ") for m in refused)
    assert all(any(p.match(m) for p in _rule_patterns()) for m in refused)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_catalogs_agree() -> None:
    german, english = messages("de"), messages("en")
    po = Path(str(resources.files("bohmisch_watten.web").joinpath("locale")))
    ids = {}
    for lang in LANGUAGES:
        with (po / lang / "LC_MESSAGES" / "web.po").open("rb") as handle:
            ids[lang] = {m.id for m in read_po(handle) if m.id}
    assert ids["de"] == ids["en"]  # one set of ids, English being the ids themselves
    assert not english
    assert len(german) == len(ids["de"]) > 50  # every id has its German text
    for message, text in german.items():
        assert _fields(text) == _fields(message), message
    with pytest.raises(ValueError, match="lang"):
        messages("fr")
    assert gettext("de", "not in any catalog {x}", x=1) == "not in any catalog 1"


def test_every_text_of_the_pages_is_in_the_catalog() -> None:
    german = messages("de")
    marked: set[str] = set()
    for name in ("lobby.html", "page.html"):
        marked |= set(re.findall(r"\[\[(.+?)\]\]", ASSETS.joinpath(name).read_text("utf-8")))
    for name in ("lobby.html", "table.js"):
        script = ASSETS.joinpath(name).read_text("utf-8")
        marked |= set(re.findall(r'\btr\("([^"]+)"', script))
        marked |= set(re.findall(r'\bbutton\("([^"]+)"', script))
    assert len(marked) > 40
    assert sorted(marked - set(german)) == []


def _play_until_card(seed: int) -> Table:
    rng = random.Random(seed)
    table = Table(players=4, humans=4, seed=seed)
    while not any(isinstance(a, PlayCard) for a in table.state.legal_actions()):
        if table.needs_auto:
            table.step()
        else:
            seat = table.state.current_player
            assert seat is not None
            table.act(seat, str(rng.choice(table.state.legal_actions())))
    return table


def test_a_log_line_in_german_and_english() -> None:
    table = _play_until_card(3)
    before = table.state
    seat = before.current_player
    assert seat is not None
    action = next(a for a in before.legal_actions() if isinstance(a, PlayCard))
    after = before.apply(action, seat=seat)
    other = (seat + 1) % 4
    names = table.names_for(other)
    german = card_name(action.card, "de")
    assert narrate(before, seat, action, after, seat, table.names_for(seat), lang="de")[0] == (
        f"Du spielst {german}."
    )
    assert narrate(before, seat, action, after, other, names, lang="de")[0] == (
        f"{names[seat]} spielt {german}."
    )
    assert narrate(before, seat, action, after, other, names)[0] == (
        f"{names[seat]} plays {action.card}."
    )


def test_every_log_is_kept_in_both_languages() -> None:
    table = _play_until_card(5)
    table.hand_to_bot(1, "random")
    table.hand_back(1)
    for frame in (table.frame(0), table.public_frame()):
        english, german = frame["log"], frame["logs"]["de"]
        assert len(english) == len(german) > 3
        assert all(e != g for e, g in zip(english, german, strict=True))
    assert any(line.startswith("Trumpfkarte ") for line in table.frame(0)["logs"]["de"])
    assert table.frame(0)["logs"]["de"][-1] == f"{table.seats[1].name} ist zurück."


def test_pages_in_the_language_asked_for(tmp_path: Path) -> None:
    app = create_server(open_storage(str(tmp_path / "t.db")), delay=0, allowed_hosts=["testserver"])
    with TestClient(app) as client:
        german = client.get("/", headers={"Accept-Language": "de-AT,de;q=0.9"})
        assert '<html lang="de">' in german.text
        assert "<h2>Offene Tische</h2>" in german.text
        assert "<h2>Open tables" not in german.text
        assert "Accept-Language" in german.headers["vary"]
        assert COOKIE not in german.cookies
        english = client.get("/", headers={"Accept-Language": "en"})
        assert "Open tables" in english.text
        assert '<html lang="en">' in english.text
        switched = client.get("/?lang=de", headers={"Accept-Language": "en"})
        assert "Offene Tische" in switched.text
        assert switched.cookies[COOKIE] == "de"
        remembered = client.get("/", headers={"Accept-Language": "en"})  # the cookie wins
        assert "Offene Tische" in remembered.text
        made = client.post("/api/tables", json={"players": 2, "humans": 1}).json()
        page = client.get(made["seats"][0]["url"])
        assert "Deine Karten" in page.text
        assert 'const LANG = "de"' in page.text
        assert 'data-lang="de" hreflang="de" aria-current="true"' in page.text
        watch = client.get(made["watch"] + "?lang=en")
        assert "Your hand" in watch.text
        assert 'const LANG = "en"' in watch.text
        assert client.get("/?lang=xx").cookies.get(COOKIE) is None


def _rule_patterns() -> list[re.Pattern[str]]:
    """The catalog's rule messages as the page's script reads them: a field is any text."""
    ids = [i for i in messages("de") if re.match(r"R\d|\{rule\}", i)]
    return [re.compile(re.sub(r"\\\{(\w+)\\\}", "(.+?)", re.escape(i)) + "$") for i in ids]


def test_the_rule_messages_a_person_meets_have_a_german_pattern() -> None:
    patterns = _rule_patterns()
    rng = random.Random(11)
    seen: set[str] = set()
    for seed in range(3):
        table = Table(players=4, humans=4, seed=seed)
        for _ in range(120):  # a few deals
            if table.state.is_terminal:
                break
            state, seat = table.state, table.state.current_player
            if seat is None:
                table.step()
                continue
            legal = state.legal_actions()
            if state.phase is Phase.PLAY:
                for card in DECK:
                    for who in (seat, (seat + 1) % state.num_players):
                        if who == seat and PlayCard(card) in legal:
                            continue
                        with pytest.raises(IllegalActionError) as refusal:
                            state.apply(PlayCard(card), seat=who)
                        message = str(refusal.value)
                        seen.add(message.partition(":")[0])
                        assert any(p.match(message) for p in patterns), message
            table.act(seat, str(rng.choice(legal)))
    assert {"R24", "R25.1", "R25.2"} <= seen, seen
