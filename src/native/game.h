/* The game engine of the compiled core: one game of Böhmisch Watten on integers and
 * bitmasks, in plain C (no Python API here; py_game.c wraps it).
 *
 * It is an exact twin of the pure-Python reference (src/bohmisch_watten/state.py with
 * tricks.py, scoring.py, dealing.py, seats.py and the action ids of encoding.py):
 * tests/test_native_lockstep.py drives both with the same shuffles and decisions and
 * compares them after every step.  Where the two could differ, the Python modules are
 * right and this file is wrong.
 *
 * Cards are the indices of bohmisch_watten.cards (suit * 8 + rank, the Sixes 32 + suit),
 * sets of cards 64-bit masks, actions the ids of bohmisch_watten.encoding (take 0,
 * leave 1, fold 2, exchange 3 + p, exchange taking the trump card 35 + p, play 67 + card),
 * and the chance action a permutation of the pack, top card first (R11).
 */
#ifndef BW_GAME_H
#define BW_GAME_H

#include <stdint.h>

#define BW_MAX_PLAYERS 7
#define BW_MAX_PACK 36
#define BW_TRICKS 5
#define BW_NO_SEAT 255
#define BW_TRUMP 4 /* the effective suit of every trump (R10) */

/* The phases in the order of bohmisch_watten.Phase. */
enum bw_phase { BW_DEAL, BW_CUT, BW_EXCHANGE, BW_PLAY, BW_SCORE, BW_GAME_OVER };

/* Action ids (bohmisch_watten.encoding, table version 1). */
enum {
    BW_TAKE_ID = 0,
    BW_LEAVE_ID = 1,
    BW_FOLD_ID = 2,
    BW_EXCHANGE_BASE = 3,
    BW_EXCHANGE_TRUMP_BASE = 35,
    BW_PLAY_BASE = 67,
    BW_MAX_LEGAL = 64 /* at most fold + 26 + 31 exchanges; 5 plays */
};

/* Why an action was refused: the Python layer asks the reference for the words. */
enum {
    BW_OK = 0,
    BW_E_RANGE = -1,   /* no id of this pack's table / bad argument */
    BW_E_PHASE = -2,   /* the action is not one of this phase (or the game is over) */
    BW_E_ILLEGAL = -3, /* the action of this phase, but the rules forbid it now */
};

enum bw_schleck { BW_SCHLECK_ALTERNATE, BW_SCHLECK_CUTTER_ONLY, BW_SCHLECK_NONE };
enum bw_overshoot { BW_OVERSHOOT_WINS, BW_OVERSHOOT_ADDED_BACK };

/* Every field of bohmisch_watten.Rules (RULES.md §8). */
typedef struct {
    uint8_t schleck;            /* enum bw_schleck (R12, R14) */
    uint8_t dealer_stock_limit; /* 2 or 3 (R19) */
    uint8_t must_head;          /* R25, R26 */
    uint8_t overshoot;          /* enum bw_overshoot (R31, R32) */
    uint8_t plus_fifty;         /* R33 */
    uint8_t hearts_double;      /* R30 */
    uint8_t pack;               /* 32 or 36 (R6) */
    int32_t start_score;        /* 1 to 1000 (R28) */
    int32_t min_fold_score;     /* -1000 to 1000 (R21.3) */
} bw_rules;

typedef struct {
    uint8_t seat, card, taken;
} bw_look;

typedef struct {
    uint8_t seat, card;
} bw_play;

/* One game at one moment: plain data, copied by assignment. */
typedef struct {
    bw_rules rules;
    uint8_t n, dealer, phase, current; /* current: BW_NO_SEAT at chance and at the end */
    int32_t deal_number;
    int32_t scores[BW_MAX_PLAYERS];
    uint8_t prev_folded; /* seats that folded in the previous deal (R21.4) */
    /* the deal */
    uint64_t hands[BW_MAX_PLAYERS];
    uint8_t pack[BW_MAX_PACK]; /* the undealt pack / the stock is pack[lo:hi], top first */
    uint8_t lo, hi;
    int8_t trump; /* the trump card, -1 before it is turned (R15) */
    uint8_t took_trump;
    uint8_t folded; /* bitmask of seats (R18) */
    int8_t exchanged[BW_MAX_PLAYERS]; /* -1 undecided or folded (R23) */
    uint64_t discards[BW_MAX_PLAYERS];
    bw_look cut[3];
    uint8_t ncut;
    bw_play trick[BW_MAX_PLAYERS];
    uint8_t ntrick;
    bw_play played[BW_TRICKS][BW_MAX_PLAYERS];
    uint8_t played_winner[BW_TRICKS];
    uint8_t nplayed;
    uint8_t tricks_won[BW_MAX_PLAYERS];
    uint64_t play_mask; /* in phase PLAY, the cards the player to act may play */
} bw_game;

/* A small fast generator for playouts (xoshiro256**, seeded by splitmix64). */
typedef struct {
    uint64_t s[4];
} bw_rng;

/* 0 if every field of rules holds a value Rules accepts, else BW_E_RANGE. */
int bw_rules_check(const bw_rules *rules);
/* The default rules (Rules()). */
bw_rules bw_default_rules(void);

/* A game at the chance node of a deal: new_game for deal_number 1, any position else.
 * scores NULL means everybody at start_score.  Returns BW_OK or BW_E_RANGE. */
int bw_game_init(bw_game *game, int n, const bw_rules *rules, int dealer, int32_t deal_number,
                 const int32_t *scores, uint8_t prev_folded);

/* The chance action: perm holds the pack's size card indices, top first (R11). */
int bw_shuffle(bw_game *game, const uint8_t *perm, int len);
/* A decision, by its id.  The game is unchanged when the result is not BW_OK. */
int bw_apply(bw_game *game, int id);
/* The legal ids in ascending order into out (BW_MAX_LEGAL entries); their count. */
int bw_legal(const bw_game *game, uint8_t *out);
int bw_is_legal(const bw_game *game, int id);
/* The first condition of R21 that forbids seat to fold now: 1 … 6 for R21.1 … R21.6,
 * 0 if he may fold. */
int bw_fold_rule(const bw_game *game, int seat);
/* Winners and losers as seat masks (both 0 until the game is over, R34). */
void bw_result(const bw_game *game, uint8_t *winners, uint8_t *losers);
/* What the game's scores would give (the R34 result of any scores). */
void bw_game_result(const bw_rules *rules, int n, const int32_t *scores, uint8_t *winners,
                    uint8_t *losers);
int bw_num_ids(const bw_game *game);

/* The card tables of trick play (R7-R10, R25, R27), for the solver and others. */
extern uint8_t bw_suit_of[BW_MAX_PACK];
uint64_t bw_legal_play_mask(uint64_t hand, const bw_play *trick, int ntrick, int trump_suit,
                            int must_head);
int bw_best_play(const bw_play *trick, int ntrick, int trump_suit); /* its index in trick */
void bw_init_tables(void);

void bw_rng_seed(bw_rng *rng, uint64_t seed);
uint64_t bw_rng_next(bw_rng *rng);
/* A uniform integer in [0, bound), bound >= 1 (Lemire's method, no modulo bias). */
uint32_t bw_rng_below(bw_rng *rng, uint32_t bound);
/* A uniformly random shuffle applied to a game at its chance node. */
void bw_shuffle_random(bw_game *game, bw_rng *rng);
/* Random legal decisions (and random shuffles) until the game is over or deal_number
 * exceeds max_deal; returns the number of decisions (chance not counted). */
long bw_playout(bw_game *game, bw_rng *rng, int32_t max_deal);

#endif
