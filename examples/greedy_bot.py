"""A greedy bot that sees only its own player view, playing against random bots.

Run it after ``make demo`` (which creates ``.venv`` and installs the package there):
``make example NAME=greedy_bot ARGS="50 7"`` or
``.venv/bin/python examples/greedy_bot.py [games] [seed]``.  Seat 0 is the greedy bot, the
other seats play at random; the script prints how often each seat won and lost.

A bot is an object with ``choose(view, rng) -> Action``, the one notion of a bot that
the arena, ``play_out`` and the adapters take.  The greedy decision is written as a
plain function and made a bot by :class:`~bohmisch_watten.bots.function_bot.FunctionBot`
(``GREEDY`` below); its opponents are the library's :class:`~bohmisch_watten.bots.RandomBot`.
The same function can be measured in the arena by name: ``python -m bohmisch_watten arena
--players 2 --bots ./examples/greedy_bot.py:greedy_bot,random``.

The bot never touches a :class:`~bohmisch_watten.GameState`: it gets a
:class:`~bohmisch_watten.views.PlayerView`, which holds only what its seat may know,
and picks one of ``view.legal_actions()``.  It knows three things about the game:
Criticals and trumps win tricks (R7, R9, R27), tricks are what you want (each one is
a point towards zero, R29), and a weak hand is worth folding when the rules allow it.
Which card would win a trick it asks :func:`bohmisch_watten.tricks.beats`, the rule
engine's own trick logic on cards, instead of ranking cards itself.
"""

from __future__ import annotations

import random
import sys

from bohmisch_watten import Action, Card, Exchange, Fold, GameState, PlayCard, Suit, new_game
from bohmisch_watten.bots import Bot, RandomBot, play_out
from bohmisch_watten.bots.function_bot import FunctionBot
from bohmisch_watten.tricks import beats, is_trump
from bohmisch_watten.views import PlayerView


def worth(card: Card, trump: Suit) -> float:
    """A rough value of a card in the hand: Criticals, then trumps, then high cards (R7, R9)."""
    if card.is_critical:
        return 5.0
    return (2.5 if is_trump(card, trump) else 0.5) + card.rank / 20


def greedy_bot(view: PlayerView, rng: random.Random) -> Action:
    """Take Criticals, swap weak cards, fold bad hands, win tricks as cheaply as possible."""
    actions = view.legal_actions()
    trump = view.trump_suit
    if isinstance(actions[0], PlayCard):
        assert trump is not None
        plays = [a.card for a in actions if isinstance(a, PlayCard)]
        cards = sorted(plays, key=lambda c: worth(c, trump))
        if not view.trick:  # lead the strongest card
            return PlayCard(cards[-1])
        # R27: beats() knows the led suit, trumps and the Criticals; win as cheaply as
        # possible, or throw the cheapest card.
        winners = [c for c in cards if beats(c, view.trick, trump)]
        return PlayCard(winners[0] if winners else cards[0])
    if not isinstance(actions[0], (Exchange, Fold)):
        return actions[0]  # the cut: TakeCritical comes first (R12)
    turned = view.trump_card
    assert trump is not None
    assert turned is not None

    def value(action: Action) -> float:  # the hand's strength after this exchange
        if isinstance(action, Fold):
            return 7.0  # a hand worth less than this is better sat out (R18)
        kept = [c for c in view.hand if c not in action.discard]
        drawn = len(action.discard) - action.take_trump_card
        gained = worth(turned, trump) if action.take_trump_card else 0
        return sum(worth(c, trump) for c in kept) + gained + 1.2 * drawn

    return max(actions, key=value)


GREEDY: Bot = FunctionBot(greedy_bot)
"""The greedy decision as a bot: what ``play_out``, the arena and the adapters take."""


def random_bot(view: PlayerView, rng: random.Random) -> Action:
    """Any legal action, uniformly at random: :class:`RandomBot`'s decision as a function."""
    return RandomBot().choose(view, rng)


def play_game(bots: list[Bot], rng: random.Random, max_deals: int = 500) -> GameState:
    """One game: chance from ``rng``, each seat's decisions from its bot and its view."""
    return play_out(new_game(len(bots)), bots, rng, max_deals=max_deals)


def match(games: int, seed: int) -> tuple[list[int], list[int]]:
    """Greedy seat 0 against three random bots: wins and losses per seat."""
    rng = random.Random(seed)
    wins, losses = [0] * 4, [0] * 4
    for _ in range(games):
        state = play_game([GREEDY, RandomBot(), RandomBot(), RandomBot()], rng)
        for seat in state.winners:
            wins[seat] += 1
        for seat in state.losers:
            losses[seat] += 1
    return wins, losses


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 20
    seed = int(argv[1]) if len(argv) > 1 else 1
    wins, losses = match(games, seed)
    print(f"{_count(games, 'game')}, seat 0 greedy, seats 1-3 random (seed {seed})")
    for seat in range(4):
        kind = "greedy" if seat == 0 else "random"
        print(f"seat {seat} ({kind}): {_count(wins[seat], 'win')}, {_count(losses[seat], 'loss')}")


def _count(n: int, noun: str) -> str:
    """``n`` and the noun in its number: "1 win", "2 wins", "3 losses"."""
    if n == 1:
        return f"1 {noun}"
    return f"{n} {noun}es" if noun.endswith("s") else f"{n} {noun}s"


if __name__ == "__main__":
    main(sys.argv[1:])
