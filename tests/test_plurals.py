"""Counted nouns in the number they need (a newcomer met "4 games on 1 boards", "1 games
reached", "exchanges 0 card(s)")."""

from __future__ import annotations

import pytest

from bohmisch_watten import FormatError, GameRecord, Phase
from bohmisch_watten.errors import counted


def test_counted() -> None:
    assert [counted(n, "game") for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    assert counted(1, "match", "matches") == "1 match"
    assert counted(3, "match", "matches") == "3 matches"


def test_a_table_narrates_exchanges_of_none_one_and_two_cards_in_both_languages() -> None:
    pytest.importorskip("starlette")
    from bohmisch_watten.web.table import Table

    table = Table(players=4, humans=4, seed=3)
    while table.needs_auto:
        table.step()
    while table.state.phase is not Phase.EXCHANGE:
        table.act(table.state.current_player or 0, "take")
    seats = []
    for count in (0, 1, 2):
        seat = table.state.current_player
        assert seat is not None
        seats.append(seat)
        cards = " ".join(str(card) for card in table.state.hands[seat][:count])
        table.act(seat, f"exchange {cards}".strip())
    watcher = next(s for s in range(4) if s not in seats)
    frame = table.frame(watcher)
    english, german = frame["log"][-3:], frame["logs"]["de"][-3:]
    names = [table.seats[seat].name for seat in seats]
    assert english == [
        f"{names[0]} plays and exchanges no cards.",
        f"{names[1]} plays and exchanges 1 card.",
        f"{names[2]} plays and exchanges 2 cards.",
    ]
    assert german == [
        f"{names[0]} spielt und tauscht keine Karte.",
        f"{names[1]} spielt und tauscht 1 Karte.",
        f"{names[2]} spielt und tauscht 2 Karten.",
    ]


def test_loaders_count_what_is_missing() -> None:
    text = "format: bohmisch_watten.record\nversion: 1\nplayers: 4\nfirst_dealer: 0\n"
    with pytest.raises(FormatError, match=r"^record: missing header line: rules$"):
        GameRecord.from_text(text)
    with pytest.raises(FormatError, match=r"^record: missing header lines: first_dealer, rules$"):
        GameRecord.from_text(text.replace("first_dealer: 0\n", ""))
