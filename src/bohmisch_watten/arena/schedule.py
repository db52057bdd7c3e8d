"""Who plays which game: contestant labels, duplicate rotations and league combinations.

Duplicate format: one **board** is a sequence of shuffles (one per deal, drawn from a
generator seeded by the arena seed and the board number, so every game on the board
gets the same packs, R11).  Each board is played once per rotation of the contestants
over the seats, so over a board every contestant holds every seat's cards.  With more
contestants than seats (a league), every combination of them plays every board in
every rotation.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import attrs

__all__ = ["GameSpec", "boards_needed", "labels", "schedule"]


@attrs.frozen
class GameSpec:
    """One game of the arena.

    Attributes:
        index: the game's number, 0 first; results are reported in this order.
        board: the shuffle sequence it is played with.
        seating: per seat, the index of the contestant sitting there.
    """

    index: int
    board: int
    seating: tuple[int, ...]


def labels(specs: Sequence[str]) -> tuple[str, ...]:
    """One label per contestant: the spec, then ``spec#2``, ``spec#3`` when it repeats.

    >>> from bohmisch_watten.arena.schedule import labels
    >>> labels(["search", "random", "random"])
    ('search', 'random', 'random#2')
    """
    seen: dict[str, int] = {}
    out = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        out.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return tuple(out)


def _tables(contestants: int, players: int) -> list[tuple[int, ...]]:
    """Every seating of one board: each combination of contestants in each rotation."""
    seatings = []
    for combo in itertools.combinations(range(contestants), players):
        for shift in range(players):
            seatings.append(tuple(combo[(seat - shift) % players] for seat in range(players)))
    return seatings


def boards_needed(games: int, contestants: int, players: int) -> int:
    """Boards for at least ``games`` games, rounded up to whole rotations of every table."""
    per_board = len(_tables(contestants, players))
    return max(1, -(-games // per_board))


def schedule(games: int, contestants: int, players: int) -> list[GameSpec]:
    """The games of an arena, board by board.

    Raises:
        ValueError: with fewer contestants than seats or fewer than one game.
    """
    if contestants < players:
        raise ValueError(f"{players} seats need at least {players} bots, got {contestants}")
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    tables = _tables(contestants, players)
    specs: list[GameSpec] = []
    for board in range(boards_needed(games, contestants, players)):
        for seating in tables:
            specs.append(GameSpec(len(specs), board, seating))
    return specs
