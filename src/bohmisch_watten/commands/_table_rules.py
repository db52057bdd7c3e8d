"""The rules a demo or an arena plays when the user names none, and the advice around them.

A game of five to seven under the default rules may never end (RULES.md §9.3): every
deal hands +5 to each active player who takes no trick (R29).  The commands therefore
start such a table with :func:`~bohmisch_watten.suggested_rules` when the user names no
rules, say so in one line, warn when the rules named lack what the suggestion adds, and
name it again when a game stops unfinished.  The rules named are always played as
named: they are the source's rules, the advice only points at a variant it offers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from ..rules import Rules, rules_values, suggested_rules

__all__ = ["lacking", "pick_rules", "suggestion_note", "unfinished_advice", "warning"]


def lacking(players: int, rules: Rules) -> str:
    """The fields :func:`suggested_rules` sets that ``rules`` lacks, as rules text
    (``"plus_fifty=true"``); empty when none is lacking.

    ``rules`` must seat ``players`` (R1).
    """
    have = rules_values(rules)
    wanted = rules_values(suggested_rules(players, rules.pack), changed_only=True)
    missing = {name: value for name, value in wanted.items() if have.get(name, value) != value}
    return str(Rules(**missing))  # type: ignore[arg-type]  # plain values of Rules fields


def pick_rules(
    players: int, named: Rules | None, overrides: Mapping[str, Any]
) -> tuple[Rules, bool]:
    """The rules to play and whether they are the suggestion for the table.

    Args:
        players: the seats, already checked against the pack (R1).
        named: the rules of ``--rules``, None when the option was not given.
        overrides: fields given one by one (``--pack 36``, ``--start-score 10``); they
            override the same fields of ``named``, or of the suggestion.

    Returns:
        ``(rules, suggested)``; ``suggested`` is true when no rules were named and the
        suggestion changed something the user did not set (a note is due).
    """
    pack = overrides.get("pack", (named or Rules()).pack)
    if named is not None:
        return attrs.evolve(named, **overrides), False
    suggested = suggested_rules(players, pack)
    rules = attrs.evolve(suggested, **overrides)
    added = rules_values(suggested, changed_only=True).keys() - {"pack"} - overrides.keys()
    return rules, bool(added)


def suggestion_note(players: int, rules: Rules) -> str:
    """The one line that says the suggested rules were chosen, and why."""
    return (
        f"rules: {rules}, suggested for {players} players so that the game ends"
        " (RULES.md §9.3; --rules names others)"
    )


def warning(players: int, rules: Rules) -> str | None:
    """A warning for rules under which a game of ``players`` may never end, else None."""
    missing = lacking(players, rules)
    if not missing:
        return None
    return (
        f"warning: with {players} players under these rules ({str(rules) or 'default'}) a game"
        " may never end: the scores drift away from 0 (R29, R31); the suggested rules add"
        f" {missing} (RULES.md §9.3)"
    )


def unfinished_advice(players: int, rules: Rules) -> str:
    """Why a game stopped at its deal limit, and what ends one (for its end message)."""
    missing = lacking(players, rules)
    why = "nobody reached 0 (R31)" + (" or 50 (R33)" if rules.plus_fifty else "")
    if not missing:
        return f"{why}; raise --max-deals to play on"
    return (
        f"{why}; with {players} players the scores drift away from 0 (R29):"
        f" play with {missing} to end the game (RULES.md §9.3)"
    )
