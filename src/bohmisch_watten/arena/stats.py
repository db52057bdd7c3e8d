"""The statistics of the arena table: Wilson intervals, a test against the fair share,
and Bradley–Terry ratings from pairwise comparisons.

Pure functions of counts, in the standard library only (``math``), so a reader can
check each formula against a textbook.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

__all__ = ["bradley_terry", "fair_share_p_value", "wilson_interval"]

Z95: Final = 1.959963984540054
"""The two-sided 95 % quantile of the standard normal distribution."""

ELO_SCALE: Final = 400 / math.log(10)
"""Ratings are reported on the Elo scale: 400 points = ten times the odds."""


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default).

    Unlike the normal interval it stays inside [0, 1] and behaves for rates near 0 or 1.
    ``successes`` may be fractional (shared wins count 1/k).

    >>> from bohmisch_watten.arena.stats import wilson_interval
    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


def fair_share_p_value(successes: float, trials: int, share: float) -> float:
    """Two-sided p-value of "the true win rate is ``share``" (normal approximation).

    The score test: z = (p̂ − share) / √(share (1 − share) / n).  It accepts fractional
    wins; with the arena's hundreds of games the approximation is close to the exact
    binomial test.

    >>> from bohmisch_watten.arena.stats import fair_share_p_value
    >>> round(fair_share_p_value(25, 100, 0.25), 3)
    1.0
    """
    if trials <= 0:
        return 1.0
    z = (successes / trials - share) / math.sqrt(share * (1 - share) / trials)
    return math.erfc(abs(z) / math.sqrt(2))


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss–Jordan inverse of a small non-singular matrix."""
    n = len(matrix)
    rows = [[*row, *(1.0 if i == j else 0.0 for j in range(n))] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [value / lead for value in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [row[n:] for row in rows]


def bradley_terry(
    wins: Sequence[Sequence[float]], iterations: int = 500
) -> list[tuple[float, float, float]]:
    """Bradley–Terry ratings with 95 % intervals, on the Elo scale, mean zero.

    Args:
        wins: ``wins[a][b]`` is how often ``a`` finished ahead of ``b`` (a tie counts
            one half to each).
        iterations: of the minorization–maximization algorithm (Hunter 2004).

    Returns:
        Per contestant ``(rating, low, high)``.  Every pair that met gets one virtual
        tie (half a win each way), so a contestant that never lost still has a finite
        rating.  The intervals come from the Fisher information; comparisons within one
        game are not independent, so they are approximate.

    >>> from bohmisch_watten.arena.stats import bradley_terry
    >>> [round(r) for r, _, _ in bradley_terry([[0, 3], [1, 0]])]
    [74, -74]
    """
    m = len(wins)
    w = [[wins[a][b] + (0.5 if wins[a][b] + wins[b][a] > 0 else 0.0) for b in range(m)]
         for a in range(m)]  # fmt: skip
    games = [[w[a][b] + w[b][a] for b in range(m)] for a in range(m)]
    strength = [1.0] * m
    for _ in range(iterations):
        new = []
        for a in range(m):
            total = sum(w[a])
            denominator = sum(games[a][b] / (strength[a] + strength[b]) for b in range(m) if b != a)
            new.append(total / denominator if denominator else strength[a])
        mean_log = sum(math.log(s) for s in new) / m
        strength = [s / math.exp(mean_log) for s in new]
    theta = [math.log(s) for s in strength]
    laplacian = [[0.0] * m for _ in range(m)]
    for a in range(m):
        for b in range(m):
            if a != b and games[a][b]:
                p = strength[a] / (strength[a] + strength[b])
                info = games[a][b] * p * (1 - p)
                laplacian[a][b] -= info
                laplacian[a][a] += info
    shifted = [[value + 1.0 / m for value in row] for row in laplacian]
    covariance = [[value - 1.0 / m for value in row] for row in _inverse(shifted)]
    out = []
    for a in range(m):
        half = Z95 * math.sqrt(max(covariance[a][a], 0.0))
        out.append(tuple(ELO_SCALE * x for x in (theta[a], theta[a] - half, theta[a] + half)))
    return out  # type: ignore[return-value]
