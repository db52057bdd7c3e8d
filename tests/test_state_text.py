"""Any state on one line, like a FEN; a view's line hides what its seat cannot know."""

from __future__ import annotations

import random
import re

import pytest

from bohmisch_watten import (
    MAX_DOCUMENT_CHARS,
    Fold,
    FormatError,
    GameState,
    Phase,
    Position,
    Rules,
    new_game,
)
from bohmisch_watten.state_text import state_from_text, state_to_text, view_to_text

from helpers import random_game

GAMES = [
    (2, 6, Rules(schleck="cutter_only")),
    (3, 4, Rules()),
    (4, 9, Rules(dealer_stock_limit=3, must_head=False)),
]


def _states() -> list[GameState]:
    out: list[GameState] = []
    for players, seed, rules in GAMES:
        out += random_game(players, seed, rules=rules, max_deals=2)[1]
    return out


STATES = _states()


def test_every_state_round_trips() -> None:
    phases = set()
    for state in STATES:
        text = state.to_text()
        assert "\n" not in text
        assert text.split()[0] == str(state.position)
        phases.add(state.phase)
        if state.phase is Phase.GAME_OVER:
            with pytest.raises(FormatError, match="a finished game is read from its record"):
                GameState.from_text(text)
            continue
        again = GameState.from_text(text)
        assert again.to_text() == text
        assert again.view(0).to_text() == state.view(0).to_text()
        if state.deal_number == 1:
            assert again == state  # the game started at this deal's position
        else:
            assert len(again.past_deals) == 0  # a later deal, without the earlier ones
    assert {Phase.DEAL, Phase.EXCHANGE, Phase.PLAY} <= phases


def test_the_fields_show_the_deal() -> None:
    state = next(s for s in STATES if s.phase is Phase.PLAY and len(s.trick) == 1)
    fields = dict(token.partition("=")[::2] for token in state.to_text().split()[2:])
    assert fields["hands"] == "/".join(".".join(map(str, h)) or "-" for h in state.hands)
    assert fields["stock"] == (".".join(map(str, state.stock)) or "-")
    assert fields["trump"].rstrip("+") == str(state.trump_card)
    assert fields["trick"] == ",".join(f"{s}:{c}" for s, c in state.trick)
    assert fields["turn"] == str(state.current_player)
    assert state_to_text(state) == state.to_text()


def test_a_view_hides_every_card_its_seat_cannot_know() -> None:
    checked = 0
    for state in STATES[::3]:
        if state.phase in (Phase.DEAL, Phase.GAME_OVER):
            continue
        for seat in range(state.num_players):
            view = state.view(seat)
            text = view.to_text()
            assert text == view_to_text(view)
            assert "pack=" not in text
            public = {state.trump_card} | {card for _, card, *_ in view.cut_looks if card}
            hidden = {
                str(card)
                for other in range(state.num_players)
                if other != seat
                for card in state.hands[other]
                if card not in public
            } | {str(card) for card in state.stock if card not in public}
            assert not hidden & set(re.findall(r"[EGHS](?:10|[AKOU987])", text))
            assert "?" in text or not hidden
            checked += 1
    assert checked > 30
    with pytest.raises(FormatError, match="cannot be read as a state"):
        GameState.from_text(STATES[5].view(0).to_text() + " pack=" + "?." * 31 + "?")


def test_a_puzzle_needs_only_the_decisions() -> None:
    state = next(s for s in STATES if s.phase is Phase.PLAY and s.tricks)
    kept = [t for t in state.to_text().split() if not t.startswith(("hands=", "stock=", "turn="))]
    assert GameState.from_text(" ".join(kept)) == state
    start = str(Position.start(2))
    assert GameState.from_text(f"{start} deal") == GameState.from_position(Position.start(2))


def _edit(text: str, key: str, value: str) -> str:
    return re.sub(rf"(?<= ){key}=\S*", f"{key}={value}", text)


@pytest.mark.rule("R24")
def test_bad_texts_are_format_errors_naming_the_field() -> None:
    state = next(s for s in STATES if s.phase is Phase.PLAY and s.tricks and s.trick)
    text = state.to_text()
    hand = text.split("hands=")[1].split()[0]
    swapped = "/".join(reversed(hand.split("/")))
    cases = [
        (_edit(text, "hands", swapped), "hands=.*: the game gives hands="),
        (text + " colour=red", "unknown field"),
        (text + " turn=1", "field turn given twice"),
        (_edit(text, "pack", "EA.EA"), "pack: "),
        (_edit(text, "trick", "9:HK"), "play .*: seat \\d is to play, not 9"),
        (text.replace(" play ", " deal ", 1), "phase deal has no field|decisions lead"),
        (text.replace(" play ", " over ", 1), "read from its record"),
        ("p9/d0 play", "state text: "),
        ("nonsense", "expected a position and a phase"),
        (text.replace(" pack=", " stock0=", 1), "unknown field"),
        (text + "\nmore", "one line"),
    ]
    for bad, message in cases:
        with pytest.raises(FormatError, match=message):
            GameState.from_text(bad)
    illegal = _edit(text, "tricks", text.split("tricks=")[1].split()[0].replace(":", ":X", 1))
    with pytest.raises(FormatError, match="tricks: "):
        GameState.from_text(illegal)
    with pytest.raises(FormatError, match="too large"):
        state_from_text(text, max_chars=len(text) - 1)
    with pytest.raises(FormatError):
        state_from_text(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="state must be a GameState"):
        state_to_text("x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="view must be a PlayerView"):
        view_to_text("x")  # type: ignore[arg-type]
    assert len(text) < MAX_DOCUMENT_CHARS


@pytest.mark.rule("R12")
def test_the_cut_ritual_round_trips() -> None:
    rng = random.Random(0)
    found = 0
    for seed in range(200):
        state = GameState.from_position(Position.start(3))
        state = state.apply(state.sample_chance(random.Random(seed)))
        if state.phase is Phase.CUT:
            assert GameState.from_text(state.to_text()) == state
            after = state.apply(rng.choice(state.legal_actions()))
            assert GameState.from_text(after.to_text()) == after
            found += 1
        if found == 3:
            break
    assert found == 3


@pytest.mark.rule("R18")
def test_a_fold_round_trips_and_reads_f() -> None:
    rng = random.Random(3)
    state, folded = new_game(3), None
    while folded is None or folded.phase is not Phase.PLAY:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        state = state.apply(Fold() if Fold() in legal and folded is None else rng.choice(legal))
        if any(state.folded):
            folded = state
    text = folded.to_text()
    assert re.search(r" ex=(\S*/)?F(/|\s)", text)
    assert GameState.from_text(text).to_text() == text
    assert " ex=" in folded.view(1).to_text()


def test_more_bad_texts() -> None:
    state = next(s for s in STATES if s.phase is Phase.PLAY and s.tricks and s.deal_number == 1)
    text = state.to_text()
    ex = text.split(" ex=")[1].split()[0].split("/")
    cases = [
        (re.sub(r" pack=\S+", "", text), "needs its pack="),
        (_edit(text, "ex", "/".join(ex[:-1])), "ex: expected"),
        (_edit(text, "trick", "1:"), "a play needs a card"),
        (_edit(text, "trick", "x"), "expected seat:card plays"),
        (_edit(text, "pack", "EA"), "pack: "),
        (text.replace(" play ", " exchange ", 1), "phase exchange has no field|decisions lead"),
        ("p2/d0/n1/s0.5/f00/default deal", "already end the game"),
    ]
    order = ex[:]
    dealer = state.dealer
    forehand = (dealer + 1) % state.num_players
    order[forehand], order[dealer] = order[dealer], order[forehand]
    if order != ex:
        cases.append((_edit(text, "ex", "/".join(order)), "ex seat"))
    for bad, message in cases:
        with pytest.raises(FormatError, match=message):
            GameState.from_text(bad)
