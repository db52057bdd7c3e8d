"""Bots to play against and to measure against: random, heuristic and search.

Every bot follows the :class:`Bot` protocol, ``choose(view, rng) -> Action``: it sees
one seat's :class:`~bohmisch_watten.views.PlayerView`, never the full state, and draws
all of its randomness from the generator it is handed.  Bots are small frozen values
configured by their constructor, so they pickle to worker processes and Ray tasks.

>>> import random
>>> from bohmisch_watten import new_game
>>> from bohmisch_watten.bots import HeuristicBot, RandomBot, play_out
>>> end = play_out(new_game(3), [HeuristicBot(), RandomBot(), RandomBot()], random.Random(1))
>>> end.is_terminal
True
"""

from __future__ import annotations

from .base import Bot
from .expert import ExpertBot
from .heuristic import HeuristicBot
from .playout import play_out
from .random_bot import RandomBot
from .registry import make_bot
from .search import SearchBot

__all__ = [
    "Bot",
    "ExpertBot",
    "HeuristicBot",
    "RandomBot",
    "SearchBot",
    "make_bot",
    "play_out",
]
