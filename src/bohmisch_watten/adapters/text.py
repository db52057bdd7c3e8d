"""A seat's table as text, for ``render_mode="ansi"`` and OpenSpiel's observation string.

Built from a :class:`PlayerView` only, so the text can show nothing the seat may not
know (R13, R23).
"""

from __future__ import annotations

from ..views import PlayerView

__all__ = ["table_text"]


def table_text(view: PlayerView) -> str:
    """A few lines: the deal, scores, trump card, folds, the trick, the seat's hand."""
    n = view.num_players
    turn = "chance" if view.current_player is None else f"seat {view.current_player} to act"
    lines = [
        f"Deal {view.deal_number}, dealer seat {view.dealer}, {view.phase.value}, {turn}",
        "Scores: " + "  ".join(f"{s}:{view.scores[s]}" for s in range(n)),
    ]
    trump = view.trump_card
    if trump is not None:
        taken = " (taken by the dealer)" if view.trump_card_taken else ""
        lines.append(f"Trump card: {trump}{taken}")
    folded = [str(s) for s in range(n) if view.folded[s]]
    if folded:
        lines.append("Folded: seat " + ", ".join(folded))
    if view.tricks or view.trick:
        lines.append("Tricks won: " + "  ".join(f"{s}:{view.tricks_won[s]}" for s in range(n)))
        lines.append("Trick: " + " ".join(f"{s}:{c}" for s, c in view.trick))
    if view.winners:
        lines.append(f"Winners: {list(view.winners)}, losers: {list(view.losers)}")
    lines.append(f"Hand of seat {view.player}: " + " ".join(str(c) for c in view.hand))
    return "\n".join(lines)
