"""The arena: duplicate matches and leagues between bots, with the statistics to trust.

>>> from bohmisch_watten import Rules
>>> from bohmisch_watten.arena import run_arena
>>> summary, results = run_arena(["heuristic", "random"], players=2, games=4, seed=1)
>>> [line.name for line in summary.lines], summary.games
(['heuristic', 'random'], 4)

See :func:`run_arena`, and ``python -m bohmisch_watten arena --help`` for the command.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from ..bots.registry import make_bot
from ..rules import Rules
from .backends import run_games
from .match import ArenaSetup, GameResult
from .report import Summary, summarize
from .schedule import labels, schedule

__all__ = ["ArenaSetup", "GameResult", "Summary", "run_arena"]


def run_arena(
    bots: Sequence[str],
    *,
    players: int = 4,
    games: int = 100,
    seed: int = 0,
    rules: Rules | None = None,
    jobs: int = 1,
    backend: Literal["process", "ray"] = "process",
    address: str | None = None,
    decision_timeout: float | None = None,
    max_deals: int = 500,
    keep_records: bool = False,
    progress: Callable[[int], None] | None = None,
) -> tuple[Summary, list[GameResult]]:
    """Play an arena and return its table and every game's result.

    Args:
        bots: bot specs (``"search"``, ``"random"``, ``"search:rollouts=60"``), one per
            contestant; more than ``players`` makes a league.
        players: seats per game: 2 to 4, or to 7 with ``Rules(pack=36)`` (R1).
        games: at least this many games, rounded up to whole boards.
        seed: boards and bot generators derive from it: same seed, same results.
        rules: the variants (default rules if None).
        jobs: worker processes or local Ray CPUs; 1 plays in this process.  Worker
            processes are spawned (a fresh interpreter each), so a script that calls
            this with ``jobs > 1`` must guard its entry point with
            ``if __name__ == "__main__":``, as with any :mod:`multiprocessing` code.
        backend: ``"process"`` or ``"ray"``.
        address: a Ray cluster to join.
        decision_timeout: seconds per decision; a bot over it loses that game.
        max_deals: deals after which a game is adjudicated by score.
        keep_records: keep each game's text record in its result.
        progress: called with the number of games finished, batch by batch.

    Raises:
        ValueError: for an unknown bot, too few bots, or a bad number.
    """
    rules = rules if rules is not None else Rules()
    if not 2 <= players <= rules.max_players:
        raise ValueError(
            f"players must be 2 to {rules.max_players} with the {rules.pack}-card pack (R1), "
            f"got {players}" + (": five to seven need rules pack=36" if 5 <= players <= 7 else "")
        )
    for spec in bots:
        make_bot(spec)  # fail early, in this process, on a bad spec
    if decision_timeout is not None and not decision_timeout > 0:
        raise ValueError(f"decision timeout must be positive, got {decision_timeout}")
    if max_deals < 1:
        raise ValueError(f"max deals must be at least 1, got {max_deals}")
    setup = ArenaSetup(
        bots=tuple(bots),
        labels=labels(bots),
        players=players,
        rules=rules,
        seed=seed,
        decision_timeout=decision_timeout,
        max_deals=max_deals,
        keep_records=keep_records,
    )
    specs = schedule(games, len(setup.bots), players)
    results = run_games(
        setup, specs, jobs=jobs, backend=backend, address=address, progress=progress
    )
    return summarize(setup, results), results
