/* The game engine of the compiled core (see game.h): every phase of a game of Böhmisch
 * Watten, the twin of src/bohmisch_watten/state.py.  Each function names the Python
 * function it mirrors and the rules it implements. */
#include "game.h"

#include <string.h>

/* ------------------------------------------------------------------ the card tables */

#define HEARTS 2
#define CARD_MAXI 22  /* HK: suit 2 * 8 + King 6 (R7) */
#define CARD_BELLI 24 /* S7 */
#define CARD_SPITZ 0  /* E7 */
#define CRITICAL_MASK ((1ULL << CARD_MAXI) | (1ULL << CARD_BELLI) | (1ULL << CARD_SPITZ))

uint8_t bw_suit_of[BW_MAX_PACK];
static int8_t rank_of[BW_MAX_PACK];             /* the Six -1, Seven 0 … Ace 7 */
static uint64_t suit_mask[4];                   /* tricks.SUIT_MASK */
static uint64_t trump_mask[4];                  /* tricks.TRUMP_MASK */
static uint8_t effective[4][BW_MAX_PACK];       /* tricks.EFFECTIVE */
static uint64_t follow_mask[4][5];              /* tricks.FOLLOW_MASK */
static int8_t strength[4][5][BW_MAX_PACK];      /* tricks.STRENGTH */
static uint64_t beats[4][5][BW_MAX_PACK];       /* tricks.BEATS */
static int tables_ready = 0;

static int critical_strength(int card) {
    return card == CARD_MAXI ? 40 : card == CARD_BELLI ? 39 : card == CARD_SPITZ ? 38 : 0;
}

void bw_init_tables(void) {
    if (tables_ready) {
        return;
    }
    for (int card = 0; card < BW_MAX_PACK; card++) {
        bw_suit_of[card] = (uint8_t)(card < 32 ? card / 8 : card - 32);
        rank_of[card] = (int8_t)(card < 32 ? card % 8 : -1);
    }
    for (int s = 0; s < 4; s++) {
        suit_mask[s] = 0;
        for (int card = 0; card < BW_MAX_PACK; card++) {
            if (bw_suit_of[card] == s) {
                suit_mask[s] |= 1ULL << card;
            }
        }
    }
    for (int t = 0; t < 4; t++) {
        trump_mask[t] = suit_mask[t] | CRITICAL_MASK;
        for (int card = 0; card < BW_MAX_PACK; card++) {
            effective[t][card] = (uint8_t)((trump_mask[t] >> card & 1) ? BW_TRUMP : bw_suit_of[card]);
        }
        for (int s = 0; s < 4; s++) {
            follow_mask[t][s] = suit_mask[s] & ~trump_mask[t];
        }
        follow_mask[t][BW_TRUMP] = trump_mask[t];
        for (int led = 0; led < 5; led++) {
            for (int card = 0; card < BW_MAX_PACK; card++) {
                int value = critical_strength(card); /* tricks._strength (R27) */
                if (!value) {
                    int suit = bw_suit_of[card];
                    value = suit == t ? 20 + rank_of[card] : suit == led ? 10 + rank_of[card] : 0;
                }
                strength[t][led][card] = (int8_t)value;
            }
            for (int w = 0; w < BW_MAX_PACK; w++) {
                uint64_t mask = 0;
                for (int card = 0; card < BW_MAX_PACK; card++) {
                    if (strength[t][led][card] > strength[t][led][w]) {
                        mask |= 1ULL << card;
                    }
                }
                beats[t][led][w] = mask;
            }
        }
    }
    tables_ready = 1;
}

static inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }
static inline int popcount8(unsigned x) { return __builtin_popcount(x & 0xFFu); }

/* --------------------------------------------------------------------- seats (R1, R2) */

static inline int left_of(int seat, int n) { return seat + 1 == n ? 0 : seat + 1; }
static inline int right_of(int seat, int n) { return seat == 0 ? n - 1 : seat - 1; }

/* state._next_active: the first seat left of seat that did not fold (R24). */
static inline int next_active(const bw_game *g, int seat) {
    seat = left_of(seat, g->n);
    while (g->folded >> seat & 1) {
        seat = left_of(seat, g->n);
    }
    return seat;
}

/* ------------------------------------------------------------------ trick play */

/* tricks.best_play (R27): the index in trick of the play winning it so far. */
int bw_best_play(const bw_play *trick, int ntrick, int trump_suit) {
    const int8_t *power = strength[trump_suit][effective[trump_suit][trick[0].card]];
    int best = 0;
    for (int i = 1; i < ntrick; i++) {
        if (power[trick[i].card] > power[trick[best].card]) {
            best = i;
        }
    }
    return best;
}

/* tricks.legal_play_mask (R24-R26). */
uint64_t bw_legal_play_mask(uint64_t hand, const bw_play *trick, int ntrick, int trump_suit,
                            int must_head) {
    if (ntrick == 0) {
        return hand; /* R24: the leader may lead any card */
    }
    int led = effective[trump_suit][trick[0].card];
    uint64_t follow = hand & follow_mask[trump_suit][led];
    if (!follow && led != BW_TRUMP) {
        follow = hand & trump_mask[trump_suit]; /* R25.2: void in a plain suit, must trump */
    }
    if (!follow) {
        return hand; /* R25.4 */
    }
    if (must_head) { /* R25.1-3: head / overtrump when possible */
        int winning = trick[bw_best_play(trick, ntrick, trump_suit)].card;
        uint64_t heading = follow & beats[trump_suit][led][winning];
        if (heading) {
            return heading;
        }
    }
    return follow;
}

/* ------------------------------------------------------------------ scoring (R28-R34) */

static int reached_goal(const bw_rules *rules, int32_t score) { /* scoring.reached_goal */
    if (rules->plus_fifty && score >= 50) {
        return 1;
    }
    if (rules->overshoot == BW_OVERSHOOT_ADDED_BACK) {
        return score == 0;
    }
    return score <= 0;
}

/* scoring.game_result (R34). */
void bw_game_result(const bw_rules *rules, int n, const int32_t *scores, uint8_t *winners,
                    uint8_t *losers) {
    int32_t low = scores[0], high = scores[0];
    for (int s = 1; s < n; s++) {
        low = scores[s] < low ? scores[s] : low;
        high = scores[s] > high ? scores[s] : high;
    }
    *winners = 0;
    *losers = 0;
    if (low > 0 && (!rules->plus_fifty || high < 50)) {
        return;
    }
    uint8_t reached = 0;
    for (int s = 0; s < n; s++) {
        if (reached_goal(rules, scores[s])) {
            reached |= (uint8_t)(1u << s);
        }
    }
    if (!reached) {
        return;
    }
    if (reached == (uint8_t)((1u << n) - 1)) { /* everybody reached the goal [decision] */
        if (low == high) {
            return;
        }
        for (int s = 0; s < n; s++) {
            if (scores[s] == low) {
                *winners |= (uint8_t)(1u << s);
            }
            if (scores[s] == high) {
                *losers |= (uint8_t)(1u << s);
            }
        }
        return;
    }
    int32_t rest_high = 0;
    int first = 1;
    for (int s = 0; s < n; s++) {
        if (!(reached >> s & 1) && (first || scores[s] > rest_high)) {
            rest_high = scores[s];
            first = 0;
        }
    }
    *winners = reached;
    for (int s = 0; s < n; s++) {
        if (!(reached >> s & 1) && scores[s] == rest_high) {
            *losers |= (uint8_t)(1u << s);
        }
    }
}

void bw_result(const bw_game *g, uint8_t *winners, uint8_t *losers) {
    if (g->phase != BW_GAME_OVER) {
        *winners = 0;
        *losers = 0;
        return;
    }
    bw_game_result(&g->rules, g->n, g->scores, winners, losers);
}

/* state.fresh_deal: the deal fields between deals. */
static void fresh_deal(bw_game *g) {
    memset(g->hands, 0, sizeof g->hands);
    g->lo = g->hi = 0;
    g->trump = -1;
    g->took_trump = 0;
    g->folded = 0;
    memset(g->exchanged, -1, sizeof g->exchanged);
    memset(g->discards, 0, sizeof g->discards);
    g->ncut = 0;
    g->ntrick = 0;
    g->nplayed = 0;
    memset(g->tricks_won, 0, sizeof g->tricks_won);
    g->play_mask = 0;
    g->current = BW_NO_SEAT;
}

/* GameState._score with scoring.deal_points and post_scores (R29-R34). */
static void score_deal(bw_game *g) {
    const bw_rules *rules = &g->rules;
    int n = g->n;
    int factor = (bw_suit_of[g->trump] == HEARTS && rules->hearts_double) ? 2 : 1; /* R30 */
    int32_t posted[BW_MAX_PLAYERS];
    int32_t low = 0;
    for (int s = 0; s < n; s++) {
        int32_t points = 0; /* R29: folded players score nothing */
        if (!(g->folded >> s & 1)) {
            points = g->tricks_won[s] ? -g->tricks_won[s] * factor : 5 * factor;
        }
        posted[s] = g->scores[s] + points; /* R31 */
        low = (s == 0 || posted[s] < low) ? posted[s] : low;
    }
    if (rules->overshoot == BW_OVERSHOOT_ADDED_BACK && low < 0) { /* R32 */
        for (int s = 0; s < n; s++) {
            if (posted[s] < 0) {
                posted[s] = g->scores[s] - posted[s];
            }
        }
    }
    uint8_t winners, losers;
    bw_game_result(rules, n, posted, &winners, &losers);
    memcpy(g->scores, posted, sizeof(int32_t) * (size_t)n);
    g->prev_folded = g->folded; /* R21.4 in the next deal */
    if (winners) {
        g->phase = BW_GAME_OVER;
    } else {
        g->dealer = (uint8_t)left_of(g->dealer, n); /* R4 */
        g->deal_number += 1;
        g->phase = BW_DEAL;
    }
    fresh_deal(g);
}

/* ------------------------------------------------------------------ rules and set-up */

bw_rules bw_default_rules(void) {
    bw_rules rules = {BW_SCHLECK_ALTERNATE, 2, 1, BW_OVERSHOOT_WINS, 0, 1, 32, 20, 5};
    return rules;
}

int bw_rules_check(const bw_rules *r) {
    if (r->schleck > BW_SCHLECK_NONE || (r->dealer_stock_limit != 2 && r->dealer_stock_limit != 3) ||
        r->must_head > 1 || r->overshoot > BW_OVERSHOOT_ADDED_BACK || r->plus_fifty > 1 ||
        r->hearts_double > 1 || (r->pack != 32 && r->pack != 36) || r->start_score < 1 ||
        r->start_score > 1000 || r->min_fold_score < -1000 || r->min_fold_score > 1000) {
        return BW_E_RANGE;
    }
    return BW_OK;
}

int bw_game_init(bw_game *g, int n, const bw_rules *rules, int dealer, int32_t deal_number,
                 const int32_t *scores, uint8_t prev_folded) {
    bw_init_tables();
    if (bw_rules_check(rules) != BW_OK || n < 2 || n > (rules->pack == 32 ? 4 : 7) || dealer < 0 ||
        dealer >= n || deal_number < 1 || (prev_folded >> n) != 0) {
        return BW_E_RANGE;
    }
    memset(g, 0, sizeof *g);
    g->rules = *rules;
    g->n = (uint8_t)n;
    g->dealer = (uint8_t)dealer;
    g->deal_number = deal_number;
    for (int s = 0; s < n; s++) {
        g->scores[s] = scores ? scores[s] : rules->start_score; /* R28 */
    }
    g->prev_folded = prev_folded;
    fresh_deal(g);
    g->phase = BW_DEAL;
    return BW_OK;
}

int bw_num_ids(const bw_game *g) { return BW_PLAY_BASE + g->rules.pack; }

/* ------------------------------------------------------------ shuffle, cut, deal */

static inline int is_critical(int card) { return (int)(CRITICAL_MASK >> card & 1); }

/* GameState._first_look (R12, R14): the next look of the ritual, and who decides. */
static void first_look(bw_game *g) {
    int step = g->ncut;
    g->current = BW_NO_SEAT;
    if (g->rules.schleck == BW_SCHLECK_NONE || step >= 3 || (step && !g->cut[step - 1].taken)) {
        return;
    }
    int cutter = right_of(g->dealer, g->n); /* dealing.cut_looker */
    int seat = (g->rules.schleck == BW_SCHLECK_CUTTER_ONLY || step % 2 == 0) ? cutter : g->dealer;
    int card = g->pack[g->hi - 1];
    g->cut[step].seat = (uint8_t)seat;
    g->cut[step].card = (uint8_t)card;
    g->cut[step].taken = 0;
    g->ncut = (uint8_t)(step + 1);
    if (is_critical(card)) {
        g->current = (uint8_t)seat;
    }
}

/* GameState._deal_cards (R15): packets of 3 - k and 2 from forehand, the trump between. */
static void deal_cards(bw_game *g) {
    int n = g->n;
    int pos = g->lo;
    int seat = left_of(g->dealer, n);
    for (int i = 0; i < n; i++, seat = left_of(seat, n)) {
        int take = 3 - popcount64(g->hands[seat]);
        for (int k = 0; k < take; k++) {
            g->hands[seat] |= 1ULL << g->pack[pos++];
        }
    }
    g->trump = (int8_t)g->pack[pos++];
    seat = left_of(g->dealer, n);
    for (int i = 0; i < n; i++, seat = left_of(seat, n)) {
        g->hands[seat] |= 1ULL << g->pack[pos] | 1ULL << g->pack[pos + 1];
        pos += 2;
    }
    g->lo = (uint8_t)pos;
    g->took_trump = 0;
    g->phase = BW_EXCHANGE;
    g->current = (uint8_t)left_of(g->dealer, n); /* R18: forehand decides first */
}

/* The cut phase passed through when nobody is offered a Critical (ritual_over). */
static inline void after_look(bw_game *g) {
    if (g->current == BW_NO_SEAT) {
        deal_cards(g);
    }
}

/* GameState._apply_shuffle (R6, R11). */
int bw_shuffle(bw_game *g, const uint8_t *perm, int len) {
    if (g->phase != BW_DEAL) {
        return BW_E_PHASE;
    }
    if (len != g->rules.pack) {
        return BW_E_ILLEGAL;
    }
    uint64_t seen = 0;
    for (int i = 0; i < len; i++) {
        if (perm[i] >= len || (seen >> perm[i] & 1)) {
            return BW_E_ILLEGAL;
        }
        seen |= 1ULL << perm[i];
    }
    fresh_deal(g);
    memcpy(g->pack, perm, (size_t)len);
    g->lo = 0;
    g->hi = (uint8_t)len;
    g->phase = BW_CUT;
    first_look(g);
    after_look(g);
    return BW_OK;
}

/* ------------------------------------------------------------------ the exchange */

/* GameState._fold_rule (R21): 1 … 6 for the first condition that forbids, else 0. */
int bw_fold_rule(const bw_game *g, int seat) {
    if (g->deal_number == 1) {
        return 1;
    }
    if (bw_suit_of[g->trump] == HEARTS) {
        return 2;
    }
    if (g->scores[seat] <= g->rules.min_fold_score) {
        return 3;
    }
    if (g->prev_folded >> seat & 1) {
        return 4;
    }
    if (seat == g->dealer) {
        return 5;
    }
    if (seat == right_of(g->dealer, g->n)) {
        uint8_t others = (uint8_t)(((1u << g->n) - 1) & ~(1u << seat) & ~(1u << g->dealer));
        if ((g->folded & others) == others) {
            return 6;
        }
    }
    return 0;
}

/* The five cards of a hand in card order (the positions of the exchange ids). */
static int hand_cards(uint64_t hand, uint8_t *out) {
    int count = 0;
    while (hand && count < BW_MAX_PACK) {
        out[count++] = (uint8_t)__builtin_ctzll(hand);
        hand &= hand - 1;
    }
    return count;
}

/* How many stock cards seat may draw (R18-R20). */
static inline int draw_limit(const bw_game *g, int seat) {
    int limit = seat == g->dealer ? g->rules.dealer_stock_limit : 3;
    int stock = g->hi - g->lo;
    return limit < stock ? limit : stock;
}

static int do_exchange(bw_game *g, int id) {
    int seat = g->current;
    int take = id >= BW_EXCHANGE_TRUMP_BASE;
    unsigned p = (unsigned)(id - (take ? BW_EXCHANGE_TRUMP_BASE : BW_EXCHANGE_BASE));
    uint8_t cards[BW_MAX_PACK];
    int count = hand_cards(g->hands[seat], cards);
    if (count < 32 && (p >> count)) {
        return BW_E_RANGE;
    }
    uint64_t mask = 0;
    for (int j = 0; j < count; j++) {
        if (p >> j & 1) {
            mask |= 1ULL << cards[j];
        }
    }
    int size = popcount64(mask);
    int draws = size - take;
    int dealer = seat == g->dealer;
    int limit = dealer ? g->rules.dealer_stock_limit : 3;
    if (draws > limit || draws > g->hi - g->lo || (take && (!dealer || !mask))) {
        return BW_E_ILLEGAL; /* R18-R20, GameState._exchange_problem words it */
    }
    uint64_t hand = g->hands[seat] & ~mask;
    for (int k = 0; k < draws; k++) {
        hand |= 1ULL << g->pack[g->lo++];
    }
    if (take) {
        hand |= 1ULL << g->trump; /* R19 */
    }
    g->hands[seat] = hand;
    g->exchanged[seat] = (int8_t)size;
    g->discards[seat] |= mask;
    g->took_trump = (uint8_t)take;
    if (dealer) { /* R24: forehand leads, or the first active player after him */
        g->phase = BW_PLAY;
        int leader = next_active(g, g->dealer);
        g->current = (uint8_t)leader;
        g->play_mask = g->hands[leader];
    } else {
        g->current = (uint8_t)left_of(seat, g->n);
    }
    return BW_OK;
}

/* ------------------------------------------------------------------ trick play */

/* GameState._apply_play (R24-R27), for a card already known to be legal. */
static void do_play(bw_game *g, int card) {
    int seat = g->current;
    int n = g->n;
    g->hands[seat] &= ~(1ULL << card);
    g->trick[g->ntrick].seat = (uint8_t)seat;
    g->trick[g->ntrick].card = (uint8_t)card;
    g->ntrick++;
    int active = n - popcount8(g->folded);
    int trump = bw_suit_of[g->trump];
    if (g->ntrick == active) { /* the trick is complete: to its winner (R27) */
        int winner = g->trick[bw_best_play(g->trick, g->ntrick, trump)].seat;
        memcpy(g->played[g->nplayed], g->trick, sizeof(bw_play) * (size_t)g->ntrick);
        g->played_winner[g->nplayed] = (uint8_t)winner;
        g->nplayed++;
        g->tricks_won[winner]++;
        g->ntrick = 0;
        if (g->nplayed == BW_TRICKS) {
            g->phase = BW_SCORE;
            g->current = BW_NO_SEAT;
            g->play_mask = 0;
            score_deal(g); /* SCORE is passed through */
            return;
        }
        g->current = (uint8_t)winner;
        g->play_mask = g->hands[winner]; /* R24: the winner leads any card */
        return;
    }
    int next = next_active(g, seat);
    g->current = (uint8_t)next;
    g->play_mask = bw_legal_play_mask(g->hands[next], g->trick, g->ntrick, trump, g->rules.must_head);
}

/* ------------------------------------------------------------------ apply and legal */

int bw_apply(bw_game *g, int id) {
    if (id < 0 || id >= bw_num_ids(g)) {
        return BW_E_RANGE;
    }
    switch (g->phase) {
    case BW_PLAY:
        if (id < BW_PLAY_BASE) {
            return BW_E_PHASE;
        }
        if (!(g->play_mask >> (id - BW_PLAY_BASE) & 1)) {
            return BW_E_ILLEGAL;
        }
        do_play(g, id - BW_PLAY_BASE);
        return BW_OK;
    case BW_EXCHANGE:
        if (id == BW_FOLD_ID) {
            int seat = g->current;
            if (bw_fold_rule(g, seat)) {
                return BW_E_ILLEGAL;
            }
            g->folded |= (uint8_t)(1u << seat);
            g->took_trump = 0;
            g->current = (uint8_t)left_of(seat, g->n);
            return BW_OK;
        }
        if (id < BW_EXCHANGE_BASE || id >= BW_PLAY_BASE) {
            return BW_E_PHASE;
        }
        return do_exchange(g, id);
    case BW_CUT:
        if (id == BW_TAKE_ID) { /* R12: into the hand, shown to everybody (R13) */
            int seat = g->current;
            int card = g->pack[--g->hi];
            g->hands[seat] |= 1ULL << card;
            g->cut[g->ncut - 1].taken = 1;
            first_look(g);
            after_look(g);
            return BW_OK;
        }
        if (id == BW_LEAVE_ID) { /* R12: the ritual ends, the card stays at the bottom */
            g->current = BW_NO_SEAT;
            deal_cards(g);
            return BW_OK;
        }
        return BW_E_PHASE;
    default: /* DEAL wants a shuffle; GAME_OVER nothing */
        return BW_E_PHASE;
    }
}

int bw_legal(const bw_game *g, uint8_t *out) {
    int count = 0;
    switch (g->phase) {
    case BW_PLAY: {
        uint64_t mask = g->play_mask;
        while (mask) {
            out[count++] = (uint8_t)(BW_PLAY_BASE + __builtin_ctzll(mask));
            mask &= mask - 1;
        }
        return count;
    }
    case BW_EXCHANGE: {
        int seat = g->current;
        if (!bw_fold_rule(g, seat)) {
            out[count++] = BW_FOLD_ID;
        }
        int limit = draw_limit(g, seat);
        for (int p = 0; p < 32; p++) {
            if (popcount8((unsigned)p) <= limit) {
                out[count++] = (uint8_t)(BW_EXCHANGE_BASE + p);
            }
        }
        if (seat == g->dealer) { /* R19: giving one card more for the trump card */
            for (int p = 1; p < 32; p++) {
                if (popcount8((unsigned)p) <= limit + 1) {
                    out[count++] = (uint8_t)(BW_EXCHANGE_TRUMP_BASE + p);
                }
            }
        }
        return count;
    }
    case BW_CUT:
        out[0] = BW_TAKE_ID;
        out[1] = BW_LEAVE_ID;
        return 2;
    default:
        return 0;
    }
}

int bw_is_legal(const bw_game *g, int id) {
    bw_game copy = *g;
    return bw_apply(&copy, id) == BW_OK;
}

/* ------------------------------------------------------------------ random playouts */

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void bw_rng_seed(bw_rng *rng, uint64_t seed) {
    for (int i = 0; i < 4; i++) { /* splitmix64 */
        uint64_t z = (seed += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        rng->s[i] = z ^ (z >> 31);
    }
}

uint64_t bw_rng_next(bw_rng *rng) { /* xoshiro256** */
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint32_t bw_rng_below(bw_rng *rng, uint32_t bound) {
    uint64_t m = (uint64_t)(uint32_t)(bw_rng_next(rng) >> 32) * bound;
    uint32_t low = (uint32_t)m;
    if (low < bound) {
        uint32_t threshold = (uint32_t)(-bound) % bound;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)(bw_rng_next(rng) >> 32) * bound;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

void bw_shuffle_random(bw_game *g, bw_rng *rng) {
    uint8_t perm[BW_MAX_PACK];
    int size = g->rules.pack;
    for (int i = 0; i < size; i++) {
        perm[i] = (uint8_t)i;
    }
    for (int i = size - 1; i > 0; i--) { /* Fisher-Yates */
        int j = (int)bw_rng_below(rng, (uint32_t)(i + 1));
        uint8_t swap = perm[i];
        perm[i] = perm[j];
        perm[j] = swap;
    }
    bw_shuffle(g, perm, size);
}

long bw_playout(bw_game *g, bw_rng *rng, int32_t max_deal) {
    long decisions = 0;
    uint8_t legal[BW_MAX_LEGAL];
    while (g->phase != BW_GAME_OVER && g->deal_number <= max_deal) {
        if (g->phase == BW_DEAL) {
            bw_shuffle_random(g, rng);
            continue;
        }
        if (g->phase == BW_PLAY) { /* the commonest decision: a random bit of the mask */
            uint64_t mask = g->play_mask;
            uint32_t k = bw_rng_below(rng, (uint32_t)popcount64(mask));
            while (k--) {
                mask &= mask - 1;
            }
            do_play(g, __builtin_ctzll(mask));
        } else {
            int count = bw_legal(g, legal);
            bw_apply(g, legal[bw_rng_below(rng, (uint32_t)count)]);
        }
        decisions++;
    }
    return decisions;
}
