"""Cost of the web table's work per move: one move, one frame per seat, one SVG table.

A script, not a test: ``python benchmarks/web_table.py [--moves N] [--seed S] [--players P]
[--rules TEXT]``.  People only (no bots, so no search time is counted; four by default,
up to seven with ``--rules pack=36``) play seeded random moves; per move the script times
applying it through :class:`~bohmisch_watten.web.Table` (which also describes it per seat
and writes the logs), building every seat's frame and encoding it as JSON, writing every
seat's frame text the way the server does (``Table.frame_text``), and drawing
``table_svg`` of the seat to act.  Medians in microseconds, and the median frame size in
bytes.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from bohmisch_watten.rules import rules_from_text
from bohmisch_watten.svg import table_svg
from bohmisch_watten.web import Table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rules", default="start_score=15")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    players = args.players
    rules = rules_from_text(args.rules)
    table = Table(players=players, humans=players, seed=args.seed, rules=rules)
    apply_us: list[float] = []
    frames_us: list[float] = []
    texts_us: list[float] = []
    svg_us: list[float] = []
    sizes: list[int] = []
    for _ in range(args.moves):
        if table.state.is_terminal:
            table.new_game(table.host)
        start = time.perf_counter()
        if table.needs_auto:
            table.step()
        else:
            seat = table.state.current_player
            assert seat is not None
            table.act(seat, str(rng.choice(table.state.legal_actions())))
        apply_us.append((time.perf_counter() - start) * 1e6)
        start = time.perf_counter()
        texts = [json.dumps(table.frame(seat)) for seat in range(players)]
        frames_us.append((time.perf_counter() - start) * 1e6)
        sizes.append(len(texts[0]))
        start = time.perf_counter()
        for seat in range(players):
            table.frame_text(seat)
        texts_us.append((time.perf_counter() - start) * 1e6)
        seat = table.state.current_player
        if seat is not None:
            start = time.perf_counter()
            table_svg(table.state.view(seat))
            svg_us.append((time.perf_counter() - start) * 1e6)
    print(f"{args.moves} moves, {players} seats, rules {rules}")
    print(f"  apply + describe + log per move: {statistics.median(apply_us):8.0f} µs (median)")
    print(f"  every seat's frame as JSON:      {statistics.median(frames_us):8.0f} µs (median)")
    print(f"  every seat's frame_text:         {statistics.median(texts_us):8.0f} µs (median)")
    print(f"  table_svg of one view:           {statistics.median(svg_us):8.0f} µs (median)")
    print(f"  frame size:                      {statistics.median(sizes):8.0f} bytes (median)")


if __name__ == "__main__":
    main()
