"""Review a game: every decision of every seat judged, like a chess site's game analysis.

:func:`review` replays a :class:`~bohmisch_watten.GameRecord` and hands the judge, at
each decision, only the deciding seat's :class:`~bohmisch_watten.views.PlayerView`; the
judge ranks the actions and values the one taken, and the difference is the loss in
expected points, labelled by :data:`INACCURACY`, :data:`MISTAKE` and :data:`BLUNDER`.
Any bot with ``hint`` and ``evaluate`` (the :class:`Judge` protocol) can judge; the
default is the strongest bot the registry knows (:func:`default_judge`).  The command
is ``python -m bohmisch_watten review GAME``; :mod:`bohmisch_watten.review.report`
prints the table and draws the graph.

>>> import random
>>> from bohmisch_watten import Rules, new_game
>>> from bohmisch_watten.bots import HeuristicBot, SearchBot, play_out
>>> from bohmisch_watten.review import review
>>> game = new_game(2, rules=Rules(start_score=5))
>>> end = play_out(game, [HeuristicBot(), HeuristicBot()], random.Random(3))
>>> result = review(end.record(), SearchBot(rollouts=12), seed=1)
>>> all(d.loss >= 0 for d in result.decisions), [s.seat for s in result.summaries]
(True, [0, 1])
"""

from __future__ import annotations

from .core import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Alternative,
    Decision,
    Judge,
    Label,
    Review,
    SeatSummary,
    default_judge,
    label_for,
    review,
)

__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "Alternative",
    "Decision",
    "Judge",
    "Label",
    "Review",
    "SeatSummary",
    "default_judge",
    "label_for",
    "review",
]
