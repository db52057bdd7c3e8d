"""The engine page says what the host really sends.

``docs/engine-protocol.md`` claims to be the whole specification: a bot author writes an
engine from it alone.  So a real host (:class:`~bohmisch_watten.engine.host.Engine`,
the way the arena drives it: ``new_game``, an ``event`` after every action, ``decide``)
plays games of two to seven seats, both packs and both protocol versions against small
engine processes that log every line they receive, and the page is checked against the
logs: the card order of both packs, every field of the view table with its type and
range, the ranks and the trick winner, the cut entry ``take`` refers to, what
``exchanged`` counts, where ``deal_over`` arrives, and how many cards an exchange names.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bohmisch_watten import Rules, new_game
from bohmisch_watten.arena import run_arena
from bohmisch_watten.cards import pack_cards
from bohmisch_watten.engine.host import Engine
from bohmisch_watten.events import describe
from engine_scripts import PYTHON, engine_script

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "engine-protocol.md").read_text(encoding="utf-8")
SCHEMA = json.loads(
    (ROOT / "src/bohmisch_watten/engine/schemas/protocol.schema.json").read_text("utf-8")
)

RECORDER = """
import json, random, sys
log, protocol = sys.argv[1], int(sys.argv[2])
rng = random.Random(log)
with open(log, "a", encoding="utf-8") as out:
    for line in sys.stdin:
        out.write(line)
        message = json.loads(line)
        if message["type"] == "hello":
            send({"type": "hello", "protocol": protocol, "name": "recorder"})
        elif message["type"] == "decide":
            send({"type": "action", "action": rng.choice(message["legal"])})
        elif message["type"] == "quit":
            break
"""
"""An engine that logs every line the host writes to it and answers at random."""

TABLES = [
    (players, pack, protocol)
    for protocol in (1, 2)
    for pack, sizes in ((32, (2, 3, 4)), (36, (2, 3, 4, 5, 6, 7)))
    for players in sizes
]
DEALS = 3


def _play(directory: Path, players: int, pack: int, protocol: int) -> list[list[dict[str, Any]]]:
    """``DEALS`` deals with an engine in every seat; each seat's messages, in order."""
    number = TABLES.index((players, pack, protocol))
    rules = Rules(pack=pack, dealer_stock_limit=(2, 3)[number % 2], start_score=30)
    logs = [directory / f"t{number}-seat{seat}.jsonl" for seat in range(players)]
    engines = [
        Engine([*engine_script(directory, RECORDER), str(log), str(protocol)], timeout_ms=20_000)
        for log in logs
    ]
    rng = random.Random(number)
    state = new_game(players, rules=rules, dealer=number % players)
    try:
        for seat, engine in enumerate(engines):
            engine.new_game(players, seat, rules, state.position, seed=number)
        while not state.is_terminal and state.deal_number <= DEALS:
            if state.is_chance_node:
                action = state.sample_chance(rng)
            else:
                seat = state.current_player
                assert seat is not None
                action = engines[seat].choose(state.view(seat), rng)
            after = state.apply(action)
            for seat, engine in enumerate(engines):
                engine.observe(describe(state, action, after, observer=seat))
            state = after
    finally:
        for engine in engines:
            engine.close()
    return [
        [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()] for log in logs
    ]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[int, int, int], list[Any]]:
    """Every table's messages per seat: {(players, pack, protocol): [[message, …], …]}."""
    directory = tmp_path_factory.mktemp("engine_page")
    assert PYTHON
    return {table: _play(directory, *table) for table in TABLES}


def _decides(played: dict[tuple[int, int, int], list[Any]]) -> list[dict[str, Any]]:
    """Every ``decide`` the engines received, with the table's pack and protocol."""
    return [
        dict(message, pack=pack, protocol=protocol)
        for (_, pack, protocol), seats in played.items()
        for messages in seats
        for message in messages
        if message["type"] == "decide"
    ]


# ----------------------------------------------------------------- the card order

ORDER = re.search(r"<!-- card order: begin -->\n`([^`]+)`\n<!-- card order: end -->", PAGE)
CARD = re.compile(r"\b[EGHS](?:10|[AKOU9876])\b")


def _page_order() -> list[str]:
    assert ORDER is not None, "the page spells out the card order between its markers"
    return ORDER.group(1).split()


def _in_order(cards: list[str]) -> bool:
    index = {card: place for place, card in enumerate(_page_order())}
    return [index[card] for card in cards] == sorted(index[card] for card in cards)


def test_the_page_order_is_the_order_of_both_packs() -> None:
    order = _page_order()
    assert order == [str(card) for card in pack_cards(36)]
    assert order[:32] == [str(card) for card in pack_cards(32)]
    assert order[-4:] == ["E6", "G6", "H6", "S6"]  # after SA, not before the Sevens


def test_the_host_writes_cards_in_the_page_order(played: dict[Any, Any]) -> None:
    sixes_with_others = 0
    seen: dict[int, set[str]] = {32: set(), 36: set()}
    for decide in _decides(played):
        view = decide["view"]
        assert _in_order(view["hand"]), view["hand"]
        assert _in_order(view["discards"]), view["discards"]
        for text in decide["legal"]:
            cards = CARD.findall(text)
            assert _in_order(cards), text
            if any(c.endswith("6") for c in cards) and not all(c.endswith("6") for c in cards):
                sixes_with_others += 1
        seen[decide["pack"]] |= set(view["hand"]) | set(CARD.findall(" ".join(decide["legal"])))
    assert sixes_with_others > 0  # the case a wrong order gets wrong was played
    assert seen[32] == set(_page_order()[:32])
    assert seen[36] == set(_page_order())


# ----------------------------------------------------------------- the view table


def _view_rows() -> list[tuple[list[str], bool, str, str, str]]:
    """(field names, protocol 1 only, type, meaning, null when) of each row of the view
    table."""
    section = PAGE[PAGE.index("## The view") : PAGE.index("## Time")]
    rows = []
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        names = re.findall(r"`(\w+)`", cells[0])
        rows.append((names, "(protocol 1)" in cells[0], cells[1], cells[2], cells[3]))
    return rows


def _is_card(value: object, pack: int) -> bool:
    return isinstance(value, str) and value in _page_order()[:pack]


def _checker(kind: str, players: int, pack: int) -> Callable[[Any], bool]:
    """What the type column promises, as a predicate on a value of a ``players`` view."""
    seat = range(players)
    per_seat = {
        "int per seat": lambda v: type(v) is int,
        "bool per seat": lambda v: type(v) is bool,
        "int or null per seat": lambda v: v is None or (type(v) is int and v >= 0),
    }
    if kind in per_seat:
        item = per_seat[kind]
        return lambda v: isinstance(v, list) and len(v) == players and all(map(item, v))
    if match := re.fullmatch(r"int, (\d+)–(\d+)", kind):
        low, high = int(match.group(1)), int(match.group(2))
        return lambda v: type(v) is int and low <= v <= high
    if match := re.fullmatch(r"int ≥ (\d+)", kind):
        return lambda v: type(v) is int and v >= int(match.group(1))
    if kind.startswith("cards"):
        return lambda v: isinstance(v, list) and all(_is_card(c, pack) for c in v)
    if kind == "card":
        return lambda v: _is_card(v, pack)
    if values := re.findall(r"`(\w+)`", kind):  # `cut`, `exchange` or `play`
        return lambda v: v in values
    simple: dict[str, Callable[[Any], bool]] = {
        "int, a seat": lambda v: type(v) is int and v in seat,
        "bool": lambda v: type(v) is bool,
        "string": lambda v: isinstance(v, str),
        "object": lambda v: isinstance(v, dict),
        "lists of seats": lambda v: isinstance(v, list) and all(s in seat for s in v),
        "list of strings": lambda v: isinstance(v, list) and all(isinstance(s, str) for s in v),
        "list of deals": lambda v: isinstance(v, list) and all(isinstance(d, dict) for d in v),
    }
    if kind in simple:
        return simple[kind]
    if kind.startswith("list of"):  # list of `{"seat", "card"}` and the like
        keys = set(re.findall(r'"(\w+)"', kind)) or set(re.findall(r"\b(plays|winner)\b", kind))
        return lambda v: isinstance(v, list) and all(keys <= set(entry) for entry in v)
    raise AssertionError(f"the view table's type {kind!r} is not one the check knows")


def test_every_view_field_is_on_the_page_with_its_type_and_range(played: dict[Any, Any]) -> None:
    rows = _view_rows()
    everywhere = {name for names, p1, *_ in rows if not p1 for name in names}
    protocol_1 = {name for names, p1, *_ in rows if p1 for name in names}
    players_seen = set()
    for decide in _decides(played):
        view = decide["view"]
        expected = everywhere | (protocol_1 if decide["protocol"] == 1 else set())
        assert set(view) == expected, (decide["protocol"], set(view) ^ expected)
        players = view["num_players"]
        players_seen.add(players)
        for names, _, kind, _, null in rows:
            check = _checker(kind, players, decide["pack"])
            for name in names:
                if name not in view:
                    continue
                if view[name] is None:  # only where the "null when" column allows it
                    assert not null.startswith("never"), (name, null)
                else:
                    assert check(view[name]), (name, kind, view[name])
    low, high = map(int, re.findall(r"\d+", next(r[2] for r in rows if r[0] == ["num_players"])))
    assert players_seen == set(range(low, high + 1))  # the range is the one the host sends


def test_the_rules_row_names_every_rule_field_and_when_pack_is(played: dict[Any, Any]) -> None:
    meaning = next(row[3] for row in _view_rows() if row[0] == ["rules"])
    named = set(re.findall(r"`(\w+)`", meaning))
    for decide in _decides(played):
        rules = decide["view"]["rules"]
        assert set(rules) <= named, set(rules) - named
        assert ("pack" in rules) == (decide["pack"] == 36)
    assert "a 32-card view has no `pack` field" in meaning


def test_exchanged_counts_the_trump_card_the_dealer_takes(played: dict[Any, Any]) -> None:
    meaning = next(row[3] for row in _view_rows() if row[0] == ["exchanged"])
    assert "the trump card when the dealer took it" in meaning
    dealer_took = 0
    for decide in _decides(played):
        view = decide["view"]
        mine = view["exchanged"][view["player"]]
        if mine is None:
            continue
        assert mine == len(view["discards"])
        took = view["trump_card_taken"] and view["player"] == view["dealer"]
        assert mine == len(view["draws"]) + took
        dealer_took += took
    assert dealer_took > 0


def test_take_refers_to_the_last_cut_entry(played: dict[Any, Any]) -> None:
    assert "`take` and `leave` refer to the **last entry of `view.cut`**" in PAGE
    cuts = [decide for decide in _decides(played) if decide["view"]["phase"] == "cut"]
    assert cuts
    for decide in cuts:
        view = decide["view"]
        assert decide["legal"] == ["take", "leave"]
        look = view["cut"][-1]
        assert look["seat"] == view["player"]
        assert look["critical"]
        assert not look["taken"]
        assert look["card"] in ("HK", "S7", "E7")


# ----------------------------------------------------------- ranks and the trick

STRENGTH = ["A", "K", "O", "U", "10", "9", "8", "7", "6"]
CRITICALS = ["HK", "S7", "E7"]


def _page_winner(plays: list[dict[str, Any]], trump: str) -> int:
    """The winner of a trick by the page's words: the highest Critical, else the
    highest trump, else the highest card of the suit led."""

    def suit(card: str) -> str:
        return "trump" if card in CRITICALS or card[0] == trump else card[0]

    def rank(card: str) -> int:
        return -CRITICALS.index(card) + 100 if card in CRITICALS else -STRENGTH.index(card[1:])

    led = suit(plays[0]["card"])
    trumps = [p for p in plays if suit(p["card"]) == "trump"]
    contenders = trumps or [p for p in plays if suit(p["card"]) == led]
    return int(max(contenders, key=lambda p: rank(p["card"]))["seat"])


def test_the_page_gives_the_ranks_and_the_trick_winner() -> None:
    section = PAGE[PAGE.index("### Cards, ranks and the trick") : PAGE.index("## The view")]
    assert "`HK`\n  (Maxi) > `S7` (Belli) > `E7` (Spitz)" in section
    assert section.count("`A K O U\n  10 9 8 7 6`") + section.count("`A K O U 10 9 8 7 6`") == 2
    assert "the highest Critical in it; if there is none, to the highest\n  trump" in section
    assert "the highest card of the suit led" in section


def test_every_trick_the_host_reports_is_won_as_the_page_says(played: dict[Any, Any]) -> None:
    tricks = 0
    for seats in played.values():
        trump = None
        for message in seats[0]:
            for event in message.get("events", []):
                if event["type"] == "trump_card_turned":
                    trump = event["card"][0]
                elif event["type"] == "trick_won":
                    assert trump is not None
                    assert event["seat"] == _page_winner(event["plays"], trump), event
                    tricks += 1
    assert tricks > 100


# ---------------------------------------------------------- deal_over and exchanges


def test_deal_over_comes_after_the_next_deals_first_events(played: dict[Any, Any]) -> None:
    assert "after the next deal's first `event`" in PAGE
    checked = 0
    for (_, _, protocol), seats in played.items():
        for messages in seats:
            started = 0
            for message in messages:
                for event in message.get("events", []):
                    if event["type"] == "deal_started":
                        started = event["deal_number"]
                if message["type"] == "deal_over":
                    assert protocol == 2
                    assert started == message["deal"]["deal_number"] + 1
                    checked += 1
    assert checked > 0


def test_an_exchange_names_at_most_the_four_cards_page_and_schema_allow(
    played: dict[Any, Any],
) -> None:
    most = max(
        len(CARD.findall(text))
        for decide in _decides(played)
        for text in decide["legal"]
        if text.startswith("exchange")
    )
    assert most == 4
    assert "so at most four" in PAGE
    pattern = SCHEMA["$defs"]["action_text"]["pattern"]
    assert "{0,4}" in pattern
    assert re.fullmatch(pattern, "exchange E7 E8 E9 E10 +trump")
    assert not re.fullmatch(pattern, "exchange E7 E8 E9 E10 EU")


# ------------------------------------------------------------ the arena's clock


def test_a_failed_decision_is_counted_as_the_page_says(tmp_path: Path) -> None:
    """An engine that dies at its first decide: one decision a game, with its time."""
    assert "A decision that fails (a\n  timeout, a crash, an illegal answer) **is counted**" in PAGE
    crash = engine_script(
        tmp_path,
        """
        for message in messages():
            if message["type"] == "hello":
                hello()
            elif message["type"] == "decide":
                sys.exit(3)
        """,
    )
    command = " ".join(crash)
    summary, results = run_arena([f"engine:{command}", "random"], players=2, games=2, seed=1)
    line = summary.lines[0]
    assert all(result.forfeit is not None for result in results)
    assert line.decisions == len(results)  # the failed decisions are counted
    assert line.median_decision_ms > 0
