"""How much the hand inference knows: the opponents' hidden cards its worlds place right.

A script, not a test::

    python benchmarks/inference.py --players 2 --opponent search --games 12 \\
        --variants 0.2/0.5/3,0.2/1/6

Games of ``--opponent`` bots in every seat are played; at each card play with a choice
of seat 0 (R24–R27) its view is kept with the true state.  For each variant
``NOISE/EVIDENCE/PROPOSALS`` (the opponent model's ``play_noise``, the power of
the likelihood, the uniform worlds drawn per world kept; see
:func:`bohmisch_watten.bots.inference.draw_worlds`) 40 worlds are drawn for every view,
and the script prints the share of each opponent's hidden cards that a world puts in
that opponent's hand, averaged over the worlds, the opponents and the views.  The first
line is uniform sampling (no inference), the floor.

It also prints how often the opponents' cards were the card the model's heuristic
(:func:`~bohmisch_watten.bots.inference.heuristic_play`) would have played from their
true hands, for leads and for follows: how well the model describes these opponents.
"""

from __future__ import annotations

import argparse
import random
import statistics

import attrs

from bohmisch_watten import GameState, PlayCard, new_game
from bohmisch_watten.bots import make_bot
from bohmisch_watten.bots.inference import DEFAULT_MODEL, draw_worlds, heuristic_play
from bohmisch_watten.phases import Phase
from bohmisch_watten.views import PlayerView

WORLDS = 40


def play_games(
    players: int, opponent: str, games: int, seed: int
) -> tuple[list[tuple[PlayerView, GameState]], dict[bool, list[bool]]]:
    """Seat 0's card-play views with their true states, and the heuristic's matches.

    The matches are, for leads (False) and follows (True), whether each card played
    with a choice was the one :func:`heuristic_play` picks from the player's true hand.
    """
    bot = make_bot(opponent)
    rng = random.Random(seed)
    kept: list[tuple[PlayerView, GameState]] = []
    matches: dict[bool, list[bool]] = {False: [], True: []}
    for _ in range(games):
        state = new_game(players)
        while not state.is_terminal and state.deal_number < 6:
            if state.current_player is None:
                state = state.apply(state.sample_chance(rng))
                continue
            seat = state.current_player
            view = state.view(seat)
            action = bot.choose(view, rng)
            if state.phase is Phase.PLAY and state.play_mask.bit_count() > 1:
                if seat == 0:
                    kept.append((view, state))
                assert isinstance(action, PlayCard)
                guess = heuristic_play(state.play_mask, state.trick_plays, state.trump_index >> 3)
                matches[bool(state.trick_plays)].append(guess == action.card.index)
            state = state.apply(action)
    return kept, matches


def placed(
    kept: list[tuple[PlayerView, GameState]], noise: float, evidence: float, proposals: int
) -> tuple[float, float]:
    """The share of the opponents' hidden cards the worlds of a variant place right, and
    the mean number of distinct worlds among the ``WORLDS`` kept for a view (resampling
    repeats the heavy ones: few distinct worlds mean a posterior seen through few
    proposals)."""
    model = attrs.evolve(DEFAULT_MODEL, play_noise=noise)
    shares = []
    distinct = []
    for view, state in kept:
        worlds = draw_worlds(view, random.Random(1), WORLDS, WORLDS * proposals, model, evidence)
        distinct.append(len({id(world) for world in worlds}))
        for seat in range(1, state.num_players):
            hidden = state.hand_masks[seat]
            if state.folded[seat] or not hidden:
                continue
            count = hidden.bit_count()
            shares.append(
                statistics.mean((w.hand_masks[seat] & hidden).bit_count() / count for w in worlds)
            )
    return statistics.mean(shares), statistics.mean(distinct)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--opponent", default="search", help="every seat's bot spec")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument(
        "--variants", default="0.2/0.5/3", help="comma-separated NOISE/EVIDENCE/PROPOSALS"
    )
    args = parser.parse_args()
    kept, matches = play_games(args.players, args.opponent, args.games, args.seed)
    print(f"{len(kept)} card-play views of seat 0, {args.players} x {args.opponent}")
    for follows, name in ((False, "leads"), (True, "follows")):
        found = matches[follows]
        print(f"the heuristic's card in {name}: {sum(found) / len(found):.1%} of {len(found)}")
    share, _ = placed(kept, 0.2, 0.0, 1)
    print(f"uniform worlds: {share:.1%} of the hidden cards placed right")
    for variant in args.variants.split(","):
        noise, evidence, proposals = variant.split("/")
        share, distinct = placed(kept, float(noise), float(evidence), int(proposals))
        print(
            f"noise {noise}, evidence {evidence}, proposals {proposals}: {share:.1%} placed"
            f" right, {distinct:.1f} distinct worlds of {WORLDS}"
        )


if __name__ == "__main__":
    main()
