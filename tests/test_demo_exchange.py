"""The demo is omniscient: every card a seat plays was shown in its hand or its draws."""

from __future__ import annotations

import io
import re

import pytest

from bohmisch_watten import Rules
from bohmisch_watten.commands.cli import play_and_print

_HAND = re.compile(r"^  seat (\d): ((?:\S+ )*\S+)  \(")
_EXCHANGE = re.compile(
    r"^Exchange: seat (\d) plays, discards \d \((.*?)\)( and takes the trump card)?, draws (.*)$"
)
_TRUMP = re.compile(r"^Trump card: (\w+)")
_TRICK = re.compile(r"^Trick \d: (.*) -> seat \d$")


def _codes(text: str) -> set[str]:
    return set() if text == "-" else set(text.split())


def unexplained_plays(log: str) -> list[str]:
    """Cards played that the log never showed in the player's hand: must be none."""
    hands: dict[int, set[str]] = {}
    trump = ""
    wrong = []
    for line in log.splitlines():
        if line.startswith("=== Deal"):
            hands = {}
        elif match := _TRUMP.match(line):
            trump = match.group(1)
        elif match := _HAND.match(line):
            hands[int(match.group(1))] = set(match.group(2).split())
        elif match := _EXCHANGE.match(line):
            seat, discards, took, drawn = match.groups()
            hands[int(seat)] -= _codes(discards)
            hands[int(seat)] |= _codes(drawn) | ({trump} if took else set())
        elif match := _TRICK.match(line):
            for seat, card in re.findall(r"seat (\d) (\S+?)(?:,|$)", match.group(1)):
                if card not in hands[int(seat)]:
                    wrong.append(f"{line!r}: seat {seat} was never shown {card}")
                hands[int(seat)].discard(card)
    return wrong


@pytest.mark.rule("R18")
@pytest.mark.rule("R19")
@pytest.mark.parametrize(
    ("players", "seed", "rules"),
    [(4, 2026, Rules()), (3, 7, Rules(dealer_stock_limit=3)), (2, 11, Rules(start_score=10))],
)
def test_every_played_card_was_printed_in_hand_or_draws(
    players: int, seed: int, rules: Rules
) -> None:
    out = io.StringIO()
    play_and_print(players, rules, seed, 0, 30, out)
    log = out.getvalue()
    assert re.search(r", draws (\S+ )*\S+$", log, re.M)  # somebody drew cards
    assert re.search(r"takes the trump card, draws ", log, re.M)
    assert unexplained_plays(log) == []


def test_the_check_catches_a_log_that_hides_the_draws() -> None:
    out = io.StringIO()
    play_and_print(4, Rules(), 2026, 0, 30, out)
    hidden = re.sub(r", draws .*$", ", draws -", out.getvalue(), flags=re.M)
    assert unexplained_plays(hidden)
