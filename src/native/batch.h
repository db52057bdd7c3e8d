/* N games stepped together for learning code: the batched, pgx-style API of
 * bohmisch_watten.adapters.batch and the compiled path of the Gymnasium vector env.
 *
 * Plain C on top of game.h (py_batch.c wraps it for Python).  Every game of a batch is
 * one episode of src/bohmisch_watten/adapters/_seat_game.py (SeatGame): one learning
 * seat against the built-in bots, or every seat by the caller (self-play), one deal or a
 * whole game, autoreset on the step after an episode ends (Gymnasium's NEXT_STEP).  The
 * shuffles and the random bot draw from a twin of Python's random.Random (MT19937, the
 * same numbers for the same seed), and the heuristic bot is a twin of
 * bots/policy.py's decide(), so a batch seeded as the Python environments are plays the
 * very same games; tests/test_native_batch.py compares them step for step, and the
 * observations element for element with adapters/fast.py's Encoder.
 */
#ifndef BW_BATCH_H
#define BW_BATCH_H

#include "game.h"

/* ------------------------------------------------------------ Python's random.Random */

#define BW_MT_N 624

/* The state of a random.Random: MT19937 as CPython's _randommodule.c runs it. */
typedef struct {
    uint32_t mt[BW_MT_N];
    int index;
} bw_pyrandom;

/* random.Random(seed) for an int seed 0 <= seed < 2**64. */
void bw_pyrandom_seed(bw_pyrandom *r, uint64_t seed);
/* getrandbits(k), 1 <= k <= 32. */
uint32_t bw_pyrandom_bits(bw_pyrandom *r, int k);
/* Random._randbelow(n), n >= 1: what rng.choice and rng.randrange draw. */
uint32_t bw_pyrandom_below(bw_pyrandom *r, uint32_t n);
/* state.draw_shuffle (random.Random.shuffle of the pack) applied to a game at its chance
 * node (R11). */
void bw_pyrandom_shuffle(bw_game *g, bw_pyrandom *r);

/* ------------------------------------------------------------ the built-in bots */

/* The legal ids in the order of GameState.legal_actions() (fold first, then the
 * exchanges by size and card order, R18-R20; plays in card order), their count. */
int bw_legal_in_order(const bw_game *g, uint8_t *out);
/* The id HeuristicBot chooses for the seat to act (bots/policy.py's decide).  neumaier:
 * whether the interpreter's sum() of floats is compensated (Python 3.12 and later), so
 * that every float is the one Python computes. */
int bw_heuristic(const bw_game *g, int neumaier);

/* ------------------------------------------------------------ the observation */

/* The blocks of encoding.layout(n, pack), their columns. */
typedef struct {
    int n, pack, size, num_ids;
    int discards, draws, cut_seen, trump_card, trump_suit, trump_taken, criticals_taken,
        criticals_left, trick, trick_leader, played, tricks_won, folded, exchanged, scores,
        dealer, forehand, to_act, phase, stock;
} bw_layout;

void bw_layout_init(bw_layout *layout, int n, int pack);
/* observation(state.view(seat)) and action_mask(state.view(seat)) of the game into one
 * row each (size float32, num_ids int8); draws: per seat, the cards drawn this deal. */
void bw_encode(const bw_layout *layout, const bw_game *g, const uint64_t *draws, int seat,
               float *row, int8_t *mask);

/* ------------------------------------------------------------ the batch */

enum { BW_SEAT_RANDOM = 0, BW_SEAT_HEURISTIC = 1, BW_SEAT_LEARNER = 2 };

typedef struct {
    bw_game game;
    bw_pyrandom rng;
    uint64_t draws[BW_MAX_PLAYERS]; /* the cards each seat drew from the stock (R23) */
    uint8_t to_act;                 /* SeatGame.to_act */
    uint8_t done;                   /* the episode ended: the next step resets it */
} bw_slot;

typedef struct {
    bw_game start;
    int num_games;
    int deal_mode; /* 1: one deal, paying minus the score change; 0: a whole game (R34) */
    int32_t max_deals;
    int learner; /* the learning seat, or -1: every seat is the caller's (self-play) */
    uint8_t seats[BW_MAX_PLAYERS]; /* BW_SEAT_* of each seat */
    int neumaier;
    bw_layout layout;
    bw_slot *slots;
} bw_batch;

/* Where a step writes: one row per game (every: num_games x n). */
typedef struct {
    float *observations;
    int8_t *masks;
    int64_t *seats;
    double *rewards;
    uint8_t *terminated, *truncated, *illegal, *reset;
    double *every;
} bw_outputs;

/* Game i from the start (SeatGame.reset): reseeded with seed if reseed, else drawing on. */
void bw_batch_reset(bw_batch *b, int i, int reseed, uint64_t seed);
/* One id per game (any int64: those that are not legal end the episode with -1). */
void bw_batch_step(bw_batch *b, const int64_t *actions, const bw_outputs *out);
/* The observation, mask and seat of every game into out (the other fields unused). */
void bw_batch_observe(const bw_batch *b, const bw_outputs *out);
/* A uniformly random legal id for each game (0 where nobody is to act). */
void bw_batch_random_actions(const bw_batch *b, bw_rng *rng, int64_t *out);

#endif
