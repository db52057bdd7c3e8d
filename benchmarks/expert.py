"""Strength and speed of ExpertBot (a script, not a timed test).

Plays the pairings of the expert's strength targets in the duplicate arena (seats
rotated) and prints each table (win rate with its 95 % Wilson interval, the p-value
against the fair share, the mean ms per decision), then measures the expert's time per
decision on a fixed set of decision views (median and mean, CPU and wall clock):

    python benchmarks/expert.py --games 400 --seed 7 --jobs 2        # the full measurement
    python benchmarks/expert.py --games 20 --pairings heuristic4     # a quick look

Each pairing is played in chunks of ``--chunk`` games, chunk ``i`` with seed
``seed + i`` (each chunk is a complete duplicate arena of its own); the table printed
after every chunk aggregates all the games so far, and ``--json-dir`` keeps it on disk,
so a run stopped early still reports honest partial figures with their game count.

``--paired-deals N`` is the fast, low-noise inner loop for comparing variants of the
expert: N deal starts from heuristic games (``--starts-by`` another bot's), each dealt
once and played with the variant in every seat in turn against ``--opponent`` bots;
each variant's points per deal are compared, deal by deal, with the first variant's on
the same cards (a paired difference with its standard error; negative is better,
points count toward zero).
The second figure is the race's (R31): the variant's points less the mean points of
the other seats in the same deal, its lead gained; a fold scores 0 (R29) but lets the
others share the tricks, which the first figure does not see.  The third is what the
targets count, games won (R31–R34): the change of the seat's chance to win the game
over the deal, in percent, from the race model of ``bohmisch_watten.bots._race``
(exact when the deal ends the game); positive is better.
A variant ``SPEC|play`` lets the heuristic play its cards, ``SPEC|fold`` lets the
heuristic decide whether to fold (the variant still picks the exchange), ``SPEC|exchange``
lets the heuristic decide the fold and the exchange.  ``--deals 2`` plays two deals
from each start (the second dealt alike for every variant), so that a fold's cost in
the next deal, where R21.4 forbids folding again, is counted:

    python benchmarks/expert.py --speed-views 0 --pairings "" --paired-deals 150 \
        --variants "expert,expert|play,expert|fold,expert:fold_bonus=0"

The pairings (the targets of the expert):

* ``search4``: expert against three ``SearchBot()`` (target: 35 %, interval above 25 %);
* ``heuristic4``: expert against three ``HeuristicBot`` (target: 50 %);
* ``search2``: two players, expert against ``SearchBot()`` (target: 60 %);
* ``search3``: three players, expert against two ``SearchBot()`` (target: 42 %).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import time
from pathlib import Path

from bots import decision_views  # the same decision set as benchmarks/bots.py

from bohmisch_watten import Fold, GameState, Rules, new_game
from bohmisch_watten.actions import Action, Shuffle
from bohmisch_watten.arena import GameResult, run_arena
from bohmisch_watten.arena.report import summarize, to_json_dict, to_table
from bohmisch_watten.bots import Bot, ExpertBot, HeuristicBot, make_bot
from bohmisch_watten.bots._race import win_chances
from bohmisch_watten.position import Position
from bohmisch_watten.views import PlayerView

PAIRINGS = {
    "search4": (4, "search"),
    "heuristic4": (4, "heuristic"),
    "search2": (2, "search"),
    "search3": (3, "search"),
}


def decision_times(
    spec: str, views: list[PlayerView], players: int = 4, choices: str | None = None
) -> None:
    """Print the median and mean time per decision, CPU and wall, by phase and overall.

    ``choices`` names a file to write the chosen actions to, one a line: two runs, one
    with ``BOHMISCH_WATTEN_NATIVE=0``, compare the cores' choices on the same decisions.
    """
    bot = make_bot(spec)
    rng = random.Random(0)
    cpu: dict[str, list[float]] = {}
    wall: dict[str, list[float]] = {}
    chosen: list[str] = []
    for view in views:
        c0, w0 = time.process_time(), time.perf_counter()
        action = bot.choose(view, rng)
        c1, w1 = time.process_time(), time.perf_counter()
        chosen.append(str(action))
        for key in (view.phase.value, "all"):
            cpu.setdefault(key, []).append(1000 * (c1 - c0))
            wall.setdefault(key, []).append(1000 * (w1 - w0))
    print(f"\n{spec} on {len(views)} decisions with a choice ({players} players), ms per decision:")
    print(f"{'phase':10s} {'n':>4s} {'median cpu':>11s} {'mean cpu':>9s} {'median wall':>12s}")
    for key in sorted(cpu, key=lambda k: (k == "all", k)):
        c, w = cpu[key], wall[key]
        print(
            f"{key:10s} {len(c):4d} {statistics.median(c):11.1f} {statistics.mean(c):9.1f}"
            f" {statistics.median(w):12.1f}"
        )
    if choices:
        Path(choices).write_text("\n".join(chosen) + "\n", encoding="utf-8")


def play(name: str, args: argparse.Namespace) -> None:
    """One pairing, chunk by chunk, printing the aggregated table after each chunk."""
    players, opponent = PAIRINGS[name]
    bots = [args.expert] + [opponent] * (players - 1)
    results: list[GameResult] = []
    start = time.perf_counter()
    chunks = -(-args.games // args.chunk)
    for i in range(chunks):
        summary, chunk = run_arena(
            bots, players=players, games=args.chunk, seed=args.seed + i, jobs=args.jobs
        )
        results += chunk
        total = summarize(summary.setup, results)
        print(
            f"\n{name}: {', '.join(bots)} — {len(results)} games, seeds {args.seed}"
            f"..{args.seed + i}, {time.perf_counter() - start:.0f} s, --jobs {args.jobs}"
        )
        print(to_table(total))
        if args.json_dir:
            document = to_json_dict(total)
            document["seeds"] = [args.seed, args.seed + i]
            path = Path(args.json_dir) / f"expert-{name}.json"
            path.write_text(json.dumps(document, indent=1))


class _Swapped:
    """A variant with the heuristic's decision in one phase (``|play``, ``|fold`` or
    ``|exchange``, the fold and the exchange)."""

    def __init__(self, bot: ExpertBot, swap: str) -> None:
        self.bot, self.swap, self.heuristic = bot, swap, HeuristicBot()

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = view.legal_actions()
        if len(legal) > 1 and self.swap == "play" and view.phase.value == "play":
            return self.heuristic.choose(view, rng)
        if len(legal) > 1 and self.swap == "exchange" and view.phase.value == "exchange":
            return self.heuristic.choose(view, rng)
        if len(legal) > 1 and self.swap == "fold" and Fold() in legal:
            if self.heuristic.choose(view, rng) == Fold():
                return Fold()
            return next(a for a, _ in self.bot.search(view, rng) if a != Fold())
        return self.bot.choose(view, rng)


def _variant(spec: str) -> Bot:
    base, _, swap = spec.partition("|")
    bot = make_bot(base)
    if not swap:
        return bot
    if swap not in ("play", "fold", "exchange") or not isinstance(bot, ExpertBot):
        raise SystemExit(f"bad variant {spec!r}: SPEC|play, |fold or |exchange of an expert")
    return _Swapped(bot, swap)


def deal_starts(
    count: int, players: int, seed: int, endgame: bool = False, by: str = "heuristic"
) -> list[tuple[GameState, Shuffle]]:
    """Deal starts (with their shuffles) from games of ``by`` bots: realistic scores, and
    finished deals played as those bots play.

    With ``endgame`` the starts are instead deal 8 of a game with every score drawn
    from 1 to 14 and at least one of 5 or less (R21.3, R31): the end of a game, which
    heuristic games, whose scores drift, seldom reach.
    """
    rng = random.Random(seed)
    out: list[tuple[GameState, Shuffle]] = []
    if endgame:
        while len(out) < count:
            scores = tuple(rng.randint(1, 14) for _ in range(players))
            if min(scores) <= 5:
                position = Position(
                    players, Rules(), rng.randrange(players), 8, scores, (False,) * players
                )
                state = GameState.from_position(position)
                out.append((state, state.sample_chance(rng)))
        return out
    bot = make_bot(by)
    while len(out) < count:
        state = new_game(players, dealer=rng.randrange(players))
        while not state.is_terminal and len(out) < count:
            if state.is_chance_node:
                shuffle = state.sample_chance(rng)
                if rng.random() < 0.35:
                    out.append((state, shuffle))
                state = state.apply(shuffle)
            else:
                state = state.apply(bot.choose(state.view(state.current_player), rng))  # type: ignore[arg-type]
    return out


def _one_deal(
    task: tuple[int, GameState, Shuffle, int, str, str, int],
) -> tuple[int, int, int, float, float]:
    """The variant's points in ``deals`` deals from the start (one by default), in one
    seat, the others ``opponent``, those points less the mean points of the other
    seats, and the change of the seat's chance to win the game.

    The shuffles after the first are drawn from the start's index alone, so every
    variant and seat meets the same cards: a fold in the first deal then pays its cost
    in the second, where R21.4 forbids the next fold.
    """
    index, state, shuffle, seat, spec, opponent, deals = task
    bots = [make_bot(opponent) for _ in range(state.num_players)]
    bots[seat] = _variant(spec)
    rng = random.Random(1000 * index + seat)
    shuffles = random.Random(7919 * index + 17)
    now = state.apply(shuffle)
    for played in range(deals):
        if played:
            if now.is_terminal:
                break
            assert now.is_chance_node
            now = now.apply(now.sample_chance(shuffles))
        deal = now.deal_number
        while not now.is_terminal and now.deal_number == deal and not now.is_chance_node:
            player = now.current_player
            now = now.apply(bots[player].choose(now.view(player), rng))  # type: ignore[index, arg-type]
    gained = [after - before for after, before in zip(now.scores, state.scores, strict=True)]
    # The race (R31): what counts is the lead over the others, so the seat's points are
    # also reported against the mean of the other seats' points in the same deal.
    others = (sum(gained) - gained[seat]) / (len(gained) - 1)
    # What the targets count is games won (R31-R34): the race model's chance before and
    # after the deal, exact once the deal ended the game.
    chance = win_chances(now.scores, now.rules)[seat] - win_chances(state.scores, state.rules)[seat]
    return index, seat, gained[seat], gained[seat] - others, chance


def paired_deals(args: argparse.Namespace) -> None:
    """Print each variant's mean points a deal and its paired difference to the first."""
    starts = deal_starts(args.paired_deals, args.players, args.seed, args.endgame, args.starts_by)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    first: dict[tuple[int, int], tuple[int, float, float]] = {}
    print(
        f"{len(starts)} deal starts x {args.players} seats, seed {args.seed},"
        f"{' at the end of a game,' if args.endgame else ''}"
        f" opponents {args.opponent}, {args.deals} deal(s) from each; points, then points"
        " less the others' mean, then the chance to win the game gained, in percent (race model)"
    )
    with multiprocessing.Pool(args.jobs) as pool:
        for spec in variants:
            start = time.perf_counter()
            tasks = [
                (i, state, shuffle, seat, spec, args.opponent, args.deals)
                for i, (state, shuffle) in enumerate(starts)
                for seat in range(args.players)
            ]
            points = {
                (i, seat): (p, lead, 100 * chance)
                for i, seat, p, lead, chance in pool.map(_one_deal, tasks, chunksize=4)
            }
            line = f"{spec:45s}"
            for k in (0, 1, 2):
                line += f" {statistics.mean(v[k] for v in points.values()):+.3f}"
                if first:
                    diffs = [p[k] - first[key][k] for key, p in points.items()]
                    error = statistics.stdev(diffs) / math.sqrt(len(diffs))
                    line += f" ({statistics.mean(diffs):+.3f} ± {error:.3f})"
            if not first:
                first = points
            print(f"{line} ({time.perf_counter() - start:.0f} s)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per pairing")
    parser.add_argument("--seed", type=int, default=7, help="seed of the first chunk")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=40, help="games per chunk")
    parser.add_argument("--expert", default="expert", help="the expert's bot spec")
    parser.add_argument(
        "--pairings", default=",".join(PAIRINGS), help=f"comma-separated: {', '.join(PAIRINGS)}"
    )
    parser.add_argument("--speed-views", type=int, default=200)
    parser.add_argument(
        "--speed-players",
        type=int,
        default=4,
        choices=(2, 3, 4),
        help="players of the timed decisions' games",
    )
    parser.add_argument("--json-dir", default=None, help="write expert-PAIRING.json here")
    parser.add_argument(
        "--speed-choices", default=None, help="write the timed decisions' actions to this file"
    )
    parser.add_argument("--paired-deals", type=int, default=0, help="deal starts to compare")
    parser.add_argument("--variants", default="expert", help="comma-separated bot specs")
    parser.add_argument("--players", type=int, default=4, help="players of the paired deals")
    parser.add_argument(
        "--endgame", action="store_true", help="paired deals at the end of a game (a score ≤ 5)"
    )
    parser.add_argument("--opponent", default="heuristic", help="the paired deals' others")
    parser.add_argument(
        "--deals", type=int, default=1, help="deals played from each paired start (R21.4)"
    )
    parser.add_argument(
        "--starts-by", default="heuristic", help="the bot whose games give the deal starts"
    )
    args = parser.parse_args()
    if args.deals < 1:
        parser.error(f"--deals must be at least 1, got {args.deals}")

    if args.speed_views:
        views = decision_views(args.speed_views, args.seed, args.speed_players)
        decision_times(args.expert, views, args.speed_players, args.speed_choices)
    for name in args.pairings.split(","):
        if name:
            play(name.strip(), args)
    if args.paired_deals:
        paired_deals(args)


if __name__ == "__main__":
    main()
