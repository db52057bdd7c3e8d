"""``python -m bohmisch_watten [demo]``: one seeded game between the library's bots, printed.

The printout is an omniscient log (it shows every hand) so a person can follow the
rules at work: the cut ritual, the trump card, folds and exchanges, every trick, the
points and the running scores, and at the end the winners and losers.  A legend at
the top names the card letters once.  The players are :class:`~bohmisch_watten.bots.HeuristicBot`
by default (``--bots`` picks others), so the game looks like one people play: random
players discard a Maxi, which teaches a newcomer the wrong thing.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final, TextIO

from ..actions import Action, Exchange, Fold, LeaveCritical, PlayCard, TakeCritical
from ..bots.base import Bot
from ..bots.heuristic import HeuristicBot
from ..bots.registry import make_bot
from ..cards import CRITICALS, Card, Suit
from ..errors import counted
from ..phases import Phase
from ..rules import Overshoot, Rules, Schleck
from ..state import GameState, new_game
from ._table_rules import pick_rules, suggestion_note, unfinished_advice, warning

__all__ = ["DESCRIPTION", "TAKES_RULES", "add_arguments", "play_and_print", "run"]

TAKES_RULES: Final = True
"""Gets ``--rules``: the games it starts are played under them."""

DESCRIPTION = "Play one game of Böhmisch Watten between the library's bots and print it."

LEGEND: Final = (
    "Legend: suits E = Acorns, G = Leaves, H = Hearts, S = Bells;"
    " ranks A K O U 10 9 8 7 (O = Ober, U = Unter);\n"
    "  HK = Maxi, S7 = Belli, E7 = Spitz (the Criticals, R7);\n"
    '  "seat N plays" = the seat stays in for the deal instead of folding (R18).'
)
"""Printed once under the title line: what the letters and "plays" mean."""

_CRITICAL_NAMES = dict(zip(CRITICALS, ("Maxi", "Belli", "Spitz"), strict=True))


def _card(card: Card) -> str:
    name = _CRITICAL_NAMES.get(card)
    return f"{card} ({name})" if name else str(card)


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards) or "-"


def _bool(text: str) -> bool:
    if text.lower() in ("true", "yes", "1", "on"):
        return True
    if text.lower() in ("false", "no", "0", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got {text!r}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The demo's options: player count, seed and one option per variant (RULES.md §8).

    A variant option overrides the same field of ``--rules``.
    """
    parser.add_argument(
        "--players",
        type=int,
        choices=range(2, 8),
        default=4,
        metavar="N",
        help="seats (R1): 2 to 4, or to 7 with --pack 36 (default 4)",
    )
    parser.add_argument(
        "--bots",
        default="heuristic",
        metavar="SPECS",
        help="comma-separated bot specs, one per seat or one for all (the arena's specs;"
        " default heuristic)",
    )
    parser.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")
    parser.add_argument("--dealer", type=int, default=0, help="first dealer's seat (R3)")
    parser.add_argument(
        "--max-deals",
        type=int,
        default=500,
        help="stop after this many deals (default 500)",
    )
    parser.add_argument(
        "--save",
        type=Path,
        metavar="PATH",
        help="write the game's record to PATH (JSON if it ends in .json, else the text"
        " form), for review PATH or examples/replay_record.py",
    )
    variants = parser.add_argument_group("variants (RULES.md §8)")
    variants.add_argument("--pack", type=int, choices=(32, 36), help="cards in the pack (R6)")
    variants.add_argument("--schleck", choices=[s.value for s in Schleck])
    variants.add_argument("--dealer-stock-limit", type=int, choices=(2, 3))
    variants.add_argument("--must-head", type=_bool, metavar="{true,false}")
    variants.add_argument("--overshoot", choices=[o.value for o in Overshoot])
    variants.add_argument("--plus-fifty", type=_bool, metavar="{true,false}")
    variants.add_argument("--start-score", type=int)
    variants.add_argument("--hearts-double", type=_bool, metavar="{true,false}")
    variants.add_argument("--min-fold-score", type=int)


def _print_deal_start(state: GameState, out: TextIO) -> None:
    """Called on the first EXCHANGE state of a deal: dealer, ritual, trump, hands."""
    n = state.num_players
    print(
        f"\n=== Deal {state.deal_number}: seat {state.dealer} deals,"
        f" seat {state.cutter} cuts, seat {state.forehand} is forehand ===",
        file=out,
    )
    if not state.cut_looks:
        print("Cut: nobody looks at the cut card", file=out)
    for seat, card, taken, critical in state.cut_looks:
        assert card is not None  # the state knows every card
        if taken:
            verdict = "takes it"
        elif critical:
            verdict = "leaves it at the bottom"
        else:
            verdict = "no Critical"
        print(f"Cut: seat {seat} looks at {_card(card)}: {verdict}", file=out)
    assert state.trump_card is not None
    assert state.trump_suit is not None
    doubled = (
        " (Hearts: the deal counts double, nobody may fold)"
        if state.trump_suit is Suit.HEARTS
        else ""
    )
    print(
        f"Trump card: {_card(state.trump_card)}, {state.trump_suit.label} are trumps{doubled}",
        file=out,
    )
    for seat in range(n):
        print(
            f"  seat {seat}: {_cards(state.hands[seat])}  ({counted(state.scores[seat], 'point')})",
            file=out,
        )


def _print_completed_trick(before: GameState, after: GameState, out: TextIO) -> None:
    """Print the trick that the last card completed, if it completed one."""
    if after.phase is Phase.PLAY:
        tricks = after.tricks
    else:  # the fifth trick: the deal was scored and is now in last_deal
        assert after.last_deal is not None
        tricks = after.last_deal.tricks
    if len(tricks) > len(before.tricks):
        trick = tricks[-1]
        plays = ", ".join(f"seat {s} {c}" for s, c in trick.plays)
        print(f"Trick {len(tricks)}: {plays} -> seat {trick.winner}", file=out)


def play_and_print(
    num_players: int,
    rules: Rules,
    seed: int,
    dealer: int,
    max_deals: int,
    out: TextIO,
    *,
    bots: Sequence[Bot] | None = None,
    note: str | None = None,
) -> GameState:
    """Play one game between ``bots`` seeded by ``random.Random(seed)`` and print it.

    The same generator draws the shuffles and hands itself to the bots, so a seed
    always prints the same game.  Each bot sees its seat's view only.

    Args:
        num_players: 2 to 4, or to 7 with ``rules.pack == 36`` (R1).
        rules: the variants to play with.
        seed: the seed of the one random generator.
        dealer: the first dealer's seat (R3).
        max_deals: stop (and say so) after this many deals without a winner.
        out: where to print.
        bots: one bot per seat; by default a :class:`~bohmisch_watten.bots.HeuristicBot`
            at every seat.
        note: a line printed under the title (the rules chosen for the table).

    Returns:
        The last state: the end of the game, or the state where it was stopped.

    Raises:
        ValueError: if ``bots`` does not have one bot per seat.
    """
    players = tuple(bots) if bots is not None else (HeuristicBot(),) * num_players
    if len(players) != num_players:
        raise ValueError(f"bots: {num_players} seats need {num_players} bots, got {len(players)}")
    rng = random.Random(seed)
    state = new_game(num_players, rules=rules, dealer=dealer)
    print(
        f"Böhmisch Watten, {num_players} players, seed {seed}, rules: {str(rules) or 'default'}",
        file=out,
    )
    legend = LEGEND if rules.pack == 32 else LEGEND.replace("8 7 (O", "8 7 6 (O")  # R6
    if note is not None:
        print(note, file=out)
    print(legend, file=out)
    while not state.is_terminal:
        action: Action
        if state.is_chance_node:
            if state.deal_number > max_deals:
                print(
                    f"\nStopped after {counted(max_deals, 'deal')} without a winner:"
                    f" {unfinished_advice(num_players, rules)}.",
                    file=out,
                )
                return state
            action = state.sample_chance(rng)
        else:
            assert state.current_player is not None
            action = players[state.current_player].choose(state.view(state.current_player), rng)
        seat = state.current_player
        before = state
        state = state.apply(action)
        if isinstance(action, (TakeCritical, LeaveCritical)):
            pass  # the ritual is printed once it is over
        elif isinstance(action, Fold):
            print(f"Exchange: seat {seat} folds", file=out)
        elif isinstance(action, Exchange):
            trump = " and takes the trump card" if action.take_trump_card else ""
            assert seat is not None
            drawn = set(state.hands[seat]) - set(before.hands[seat])  # an omniscient log
            drawn -= {state.trump_card}  # R19: a trump card taken is named above
            print(
                f"Exchange: seat {seat} plays, discards {len(action.discard)}"
                f" ({_cards(sorted(action.discard))}){trump}, draws {_cards(sorted(drawn))}",
                file=out,
            )
        elif isinstance(action, PlayCard):
            _print_completed_trick(before, state, out)
        if state.phase is Phase.EXCHANGE and before.phase in (Phase.DEAL, Phase.CUT):
            _print_deal_start(state, out)
        if state.phase in (Phase.DEAL, Phase.GAME_OVER) and state.last_deal is not before.last_deal:
            summary = state.last_deal
            assert summary is not None
            double = " (doubled: Hearts)" if summary.doubled else ""
            points = ", ".join(f"seat {s}: {p:+d}" for s, p in enumerate(summary.points))
            print(f"Points{double}: {points}", file=out)
            print(
                f"Scores: {', '.join(f'seat {s}: {p}' for s, p in enumerate(summary.scores))}",
                file=out,
            )
    print(f"\nGame over after {counted(state.deal_number, 'deal')}.", file=out)
    print(f"Winners: {', '.join(f'seat {s}' for s in state.winners)}", file=out)
    print(f"Losers: {', '.join(f'seat {s}' for s in state.losers)}", file=out)
    return state


_VARIANTS = (
    "pack",
    "schleck",
    "dealer_stock_limit",
    "must_head",
    "overshoot",
    "plus_fifty",
    "start_score",
    "hearts_double",
    "min_fold_score",
)


def _save(path: Path, state: GameState, seed: int, specs: Sequence[str]) -> None:
    """Write the game's record, tagged with the seed and each seat's bot (R35)."""
    tags = {"event": f"bohmisch_watten demo, seed {seed}"}
    tags.update({f"seat{seat}": spec for seat, spec in enumerate(specs)})
    record = state.record().with_tags(tags)
    text = record.to_json(indent=1) + "\n" if path.suffix.lower() == ".json" else record.to_text()
    path.write_text(text, encoding="utf-8")


def run(args: argparse.Namespace) -> int:
    """Play and print the game the options ask for; returns the exit status.

    Without ``--rules`` and variant options a table of five to seven plays
    :func:`~bohmisch_watten.suggested_rules` (said in a line under the title); rules
    under which its game may never end are played as given, with a warning.
    """
    try:
        given: dict[str, Any] = {
            name: getattr(args, name) for name in _VARIANTS if getattr(args, name) is not None
        }
        pack = given.get("pack", (args.rules or Rules()).pack)
        max_players = Rules(pack=pack).max_players
        if args.players > max_players:
            raise ValueError(
                f"--players {args.players}: {pack} cards seat 2 to {max_players}"
                " players (R1); five to seven play with --pack 36"
            )
        rules, suggested = pick_rules(args.players, args.rules, given)
        if not 0 <= args.dealer < args.players:
            raise ValueError(f"--dealer must be a seat from 0 to {args.players - 1}")
        specs = [spec for spec in args.bots.split(",") if spec.strip()] or ["heuristic"]
        if len(specs) == 1:
            specs *= args.players
        if len(specs) != args.players:
            raise ValueError(f"--bots: {args.players} seats need 1 or {args.players} bot specs")
        bots = [make_bot(spec) for spec in specs]
        if args.save is not None and not args.save.parent.is_dir():
            raise ValueError(f"--save {args.save}: no folder {args.save.parent}")
    except (ValueError, ImportError) as error:  # ImportError: a bot's extra is missing
        print(f"error: {error}", file=sys.stderr)
        return 2
    note = suggestion_note(args.players, rules) if suggested else None
    caution = None if suggested else warning(args.players, rules)
    if caution is not None:
        print(caution, file=sys.stderr)
    end = play_and_print(
        args.players, rules, args.seed, args.dealer, args.max_deals, sys.stdout,
        bots=bots, note=note,
    )  # fmt: skip
    if args.save is not None:
        try:
            _save(args.save, end, args.seed, specs)
        except OSError as error:
            print(f"error: --save {args.save}: {error.strerror or error}", file=sys.stderr)
            return 2
        print(f"\nSaved the record to {args.save}.")
    return 0
