"""A review for people: the text table of ``review`` and its evaluation graph (PNG)."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from ..errors import counted
from . import BLUNDER, INACCURACY, MISTAKE, Decision, Review, SeatSummary, in_words

__all__ = ["format_table", "write_plot"]

_MARKS: Final = {
    "inaccuracy": ("o", "#e0b000", f"inaccuracy (≥ {INACCURACY:g})"),
    "mistake": ("s", "#e07000", f"mistake (≥ {MISTAKE:g})"),
    "blunder": ("X", "#c0182a", f"blunder (≥ {BLUNDER:g})"),
}
"""Marker, colour and legend text of each label in the plot."""


def _columns(rows: Sequence[Sequence[str]], right: Sequence[bool]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.rjust(width) if align else cell.ljust(width)
            for cell, width, align in zip(row, widths, right, strict=True)
        ).rstrip()
        for row in rows
    ]


def _decision_lines(decision: Decision) -> list[str]:
    """A decision as a player reads it: what the seat knew, what it did, what was better."""
    label = f"{decision.label}, " if decision.label else ""
    played = f"you {in_words(decision.action)} ({decision.value:+.2f})"
    better = decision.better
    return [
        f"#{decision.number}  deal {decision.deal}, seat {decision.seat}, score"
        f" {decision.score}, {decision.phase.name.lower()}: {label}loss {decision.loss:.2f}",
        f"    {decision.situation.text(decision.phase)}",
        *(
            [f"    {played}, the judge's choice too"]
            if better is None
            else [f"    {played}", f"    better: {better} ({decision.best.value:+.2f})"]
        ),
    ]


def _summary_row(summary: SeatSummary) -> list[str]:
    return [
        str(summary.seat),
        str(summary.decisions),
        f"{summary.average_loss:.2f}",
        f"{summary.total_loss:.2f}",
        str(summary.inaccuracies),
        str(summary.mistakes),
        str(summary.blunders),
    ]


def format_table(review: Review) -> str:
    """The review as text: each decision with the seat's hand, the trump and the trick
    (or the exchange or the cut) it was made in, what the seat did and what the judge
    found better, in words; then a line per seat.
    """
    lines = [
        f"Review of a {review.num_players}-player game (rules: {str(review.rules) or 'default'})",
        f"judge: {review.judge}, seed {review.seed}",
        "values: expected points toward zero in the deal (R29-R30, +/- the game bonus);"
        f" loss >= {INACCURACY:g} inaccuracy, >= {MISTAKE:g} mistake, >= {BLUNDER:g} blunder",
        "",
    ]
    for decision in review.decisions:
        lines += [*_decision_lines(decision), ""]
    if not review.decisions:
        lines += ["(no decision to judge)", ""]
    head = ["seat", "decisions", "average loss", "total loss", "inaccuracies", "mistakes"]
    rows = [[*head, "blunders"]] + [_summary_row(s) for s in review.summaries]
    lines += _columns(rows, [True] * 7)
    return "\n".join(lines) + "\n"


def write_plot(review: Review, path: Path) -> None:
    """A PNG evaluation graph: per reviewed seat, its expected score over the game.

    One panel per seat, the record's action numbers across.  The line is
    :attr:`Decision.expected_score <bohmisch_watten.review.Decision.expected_score>`
    (the score before the decision minus the best action's value), the grey steps the
    score itself; inaccuracies, mistakes and blunders are marked on the line.  Lower
    is better: the race is to zero (R31).

    Raises:
        ImportError: without matplotlib (extra ``[plot]``).
    """
    matplotlib: Any = importlib.import_module("matplotlib")
    matplotlib.use("Agg")
    pyplot: Any = importlib.import_module("matplotlib.pyplot")
    seats = review.seats
    figure, panels = pyplot.subplots(
        len(seats), 1, figsize=(9, 1.9 * len(seats) + 1.0), sharex=True, squeeze=False
    )
    starts: dict[int, int] = {}
    for decision in review.decisions:
        starts.setdefault(decision.deal, decision.number)
    for axes, seat in zip(panels[:, 0], seats, strict=True):
        decisions = review.of_seat(seat)
        xs = [d.number for d in decisions]
        scores = [d.score for d in decisions] + [review.final_scores[seat]]
        axes.step([*xs, review.actions], scores, where="post", color="#999999", lw=1,
                  label="score")  # fmt: skip
        axes.plot(xs, [d.expected_score for d in decisions], color="#3060a0", lw=1.4,
                  marker=".", ms=3, label="expected score")  # fmt: skip
        for label, (marker, colour, text) in _MARKS.items():
            marked = [d for d in decisions if d.label == label]
            axes.scatter([d.number for d in marked], [d.expected_score for d in marked],
                         marker=marker, color=colour, s=46, zorder=3, label=text,
                         edgecolors="black", linewidths=0.5)  # fmt: skip
        for start in list(starts.values())[1:]:
            axes.axvline(start - 0.5, color="#dddddd", lw=0.8, zorder=0)
        axes.axhline(0, color="#2a8a3a", lw=0.8, ls="--")
        summary = next(s for s in review.summaries if s.seat == seat)
        axes.set_title(
            f"seat {seat}: {counted(summary.decisions, 'decision')}, average loss"
            f" {summary.average_loss:.2f}; inaccuracies {summary.inaccuracies},"
            f" mistakes {summary.mistakes}, blunders {summary.blunders}",
            fontsize=9,
            loc="left",
        )
        axes.set_ylabel("score")
    handles, labels = panels[0, 0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="upper center", ncol=5, fontsize=8, frameon=False)
    panels[-1, 0].set_xlabel("action number in the record (grey lines: new deals)")
    figure.tight_layout(rect=(0, 0, 1, 1 - 0.35 / (1.9 * len(seats) + 1.0)))
    figure.savefig(path, format="png", dpi=110)
    pyplot.close(figure)
