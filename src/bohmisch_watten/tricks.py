"""Trick play as pure functions on bitmasks: what may be played, who wins (R24–R27)."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import DECK, Suit
from .tables import BEATS, EFFECTIVE, FOLLOW_MASK, STRENGTH, TRUMP, TRUMP_MASK, bits

__all__ = ["explain_illegal_play", "legal_play_mask", "trick_winner"]

Play = tuple[int, int]
"""One card played to a trick: ``(seat, card index)``."""


def best_play(trick: Sequence[Play], trump: int) -> Play:
    """The play currently winning ``trick`` (R27): highest Critical, trump, or led suit."""
    strength = STRENGTH[trump][EFFECTIVE[trump][trick[0][1]]]
    best = trick[0]
    for play in trick[1:]:
        if strength[play[1]] > strength[best[1]]:
            best = play
    return best


def trick_winner(trick: Sequence[Play], trump: int) -> int:
    """The seat that wins a complete trick (R27).

    Args:
        trick: the plays ``(seat, card index)``, leader first.
        trump: the trump suit (0–3, as :class:`~bohmisch_watten.Suit`).
    """
    return best_play(trick, trump)[0]


def legal_play_mask(hand: int, trick: Sequence[Play], trump: int, must_head: bool) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (R25, R26).

    Args:
        hand: bitmask of the player's cards.
        trick: the plays so far, leader first.
        trump: the trump suit (0–3).
        must_head: whether heading and overtrumping are compulsory (R26).
    """
    if not trick:
        return hand  # R24: the leader may lead any card
    led = EFFECTIVE[trump][trick[0][1]]
    follow = hand & FOLLOW_MASK[trump][led]
    if not follow and led != TRUMP:
        follow = hand & TRUMP_MASK[trump]  # R25.2: void in a plain suit, must trump
    if not follow:
        return hand  # R25.4: neither the suit led nor a trump
    if must_head:
        winning = best_play(trick, trump)[1]
        heading = follow & BEATS[trump][led][winning]
        if heading:
            return heading  # R25.1-3: head / overtrump when possible
    return follow


def _names(mask: int) -> str:
    cards = [str(DECK[i]) for i in bits(mask)]
    return cards[0] if len(cards) == 1 else ", ".join(cards[:-1]) + " or " + cards[-1]


def _suit_name(led: int) -> str:
    return "trumps" if led == TRUMP else Suit(led).label


def explain_illegal_play(
    seat: int, hand: int, card: int, trick: Sequence[Play], trump: int, must_head: bool
) -> str:
    """Why playing ``card`` is illegal, naming the rule (for :class:`IllegalActionError`).

    Only called on the error path, so clarity wins over speed here.
    """
    if not (hand >> card) & 1:
        return f"R24: seat {seat} does not hold {DECK[card]} (holds {_names(hand)})"
    led = EFFECTIVE[trump][trick[0][1]]
    follow = hand & FOLLOW_MASK[trump][led]
    if follow:
        rule = "R25.3" if led == TRUMP else "R25.1"
        if not (follow >> card) & 1:
            what = "must play a trump on a trump lead" if led == TRUMP else "must follow"
            target = "" if led == TRUMP else f" {_suit_name(led)}"
            return f"{rule}: {what}{target} with {_names(follow)}"
        verb = "overtrump" if led == TRUMP else "head the trick"
        heading = legal_play_mask(hand, trick, trump, must_head)
        return f"{rule}: must {verb} with {_names(heading)}"
    trumps = hand & TRUMP_MASK[trump]
    if not (trumps >> card) & 1:
        return f"R25.2: void in {_suit_name(led)}, must trump with {_names(trumps)}"
    return f"R25.2: must overtrump with {_names(legal_play_mask(hand, trick, trump, must_head))}"
