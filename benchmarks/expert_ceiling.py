"""What the hidden cards are worth: the expert when it may look at every card.

A script, not a test::

    python benchmarks/expert_ceiling.py --players 2 --opponent search --games 100
    python benchmarks/expert_ceiling.py --players 4 --opponent heuristic --sees play

A *seer* plays one seat against ``--opponent`` bots.  It is :class:`ExpertBot` with its
sampled worlds replaced by the true state (:meth:`ExpertBot.world_values
<bohmisch_watten.bots.ExpertBot.world_values>`), so its decisions are those of the
expert's search in the one world that is real:

* ``--sees all``: in the exchange and the fold (R18–R21) and in card play (R24–R27)
  it knows every hand and the order of the stock, so it knows what it would draw;
* ``--sees play``: it decides the exchange and the fold as the fair expert does, from
  its view, and sees every hand in card play only;
* ``--sees hands``: it sees every hand, in the exchange and the fold too, but not the
  order of the stock: each exchange or fold is valued in :data:`STOCKS` worlds with the
  true hands and the stock shuffled anew (the cards it looked at in the ritual, R13,
  stay at the bottom).  That is the most any inference of the opponents' hands from
  their actions could give the exchange and the fold, and a loose bound: knowing every
  hand also tells which cards are left in the stock.

``--regret`` plays the fair expert instead and prints what its decisions cost by the
seer's values: per trick in card play (the seer in the true deal), and by kind in the
exchange and the fold (the ``--sees hands`` seer).

The games are played in the duplicate format: game ``g`` deals the same shuffles
whichever seat the seer holds, and the seer takes each seat in turn.  Each line prints
the seer's win rate with its 95 % Wilson interval.  Comparing it with the fair expert's
rate against the same opponents (``benchmarks/expert.py``) splits the expert's distance
from a perfect player into what card play could still gain and what only the exchange
and the fold (and the stock's luck) hold.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from collections.abc import Callable

import attrs

from bohmisch_watten import Fold, GameState, new_game
from bohmisch_watten.actions import Action
from bohmisch_watten.arena.stats import wilson_interval
from bohmisch_watten.bots import Bot, ExpertBot, make_bot
from bohmisch_watten.bots.policy import decide
from bohmisch_watten.phases import Phase


def seer_action(
    state: GameState, fair: ExpertBot, seer: ExpertBot, sees: str, rng: random.Random
) -> Action:
    """The seer's action at its decision in the true ``state``."""
    seat = state.current_player
    assert seat is not None
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    view = state.view(seat)
    if sees == "hands" and state.phase is Phase.EXCHANGE:
        means = hands_values(state, seer, list(legal), rng)
        return legal[max(range(len(legal)), key=means.__getitem__)]
    looks = state.phase is Phase.PLAY or (sees == "all" and state.phase is Phase.EXCHANGE)
    if not looks:  # the cut, or a fair exchange
        return fair.choose(view, rng)
    values = seer.world_values(view, state, legal)
    return legal[max(range(len(legal)), key=values.__getitem__)]


STOCKS = 40
"""Worlds per exchange decision of ``--sees hands`` (the fair expert's ``exchange_samples``)."""


def reshuffled_stock(state: GameState, rng: random.Random) -> GameState:
    """``state`` with the stock's order drawn anew: every hand stays true (R18–R20).

    The bottom cards the ritual turned up (R13: one per look not taken, the last cards
    of the stock) stay where they are; the rest of the stock is shuffled.
    """
    fields = state.deal_fields
    kept = sum(1 for _, _, taken in fields.cut if not taken)
    bottom = len(fields.pack) - kept
    free = list(fields.pack[:bottom])
    rng.shuffle(free)
    return attrs.evolve(state, deal_fields=fields._replace(pack=(*free, *fields.pack[bottom:])))


def game_start(
    g: int, seat: int, players: int, opponent: str, seed: int
) -> tuple[random.Random, random.Random, Bot, ExpertBot, GameState]:
    """Game ``g``'s generators (its shuffles the same whichever seat is watched), the
    others' bot, the seer and the first state."""
    chance = random.Random(seed * 1_000_003 + g)
    rng = random.Random(seed * 7_919 + 31 * g + seat)
    seer = ExpertBot(leaf="respond" if players > 2 else "solver")
    return chance, rng, make_bot(opponent), seer, new_game(players, dealer=g % players)


def one_game(task: tuple[int, int, int, str, str, int]) -> tuple[bool, bool]:
    """Whether the seer in ``seat`` won and whether it lost game ``g``."""
    g, seat, players, opponent, sees, seed = task
    chance, rng, bot, seer, state = game_start(g, seat, players, opponent, seed)
    fair = ExpertBot()
    while not state.is_terminal:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(chance))
        elif state.current_player == seat:
            state = state.apply(seer_action(state, fair, seer, sees, rng))
        else:
            state = state.apply(bot.choose(state.view(state.current_player), rng))  # type: ignore[arg-type]
    return seat in state.winners, seat in state.losers


CardRow = tuple[int, bool, float, float]
"""``(trick, follows, regret, heuristic's regret)`` of one card play with a choice."""
ExchangeRow = tuple[bool, bool, bool, float, bool, bool, float]
"""``(fold allowed, the expert folded, the seer folds, regret, first, dealer,
heuristic's regret)`` of one exchange decision; ``first``: no other seat had decided
yet, so there was nothing to infer from; ``dealer``: the seat is the dealer (R19)."""


def hands_values(
    state: GameState, seer: ExpertBot, legal: list[Action], rng: random.Random
) -> list[float]:
    """The seer's mean value of each of ``legal`` in :data:`STOCKS` worlds with every
    hand true and the stock shuffled anew (``--sees hands``)."""
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    totals = [0.0] * len(legal)
    for _ in range(STOCKS):
        world = reshuffled_stock(state, rng)
        for i, value in enumerate(seer.world_values(view, world, legal)):
            totals[i] += value
    return [total / STOCKS for total in totals]


def regret_game(
    task: tuple[int, int, int, str, str, int, str],
) -> tuple[list[CardRow], list[ExchangeRow]]:
    """The fair expert's regrets in one game, by the seer's values.

    For every card play with a choice, the seer's value of its best card less that of
    the expert's card and less that of the heuristic's card.  For every exchange or
    fold with a choice (R18–R21), the value, to the seer who sees every hand but not
    the stock's order, of its best action less that of the expert's: the best is picked
    in one set of :data:`STOCKS` worlds and both are valued in another.
    """
    g, seat, players, opponent, _, seed, spec = task
    chance, rng, bot, seer, state = game_start(g, seat, players, opponent, seed)
    fair = make_bot(spec)
    rows: list[CardRow] = []
    exchanges: list[ExchangeRow] = []
    while not state.is_terminal:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(chance))
            continue
        mover = state.current_player
        assert mover is not None
        view = state.view(mover)
        if mover != seat:
            state = state.apply(bot.choose(view, rng))
            continue
        action = fair.choose(view, rng)
        legal = list(state.legal_actions())
        if state.phase is Phase.PLAY and len(legal) > 1:
            values = seer.world_values(view, state, legal)
            best = max(values)
            usual = decide(state.phase, legal, view.hand, view.trick, view.trump_card)
            rows.append(
                (
                    len(state.played_tricks) + 1,
                    bool(state.trick_plays),
                    best - values[legal.index(action)],
                    best - values[legal.index(usual)],
                )
            )
        elif state.phase is Phase.EXCHANGE and len(legal) > 1:
            # The seer's best is chosen in one set of worlds and judged in another, so
            # the noise that made it look best does not count as regret.
            chosen = hands_values(state, seer, legal, rng)
            top = max(range(len(legal)), key=chosen.__getitem__)
            values = hands_values(state, seer, legal, rng)
            usual = decide(state.phase, legal, view.hand, view.trick, view.trump_card)
            exchanges.append(
                (
                    Fold() in legal,
                    isinstance(action, Fold),
                    isinstance(legal[top], Fold),
                    values[top] - values[legal.index(action)],
                    all(view.exchange_counts[q] < 0 and not view.folded[q] for q in range(players)),
                    seat == state.dealer,
                    values[top] - values[legal.index(usual)],
                )
            )
        state = state.apply(action)
    return rows, exchanges


def print_regrets(rows: list[CardRow], games: int) -> None:
    """The card-play table of ``--regret``: per trick, leads then follows."""
    total = sum(row[2] for row in rows)
    print(f"{len(rows)} card plays with a choice in {games} games; regret {total:.1f} in all")
    print("trick  play     plays  not the best  mean regret  share  heuristic's regret")
    for trick in range(1, 6):
        for follows in (False, True):
            part = [row for row in rows if row[0] == trick and row[1] == follows]
            if not part:
                continue
            wrong = sum(1 for row in part if row[2] > 1e-9)
            mine = sum(row[2] for row in part)
            usual = sum(row[3] for row in part) / len(part)
            print(
                f"{trick:5d}  {'follow' if follows else 'lead  '}  {len(part):6d}"
                f"  {wrong / len(part):12.1%}  {mine / len(part):11.3f}"
                f"  {mine / total if total else 0.0:5.1%}  {usual:18.3f}"
            )


def print_exchange_regrets(rows: list[ExchangeRow], games: int) -> None:
    """The exchange table of ``--regret``: by what the expert did and the seer would."""
    total = sum(row[3] for row in rows)
    print(f"{len(rows)} exchanges or folds with a choice in {games} games; regret {total:.1f}")
    print(f"{'decision':42s}  count  mean regret  share  heuristic's regret")
    kinds: tuple[tuple[str, Callable[[ExchangeRow], bool]], ...] = (
        ("no fold allowed: exchange, decides first", lambda r: not r[0] and r[4]),
        ("no fold allowed: the dealer's exchange", lambda r: not r[0] and r[5]),
        ("no fold allowed: exchange, decides later", lambda r: not r[0] and not r[4] and not r[5]),
        ("both play (the exchange may differ)", lambda r: r[0] and not r[1] and not r[2]),
        ("the expert plays, the seer folds", lambda r: r[0] and not r[1] and r[2]),
        ("the expert folds, the seer plays", lambda r: r[0] and r[1] and not r[2]),
        ("both fold", lambda r: r[0] and r[1] and r[2]),
    )
    for name, test in kinds:
        part = [row for row in rows if test(row)]
        if part:
            mine = sum(row[3] for row in part)
            usual = sum(row[6] for row in part) / len(part)
            print(
                f"{name:42s}  {len(part):5d}  {mine / len(part):11.3f}"
                f"  {mine / total if total else 0.0:5.1%}  {usual:18.3f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--opponent", default="search", help="the other seats' bot spec")
    parser.add_argument("--sees", default="all", choices=("all", "play", "hands"))
    parser.add_argument("--games", type=int, default=100, help="deal sequences (x seats)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--regret",
        action="store_true",
        help="the fair expert's regret: per trick in card play, by kind in the exchange",
    )
    parser.add_argument("--expert", default="expert", help="the fair expert of --regret")
    args = parser.parse_args()
    tasks = [
        (g, seat, args.players, args.opponent, args.sees, args.seed)
        for g in range(args.games)
        for seat in range(args.players)
    ]
    if args.regret:
        rows: list[CardRow] = []
        exchanges: list[ExchangeRow] = []
        with multiprocessing.Pool(args.jobs) as pool:
            for cards, swaps in pool.imap_unordered(
                regret_game, [(*t, args.expert) for t in tasks]
            ):
                rows += cards
                exchanges += swaps
        print_regrets(rows, len(tasks))
        print_exchange_regrets(exchanges, len(tasks))
        return
    wins = losses = done = 0
    start = time.perf_counter()
    print(
        f"seer (sees {args.sees}) against {args.players - 1} x {args.opponent},"
        f" {len(tasks)} games, seed {args.seed}"
    )
    with multiprocessing.Pool(args.jobs) as pool:
        for won, lost in pool.imap_unordered(one_game, tasks):
            wins, losses, done = wins + won, losses + lost, done + 1
            if done % (5 * args.players) == 0 or done == len(tasks):
                low, high = wilson_interval(wins, done)
                print(
                    f"{done:5d} games: wins {wins / done:6.1%} (95 % CI {low:.1%}–{high:.1%}),"
                    f" losses {losses / done:6.1%}, {time.perf_counter() - start:.0f} s",
                    flush=True,
                )


if __name__ == "__main__":
    main()
