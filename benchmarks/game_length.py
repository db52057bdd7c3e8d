"""How often a game ends, and after how many deals, by table size and bot (R28-R33).

A script, not a test: ``python benchmarks/game_length.py [--games G] [--cap C]
[--players 4 5 6 7] [--bots random heuristic] [--rules pack=36 ...]``.

Every seat plays the same bot; game ``g`` is seeded with ``g`` (the shuffles and the
bots' generators), so a row is repeatable.  A game still running after ``--cap`` deals
is counted as not ended.  With five to seven players each deal hands +5 (R29) to every
active player who takes no trick, and R21 lets nobody fold two deals running, so the
scores can drift away from zero; this script measures how much that happens.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bohmisch_watten import new_game
from bohmisch_watten.bots.registry import make_bot
from bohmisch_watten.notation import parse_rules


def play(players: int, rules_text: str, bot_spec: str, seed: int, cap: int) -> int | None:
    """The deals game ``seed`` took, or None if it was still running after ``cap``."""
    rules = parse_rules(rules_text)
    rng = random.Random(seed)
    bot = make_bot(bot_spec)
    state = new_game(players, rules=rules)
    while not state.is_terminal:
        if state.is_chance_node:
            if state.deal_number > cap:
                return None
            state = state.apply(state.sample_chance(rng))
        else:
            seat = state.current_player
            assert seat is not None
            state = state.apply(bot.choose(state.view(seat), rng))
    return state.deal_number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--cap", type=int, default=300)
    parser.add_argument("--players", type=int, nargs="+", default=[4, 5, 6, 7])
    parser.add_argument("--bots", nargs="+", default=["random", "heuristic"])
    parser.add_argument("--rules", nargs="+", default=["pack=36", "pack=36,plus_fifty=true"])
    args = parser.parse_args()
    print("| rules | players | bot | ended | median deals of the ended | seconds |")
    print("|---|---:|---|---:|---:|---:|")
    for rules_text in args.rules:
        for players in args.players:
            for bot in args.bots:
                start = time.perf_counter()
                lengths = [play(players, rules_text, bot, g, args.cap) for g in range(args.games)]
                ended = [n for n in lengths if n is not None]
                median = f"{statistics.median(ended):.0f}" if ended else "-"
                print(
                    f"| {rules_text} | {players} | {bot} | {len(ended)}/{args.games} | {median}"
                    f" | {time.perf_counter() - start:.1f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
