"""Misbehaving bots for the arena's robustness tests (importable by dotted path)."""

from __future__ import annotations

import random
import time

import attrs

from bohmisch_watten import Action, Card, PlayCard
from bohmisch_watten.views import PlayerView


@attrs.frozen
class RaisingBot:
    """Raises on its first decision in the play phase."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        if view.trick or (view.hand and view.phase.name == "PLAY"):
            raise RuntimeError("bug in my bot")
        return view.legal_actions()[0]


@attrs.frozen
class SlowBot:
    """Sleeps ``seconds`` per decision."""

    seconds: float = 0.3

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        time.sleep(self.seconds)
        return view.legal_actions()[0]


@attrs.frozen
class IllegalBot:
    """Plays a card it does not hold when it has a card to play."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        if view.phase.name == "PLAY":
            held = set(view.hand)
            return PlayCard(
                next(c for c in map(Card.parse, ("HK", "S7", "E7", "EA")) if c not in held)
            )
        return view.legal_actions()[0]


class NotABot:
    """Has no choose method."""
