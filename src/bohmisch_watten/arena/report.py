"""The arena's results: the table per bot, and the JSON, CSV and PNG files.

A win shared by k winners counts 1/k (R34), so the win credits of a game add up to one
and a bot's fair share is ``1 / players``.
"""

from __future__ import annotations

import csv
import importlib
import io
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from ..errors import counted
from .match import ArenaSetup, GameResult
from .stats import bradley_terry, fair_share_p_value, wilson_interval

__all__ = ["BotLine", "Summary", "summarize", "to_csv", "to_json_dict", "to_table", "write_plot"]


@attrs.frozen
class BotLine:
    """One contestant's line of the table (see :func:`summarize`)."""

    name: str
    games: int
    wins: float
    win_rate: float
    ci95: tuple[float, float]
    p_value: float
    losses: int
    mean_score: float
    mean_decision_ms: float
    decisions: int
    forfeits: int
    rating: float
    rating_ci95: tuple[float, float]
    median_decision_ms: float = 0.0
    forfeit_reasons: tuple[str, ...] = ()


@attrs.frozen
class Summary:
    """The table of one arena and what it was played with."""

    setup: ArenaSetup
    games: int
    boards: int
    lines: tuple[BotLine, ...]
    incidents: tuple[str, ...]
    capped: int

    @property
    def fair_share(self) -> float:
        """The win rate of a bot no better than the others: 1 / players."""
        return 1.0 / self.setup.players


def _rank_key(result: GameResult, seat: int) -> tuple[int, int]:
    """Lower is better: winners first, then by score; a forfeit is last (R34)."""
    if seat == result.forfeit:
        return (2, 0)
    if seat in result.winners:
        return (0, 0)
    return (1, result.scores[seat])


def _pairwise(results: Sequence[GameResult], contestants: int) -> list[list[float]]:
    wins = [[0.0] * contestants for _ in range(contestants)]
    for result in results:
        seats = range(len(result.seating))
        for i in seats:
            for j in seats:
                if i < j:
                    a, b = result.seating[i], result.seating[j]
                    ka, kb = _rank_key(result, i), _rank_key(result, j)
                    if ka < kb:
                        wins[a][b] += 1
                    elif kb < ka:
                        wins[b][a] += 1
                    else:
                        wins[a][b] += 0.5
                        wins[b][a] += 0.5
    return wins


def summarize(setup: ArenaSetup, results: Sequence[GameResult]) -> Summary:
    """The table: per contestant games, wins, win rate with its Wilson interval, the
    p-value against the fair share, losses, mean final score, mean and median decision
    time, forfeits with their reasons, and a Bradley–Terry rating (Elo scale) from who
    finished ahead of whom."""
    m = len(setup.labels)
    games = [0] * m
    wins = [0.0] * m
    losses = [0] * m
    scores = [0] * m
    seconds = [0.0] * m
    decisions = [0] * m
    forfeits = [0] * m
    times: list[list[float]] = [[] for _ in range(m)]
    reasons: list[list[str]] = [[] for _ in range(m)]
    for result in results:
        for seat, c in enumerate(result.seating):
            games[c] += 1
            wins[c] += result.win_share(seat)
            losses[c] += seat in result.losers
            scores[c] += result.scores[seat]
            seconds[c] += result.decision_seconds[seat]
            decisions[c] += result.decisions[seat]
            forfeits[c] += seat == result.forfeit
            if seat == result.forfeit and result.reason is not None:
                reasons[c].append(f"game {result.index}: {result.reason}")
            if result.decision_ms:
                times[c].extend(result.decision_ms[seat])
    ratings = bradley_terry(_pairwise(results, m))
    share = 1.0 / setup.players
    lines = tuple(
        BotLine(
            name=setup.labels[c],
            games=games[c],
            wins=wins[c],
            win_rate=wins[c] / games[c] if games[c] else 0.0,
            ci95=wilson_interval(wins[c], games[c]),
            p_value=fair_share_p_value(wins[c], games[c], share),
            losses=losses[c],
            mean_score=scores[c] / games[c] if games[c] else 0.0,
            mean_decision_ms=1000 * seconds[c] / decisions[c] if decisions[c] else 0.0,
            decisions=decisions[c],
            forfeits=forfeits[c],
            rating=ratings[c][0],
            rating_ci95=(ratings[c][1], ratings[c][2]),
            median_decision_ms=statistics.median(times[c]) if times[c] else 0.0,
            forfeit_reasons=tuple(reasons[c]),
        )
        for c in range(m)
    )
    incidents = tuple(r.incident for r in results if r.incident is not None)
    boards = len({r.board for r in results})
    capped = sum(r.capped for r in results)
    return Summary(setup, len(results), boards, lines, incidents, capped)


def to_table(summary: Summary) -> str:
    """The table as fixed-width text, best win rate first.

    A forfeit (the bot raised, returned an illegal action or ran out of time) is a
    loss, counted in the ``forfeits`` column beside ``losses``, and summed up in one
    ``FORFEITS:`` line under the table per bot that forfeited, with the first reason,
    so a broken bot cannot hide behind a fair-looking share.  Each game's own reason
    is in the log (one ``forfeit:`` warning per game), the JSON and the CSV, not here
    again.
    """
    width = max(4, *(len(line.name) for line in summary.lines))
    head = (
        f"{'bot':<{width}}  games    wins  win rate  95% CI          p vs 1/{summary.setup.players}"
        f"  losses  forfeits  mean score  ms/decision  rating (95% CI)"
    )
    rows = [head, "-" * len(head)]
    for line in sorted(summary.lines, key=lambda line: -line.win_rate):
        lo, hi = line.ci95
        rlo, rhi = line.rating_ci95
        rows.append(
            f"{line.name:<{width}}  {line.games:5d}  {line.wins:6.1f}  {line.win_rate:8.1%}"
            f"  [{lo:5.1%}, {hi:5.1%}]  {line.p_value:8.2g}  {line.losses:6d}"
            f"  {line.forfeits:8d}  {line.mean_score:10.2f}  {line.mean_decision_ms:11.2f}"
            f"  {line.rating:+6.0f} [{rlo:+.0f}, {rhi:+.0f}]"
        )
    rows.append(
        f"{counted(summary.games, 'game')} on {counted(summary.boards, 'board')},"
        f" {summary.setup.players} players,"
        f" seed {summary.setup.seed}, rules: {str(summary.setup.rules) or 'default'};"
        f" fair share {summary.fair_share:.1%}; a win shared by k counts 1/k"
    )
    if summary.capped:
        were = "was" if summary.capped == 1 else "were"
        rows.append(
            f"{counted(summary.capped, 'game')} reached {counted(summary.setup.max_deals, 'deal')}"
            f" without a winner and {were} adjudicated (lowest score wins)"
        )
    for line in summary.lines:
        if line.forfeits:
            first = line.forfeit_reasons[0] if line.forfeit_reasons else "no reason given"
            rows.append(
                f"FORFEITS: {line.name} forfeited {line.forfeits} of {counted(line.games, 'game')}"
                f" ({line.forfeits / line.games:.0%}), each counted as a loss; first: {first}"
            )
    return "\n".join(rows)


def to_json_dict(summary: Summary) -> dict[str, Any]:
    """The ``--json`` document: the table's keys, plus extras (p-value, rating, …)."""
    setup = summary.setup
    return {
        "players": setup.players,
        "games": summary.games,
        "seed": setup.seed,
        "rules": str(setup.rules),
        "bots": [
            {
                "name": line.name,
                "spec": setup.bots[setup.labels.index(line.name)],
                "games": line.games,
                "wins": line.wins,
                "win_rate": line.win_rate,
                "ci95": list(line.ci95),
                "p_value": line.p_value,
                "losses": line.losses,
                "mean_score": line.mean_score,
                "mean_decision_ms": line.mean_decision_ms,
                "median_decision_ms": line.median_decision_ms,
                "decisions": line.decisions,
                "forfeits": line.forfeits,
                "forfeit_reasons": list(line.forfeit_reasons),
                "rating": line.rating,
                "rating_ci95": list(line.rating_ci95),
            }
            for line in summary.lines
        ],
        "boards": summary.boards,
        "fair_share": summary.fair_share,
        "max_deals": setup.max_deals,
        "capped_games": summary.capped,
        "incidents": list(summary.incidents),
    }


def to_csv(setup: ArenaSetup, results: Sequence[GameResult]) -> str:
    """One row per game: board, who sat where, final scores, winners, losers, forfeits.

    ``forfeit`` names the bot that forfeited the game (it is also among the ``losers``)
    and ``forfeit_reason`` says why; both are empty for a game played to the end.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    seats = range(setup.players)
    writer.writerow(
        [
            "game",
            "board",
            *(f"seat{s}" for s in seats),
            *(f"score{s}" for s in seats),
            "winners",
            "losers",
            "deals",
            "capped",
            "forfeit",
            "forfeit_reason",
            "incident",
        ]
    )
    for r in results:
        names = [setup.labels[c] for c in r.seating]
        writer.writerow(
            [
                r.index,
                r.board,
                *names,
                *r.scores,
                " ".join(names[s] for s in r.winners),
                " ".join(names[s] for s in r.losers),
                r.deals,
                int(r.capped),
                names[r.forfeit] if r.forfeit is not None else "",
                r.reason or "",
                r.incident or "",
            ]
        )
    return out.getvalue()


def write_plot(summary: Summary, path: Path) -> None:
    """A PNG bar chart of the win rates with their 95 % intervals (extra ``[plot]``).

    Raises:
        ImportError: without matplotlib.
    """
    matplotlib: Any = importlib.import_module("matplotlib")
    matplotlib.use("Agg")
    pyplot: Any = importlib.import_module("matplotlib.pyplot")
    lines = summary.lines
    rates = [line.win_rate for line in lines]
    errors = [
        [rate - line.ci95[0] for rate, line in zip(rates, lines, strict=True)],
        [line.ci95[1] - rate for rate, line in zip(rates, lines, strict=True)],
    ]
    figure, axes = pyplot.subplots(figsize=(max(4.0, 1.2 * len(lines) + 2), 4))
    axes.bar([line.name for line in lines], rates, yerr=errors, capsize=6, color="#4c72b0")
    axes.axhline(summary.fair_share, color="#c44e52", linestyle="--", label="fair share")
    axes.set_ylabel("win rate (95 % Wilson interval)")
    axes.set_ylim(0, 1)
    axes.set_title(f"{counted(summary.games, 'game')}, {summary.setup.players} players")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, format="png")
    pyplot.close(figure)
