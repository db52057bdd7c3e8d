"""Train a policy network on the CPU (imitation, then masked PPO), then play it as a bot.

Needs the ``[train]`` extra (PyTorch, CPU) and ``[plot]`` for ``--plot``.  Run it
after ``make demo`` (which creates ``.venv``) and ``.venv/bin/pip install -e
'.[train,plot]'`` (``make test`` installs both): ``make example NAME=train_policy
ARGS="--minutes 60 --out runs/policy.pt --plot runs/curve.png"`` or
``.venv/bin/python examples/train_policy.py --minutes 60 --out runs/policy.pt``.

Every decision of 64 parallel four-player games is one row of a batch: the games are
plain :class:`~bohmisch_watten.GameState` objects and the observations and masks of
all 64 acting seats come from one :class:`~bohmisch_watten.adapters.fast.Encoder` call
(the numbers of :func:`bohmisch_watten.encoding.observation`, proven equal).  Half of
the games are self-play (every seat is the network), half put the network in one seat
against three :class:`~bohmisch_watten.bots.HeuristicBot` players.  A seat's reward is
the deal's result for it, minus its score change (R29–R32: +1 per trick, −5 for none,
doubled with Hearts, 0 when folded), paid to every decision it made in that deal.

Two phases.  For the first ``--imitate`` minutes (4) the network's seats play the
heuristic's action and the network learns it (cross-entropy; the value learns the
deals' results): a policy that starts from random weights loses nearly every game
against the heuristic, and PPO alone did not get past 15 % in 40 minutes.  Then
masked PPO (illegal ids masked out of the softmax, R12, R18–R26; clipped ratio 0.2, a
value baseline, an entropy bonus) with ``--keep`` (0.05) times the cross-entropy to the
heuristic's action kept in the loss, so that what the rewards do not yet teach stays
close to the heuristic's play.  The network's exchange head
(:class:`~bohmisch_watten.bots.learned.PolicyNet`) scores a discard by its card, which
is what lets it learn the exchange at all.

A training minute is a minute of this process's CPU time (one torch thread), so a
shared machine does not shorten it.  After every minute (evaluation not counted) the
greedy network plays whole games (R31–R34) in every seat against three RandomBots and
against three HeuristicBots; the win rate is the share of games it is among the
winners (R34).  The checkpoint, written after each evaluation, plays with
``make_bot("policy:PATH")``; ``--evaluate PATH`` plays a checkpoint on fresh seeds.

Measured curve (``--minutes 60 --imitate 4 --eval-games 200``, seed 0, on the 2-core
machine, 2026-12-02, another job on the other core; about 87,000 decisions a training
minute; 200 games per point, so each rate is ±7 percentage points)::

    minute  decisions  vs 3 RandomBots  vs 3 HeuristicBots
       0.0          0            30.0%                0.0%
       1.0     82,560            96.5%               18.0%
       2.0    176,512            91.5%               19.5%
       3.0    262,272            97.0%               18.0%
       4.0    347,840            95.0%               19.5%
       5.0    431,488            94.5%               27.5%
       6.0    517,184            93.5%               30.0%
       7.0    602,816            95.5%               39.0%
       8.0    692,608            91.5%               37.0%
       9.0    776,320            89.5%               35.5%
      10.0    858,112            93.0%               31.5%
      11.0    922,560            92.5%               33.5%
      12.0    989,120            94.0%               36.5%
      13.0  1,057,984            95.0%               29.0%
      14.0  1,130,816            93.5%               37.5%
      15.0  1,212,672            91.0%               29.0%
      16.0  1,290,112            92.0%               35.5%
      17.0  1,373,696            90.5%               35.0%
      18.0  1,455,296            93.0%               36.0%
      19.0  1,536,832            93.5%               39.5%
      20.0  1,615,808            94.5%               35.0%
      21.0  1,697,536            92.0%               32.5%
      22.0  1,782,976            95.5%               35.0%
      23.0  1,864,128            93.5%               39.0%
      24.0  1,947,712            93.5%               30.0%
      25.0  2,028,992            92.0%               30.0%
      26.0  2,114,368            93.5%               35.0%
      27.0  2,195,904            93.5%               33.5%
      28.0  2,277,376            94.0%               28.0%
      29.0  2,363,328            89.0%               33.0%
      30.0  2,440,384            93.5%               32.0%
      31.0  2,524,032            90.0%               38.5%
      32.0  2,611,520            92.5%               37.0%
      33.0  2,696,896            92.5%               39.0%
      34.0  2,782,464            96.5%               37.5%
      35.0  2,867,904            94.0%               34.5%
      36.0  2,953,664            92.0%               32.0%
      37.0  3,037,440            93.5%               32.5%
      38.0  3,131,264            94.5%               34.0%
      39.0  3,225,024            90.5%               36.0%
      40.0  3,331,456            95.5%               33.0%
      41.0  3,431,936            90.5%               38.5%
      42.0  3,534,080            90.5%               38.0%
      43.0  3,633,792            90.5%               44.0%
      44.0  3,729,472            89.5%               39.0%
      45.0  3,819,456            92.5%               32.0%
      46.0  3,915,520            92.0%               30.0%
      47.0  4,013,504            91.5%               32.5%
      48.0  4,105,344            95.5%               34.0%
      49.0  4,199,296            94.5%               32.5%
      50.0  4,295,424            92.5%               35.5%
      51.0  4,395,456            93.5%               34.5%
      52.0  4,491,584            94.5%               42.0%
      53.0  4,583,744            91.5%               35.5%
      54.0  4,669,120            97.5%               40.0%
      55.0  4,752,960            94.5%               36.0%
      56.0  4,838,400            92.0%               33.0%
      57.0  4,924,224            93.0%               36.0%
      58.0  5,014,016            91.0%               35.0%
      59.0  5,116,288            95.5%               36.5%
      60.0  5,212,416            92.0%               30.5%

The final network, on 1,000 fresh games (``--evaluate runs/policy.pt --eval-games
1000``, seeds 11 and 12): **36.3 %** against three HeuristicBots (95 % interval
33.4 %–39.3 %; a fair share is 25 %), 91.7 % against three RandomBots.  The curve
reached 30 % against the heuristic at the sixth training minute and stayed between
27.5 % and 44 % after it (34.7 % on average over minutes 5–60).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from bohmisch_watten import new_game
from bohmisch_watten.adapters.fast import Encoder, bot_action
from bohmisch_watten.bots import Bot, HeuristicBot, RandomBot
from bohmisch_watten.bots.learned import PolicyNet, read_policy, save_policy
from bohmisch_watten.encoding import action_to_id, id_to_action

PLAYERS = 4
MAX_DEALS = 60  # a game of random-ish play can drift; restart it after this many deals
REWARD_SCALE = 5.0


HEURISTIC = HeuristicBot()


class Transition:
    """One decision: what the network saw and did, the heuristic's choice there, and the
    deal's reward once known."""

    __slots__ = ("action", "logp", "mask", "obs", "ret", "target", "value")

    def __init__(
        self, obs: np.ndarray, mask: np.ndarray, action: int, logp: float, value: float,
        target: int,
    ) -> None:  # fmt: skip
        self.obs, self.mask, self.action, self.logp, self.value = obs, mask, action, logp, value
        self.target = target
        self.ret = 0.0


class Table:
    """One game being played: which seats the network holds, and their open decisions."""

    def __init__(self, rng: random.Random, heuristic_share: float) -> None:
        self.rng = rng
        self.heuristic_share = heuristic_share
        self.restart()

    def restart(self) -> None:
        self.state = new_game(PLAYERS, dealer=self.rng.randrange(PLAYERS))
        if self.rng.random() < self.heuristic_share:
            seat = self.rng.randrange(PLAYERS)
            self.bots: dict[int, Bot] = {s: HeuristicBot() for s in range(PLAYERS) if s != seat}
        else:
            self.bots = {}
        self.open: dict[int, list[Transition]] = {s: [] for s in range(PLAYERS)}

    def apply(self, action: Any, ready: list[Transition]) -> None:
        """Apply one action; at the end of a deal pay its decisions and move them to ready."""
        before = self.state
        after = before.apply(action)
        self.state = after
        if after.deal_number != before.deal_number or after.is_terminal:  # points posted
            for seat, decisions in self.open.items():
                reward = before.scores[seat] - after.scores[seat]  # R29-R32
                for t in decisions:
                    t.ret = reward / REWARD_SCALE
                ready.extend(decisions)
                self.open[seat] = []
        if after.is_terminal or after.deal_number > MAX_DEALS:
            self.restart()

    def advance(self, ready: list[Transition]) -> int:
        """Shuffles and bot moves until a network seat is to act; that seat."""
        while True:
            state = self.state
            if state.is_chance_node:
                self.apply(state.sample_chance(self.rng), ready)
                continue
            seat = state.current_player
            assert seat is not None
            bot = self.bots.get(seat)
            if bot is None:
                return seat
            self.apply(bot_action(bot, state, seat, self.rng), ready)


class Trainer:
    """Masked PPO over many tables; see the module docstring."""

    def __init__(
        self,
        games: int = 64,
        hidden: int = 256,
        seed: int = 0,
        heuristic_share: float = 0.5,
        lr: float = 3e-4,
        batch: int = 2048,
        epochs: int = 4,
        minibatch: int = 1024,
        entropy: float = 0.01,
    ) -> None:
        torch.manual_seed(seed)
        self.rng = random.Random(seed)
        self.net = PolicyNet(PLAYERS, hidden)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=lr)
        self.tables = [Table(random.Random(seed * 1000 + i), heuristic_share) for i in range(games)]
        self.encoder = Encoder(PLAYERS, games)
        self.batch, self.epochs, self.minibatch = batch, epochs, minibatch
        self.entropy = entropy
        self.ready: list[Transition] = []
        self.decisions = 0

    def collect(self, imitate: bool = False) -> list[Transition]:
        """Play until at least ``batch`` paid decisions are ready; return them.

        With ``imitate`` the network's seats play the heuristic's action (the network
        only watches, to learn it); otherwise they play an action drawn from the network.
        """
        while len(self.ready) < self.batch:
            seats = [table.advance(self.ready) for table in self.tables]
            states = [t.state for t in self.tables]
            obs, masks = self.encoder.encode(states, seats)
            targets = [
                action_to_id(state, bot_action(HEURISTIC, state, seat, self.rng))
                for state, seat in zip(states, seats, strict=True)
            ]
            obs_t = torch.from_numpy(obs)
            mask_t = torch.from_numpy(masks)
            with torch.no_grad():
                logits, values = self.net(obs_t, mask_t)
                dist = torch.distributions.Categorical(logits=logits)
                actions = torch.tensor(targets) if imitate else dist.sample()
                logps = dist.log_prob(actions)
            for i, table in enumerate(self.tables):
                action = int(actions[i])
                t = Transition(
                    obs[i].copy(), masks[i].copy(), action, float(logps[i]), float(values[i]),
                    targets[i],
                )  # fmt: skip
                table.open[seats[i]].append(t)
                table.apply(id_to_action(table.state, action), self.ready)
            self.decisions += len(self.tables)
        out, self.ready = self.ready, []
        return out

    def _loss(
        self, obs: torch.Tensor, mask: torch.Tensor, act: torch.Tensor, old: torch.Tensor,
        adv: torch.Tensor, ret: torch.Tensor, target: torch.Tensor, imitate: float,
    ) -> torch.Tensor:  # fmt: skip
        """The PPO loss, plus ``imitate`` times the cross-entropy to the heuristic's ids
        (with ``imitate`` at 1 and ``adv`` at 0 that is the imitation loss alone)."""
        logits, values = self.net(obs, mask)
        dist = torch.distributions.Categorical(logits=logits)
        ratio = torch.exp(dist.log_prob(act) - old)
        policy = -torch.min(ratio * adv, ratio.clamp(0.8, 1.2) * adv).mean()
        value = (values - ret).pow(2).mean()
        loss = policy + 0.5 * value - self.entropy * dist.entropy().mean()
        if imitate:
            loss = loss - imitate * dist.log_prob(target).mean()
        return loss

    def update(self, batch: list[Transition], imitate: float = 0.0) -> dict[str, float]:
        """PPO epochs over ``batch`` (or, with ``imitate`` ≥ 1, the imitation of the
        heuristic alone); the loss on the whole batch before and after."""
        obs = torch.from_numpy(np.stack([t.obs for t in batch]))
        mask = torch.from_numpy(np.stack([t.mask for t in batch]))
        act = torch.tensor([t.action for t in batch])
        old = torch.tensor([t.logp for t in batch])
        target = torch.tensor([t.target for t in batch])
        ret = torch.tensor([t.ret for t in batch], dtype=torch.float32)
        adv = ret - torch.tensor([t.value for t in batch])
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        if imitate >= 1:
            adv = torch.zeros_like(adv)
        args = (obs, mask, act, old, adv, ret, target)
        with torch.no_grad():
            before = float(self._loss(*args, imitate))
        for _ in range(self.epochs):
            order = torch.randperm(len(batch))
            for k in range(0, len(batch), self.minibatch):
                part = order[k : k + self.minibatch]
                o, m, a, p, d, r, g = (tensor[part] for tensor in args)
                loss = self._loss(o, m, a, p, d, r, g, imitate)
                self.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), 0.5)
                self.optimizer.step()
        with torch.no_grad():
            after = float(self._loss(*args, imitate))
        return {"loss_before": before, "loss_after": after, "mean_return": float(ret.mean())}


def wilson(rate: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of a win rate over ``games`` games."""
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    return centre - half / (1 + z * z / games), centre + half / (1 + z * z / games)


def evaluate(net: PolicyNet, opponent: Bot, games: int, seed: int, parallel: int = 100) -> float:
    """The greedy network's win rate in whole games, seat ``i % 4`` in game ``i`` (R34)."""
    rng = random.Random(seed)
    encoder = Encoder(PLAYERS, parallel)
    wins = 0
    for start in range(0, games, parallel):
        seats = [(start + i) % PLAYERS for i in range(min(parallel, games - start))]
        states = [new_game(PLAYERS, dealer=rng.randrange(PLAYERS)) for _ in seats]
        live = list(range(len(seats)))
        while live:
            waiting = []
            for i in live:
                state = states[i]
                while not state.is_terminal and state.deal_number <= 100:
                    if state.is_chance_node:
                        state = state.apply(state.sample_chance(rng))
                    elif state.current_player == seats[i]:
                        break
                    else:
                        mover = state.current_player
                        assert mover is not None
                        state = state.apply(bot_action(opponent, state, mover, rng))
                states[i] = state
                if state.is_terminal or state.deal_number > 100:
                    wins += seats[i] in state.winners
                else:
                    waiting.append(i)
            if not waiting:
                break
            obs, masks = encoder.encode([states[i] for i in waiting], [seats[i] for i in waiting])
            with torch.no_grad():
                logits, _ = net(torch.from_numpy(obs), torch.from_numpy(masks))
            for row, i in enumerate(waiting):
                states[i] = states[i].apply(id_to_action(states[i], int(logits[row].argmax())))
            live = waiting
    return wins / games


def train(
    seconds: float,
    *,
    out: Path | None = None,
    eval_every: float = 60.0,
    eval_games: int = 400,
    log: bool = True,
    imitation: float = 0.0,
    keep: float = 0.0,
    **options: Any,
) -> tuple[Trainer, list[dict[str, float]]]:
    """Train for ``seconds`` of training time; evaluate every ``eval_every`` seconds.

    Training time is the CPU time of this process (``time.process_time``), so a shared
    machine does not shorten a training minute; evaluations are not counted.  The first
    ``imitation`` seconds imitate the heuristic (its action is played and learned, the
    value learns its deals' results); then PPO, with ``keep`` times the cross-entropy to
    the heuristic's action added to the loss, so what the rewards do not yet teach stays
    close to the heuristic's play.

    Returns the trainer and the history: one entry per update (losses) and, in those
    that end an evaluation period, ``minutes``, ``vs_random`` and ``vs_heuristic``.
    """
    trainer = Trainer(**options)
    history: list[dict[str, float]] = []
    curve: list[dict[str, float]] = []
    if eval_games:
        net = trainer.net.eval()
        point = {
            "minutes": 0.0,
            "vs_random": evaluate(net, RandomBot(), eval_games, 1),
            "vs_heuristic": evaluate(net, HeuristicBot(), eval_games, 2),
        }
        curve.append(point)
        if log:
            print(json.dumps(point), flush=True)
    spent = 0.0
    next_eval = eval_every
    while spent < seconds:
        began = time.process_time()
        trainer.net.train()
        imitating = spent < imitation
        batch = trainer.collect(imitate=imitating)
        stats = trainer.update(batch, imitate=1.0 if imitating else keep)
        spent += time.process_time() - began
        stats["decisions"] = trainer.decisions
        stats["imitation"] = float(imitating)
        history.append(stats)
        if eval_games and (spent >= next_eval or spent >= seconds):
            next_eval += eval_every
            net = trainer.net.eval()
            point = {
                "minutes": round(spent / 60, 2),
                "decisions": trainer.decisions,
                "vs_random": evaluate(net, RandomBot(), eval_games, 1),
                "vs_heuristic": evaluate(net, HeuristicBot(), eval_games, 2),
            }
            curve.append(point)
            history[-1].update(point)
            if log:
                print(json.dumps(point), flush=True)
            if out is not None:
                save_policy(trainer.net, out, curve=json.dumps(curve))
                out.with_suffix(".json").write_text(json.dumps(curve, indent=1) + "\n")
    if out is not None:
        save_policy(trainer.net, out, curve=json.dumps(curve))
    return trainer, history


def plot_curve(curve: list[dict[str, float]], path: Path, imitation: float = 0.0) -> None:
    """Draw the win rates against training minutes into ``path`` (matplotlib, ``[plot]``);
    a dotted line marks the end of the first ``imitation`` minutes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    minutes = [point["minutes"] for point in curve]
    figure, axes = plt.subplots(figsize=(7, 4))
    axes.plot(minutes, [p["vs_random"] for p in curve], "o-", label="vs three RandomBots")
    axes.plot(minutes, [p["vs_heuristic"] for p in curve], "s-", label="vs three HeuristicBots")
    axes.axhline(0.25, color="grey", linestyle=":", label="an equal fourth (25 %)")
    axes.axhline(0.30, color="tab:red", linestyle="--", linewidth=0.8, label="the 30 % aimed at")
    if imitation:
        axes.axvline(imitation, color="black", linestyle=":", linewidth=0.8)
        axes.annotate("imitation | PPO", (imitation, 0.03), ha="center", fontsize=8)
    axes.set_xlabel("training minutes (CPU time of one core)")
    axes.set_ylabel("games won")
    axes.set_ylim(0, 1)
    axes.set_title("PolicyBot: imitation of the heuristic, then masked PPO")
    axes.legend(loc="upper center", bbox_to_anchor=(0.55, 0.84), fontsize=8, ncol=2)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--minutes", type=float, default=60.0, help="training time")
    parser.add_argument("--out", type=Path, default=Path("policy.pt"), help="checkpoint")
    parser.add_argument("--games", type=int, default=64, help="parallel games")
    parser.add_argument("--hidden", type=int, default=256, help="hidden layer width")
    parser.add_argument("--eval-games", type=int, default=400, help="games per evaluation")
    parser.add_argument("--eval-every", type=float, default=1.0, help="minutes between them")
    parser.add_argument("--batch", type=int, default=2048, help="decisions per update")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--imitate", type=float, default=4.0, help="minutes imitating the heuristic first"
    )
    parser.add_argument(
        "--keep", type=float, default=0.05, help="weight of the heuristic's action in PPO"
    )
    parser.add_argument(
        "--heuristic-share", type=float, default=0.5, help="share of games against heuristics"
    )
    parser.add_argument("--lr", type=float, default=3e-4, help="Adam's learning rate")
    parser.add_argument("--entropy", type=float, default=0.01, help="entropy bonus")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--plot", type=Path, help="draw the curve into this PNG file")
    parser.add_argument("--from-curve", type=Path, help="do not train: plot this curve file")
    parser.add_argument(
        "--evaluate",
        type=Path,
        help="do not train: play this checkpoint --eval-games games against three"
        " HeuristicBots and three RandomBots (seeds 11 and 12, unlike training's)",
    )
    args = parser.parse_args(argv)
    if args.evaluate is not None:
        net = read_policy(args.evaluate)
        for name, bot, seed in (("heuristic", HeuristicBot(), 11), ("random", RandomBot(), 12)):
            rate = evaluate(net, bot, args.eval_games, seed)
            low, high = wilson(rate, args.eval_games)
            print(
                json.dumps(
                    {"vs": name, "games": args.eval_games, "win_rate": rate, "ci95": [low, high]}
                ),
                flush=True,
            )
        return
    if args.from_curve is not None:
        if args.plot is None:
            parser.error("--from-curve needs --plot")
        plot_curve(json.loads(args.from_curve.read_text()), args.plot, args.imitate)
        return
    torch.set_num_threads(args.threads)
    train(
        args.minutes * 60,
        out=args.out,
        eval_every=args.eval_every * 60,
        eval_games=args.eval_games,
        games=args.games,
        hidden=args.hidden,
        seed=args.seed,
        batch=args.batch,
        minibatch=min(1024, args.batch),
        imitation=args.imitate * 60,
        keep=args.keep,
        heuristic_share=args.heuristic_share,
        lr=args.lr,
        entropy=args.entropy,
    )
    if args.plot is not None:
        curve = json.loads(args.out.with_suffix(".json").read_text())
        plot_curve(curve, args.plot, args.imitate)


if __name__ == "__main__":
    main()
