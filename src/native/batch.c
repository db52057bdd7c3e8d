/* N games stepped together (see batch.h): Python's generator, the legal ids in Python's
 * order, the observation encoder and the episodes of adapters/_seat_game.py. */
#include "batch.h"

#include <string.h>

/* ------------------------------------------------------------ random.Random (MT19937) */

/* init_genrand and init_by_array of CPython's Modules/_randommodule.c. */
static void mt_init(bw_pyrandom *r, uint32_t s) {
    r->mt[0] = s;
    for (int i = 1; i < BW_MT_N; i++) {
        r->mt[i] = 1812433253U * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (uint32_t)i;
    }
    r->index = BW_MT_N;
}

void bw_pyrandom_seed(bw_pyrandom *r, uint64_t seed) {
    /* random_seed(): the int's 32-bit chunks, least significant first, at least one. */
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    int length = key[1] ? 2 : 1;
    mt_init(r, 19650218U);
    int i = 1, j = 0;
    for (int k = BW_MT_N > length ? BW_MT_N : length; k; k--) {
        r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1664525U)) + key[j] +
                   (uint32_t)j;
        i++;
        j++;
        if (i >= BW_MT_N) {
            r->mt[0] = r->mt[BW_MT_N - 1];
            i = 1;
        }
        if (j >= length) {
            j = 0;
        }
    }
    for (int k = BW_MT_N - 1; k; k--) {
        r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= BW_MT_N) {
            r->mt[0] = r->mt[BW_MT_N - 1];
            i = 1;
        }
    }
    r->mt[0] = 0x80000000U;
    r->index = BW_MT_N;
}

/* genrand_uint32 */
static uint32_t mt_next(bw_pyrandom *r) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    if (r->index >= BW_MT_N) {
        int kk;
        for (kk = 0; kk < BW_MT_N - 397; kk++) {
            y = (r->mt[kk] & 0x80000000U) | (r->mt[kk + 1] & 0x7fffffffU);
            r->mt[kk] = r->mt[kk + 397] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < BW_MT_N - 1; kk++) {
            y = (r->mt[kk] & 0x80000000U) | (r->mt[kk + 1] & 0x7fffffffU);
            r->mt[kk] = r->mt[kk + (397 - BW_MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (r->mt[BW_MT_N - 1] & 0x80000000U) | (r->mt[0] & 0x7fffffffU);
        r->mt[BW_MT_N - 1] = r->mt[396] ^ (y >> 1) ^ mag01[y & 0x1U];
        r->index = 0;
    }
    y = r->mt[r->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

uint32_t bw_pyrandom_bits(bw_pyrandom *r, int k) { return mt_next(r) >> (32 - k); }

static int bit_length(uint32_t n) { return n ? 32 - __builtin_clz(n) : 0; }

uint32_t bw_pyrandom_below(bw_pyrandom *r, uint32_t n) { /* _randbelow_with_getrandbits */
    int k = bit_length(n);
    uint32_t value = bw_pyrandom_bits(r, k);
    while (value >= n) {
        value = bw_pyrandom_bits(r, k);
    }
    return value;
}

void bw_pyrandom_shuffle(bw_game *g, bw_pyrandom *r) {
    uint8_t order[BW_MAX_PACK];
    int size = g->rules.pack;
    for (int i = 0; i < size; i++) {
        order[i] = (uint8_t)i;
    }
    for (int i = size - 1; i > 0; i--) { /* random.Random.shuffle, as state.draw_shuffle */
        int j = (int)bw_pyrandom_below(r, (uint32_t)(i + 1));
        uint8_t swap = order[i];
        order[i] = order[j];
        order[j] = swap;
    }
    bw_shuffle(g, order, size);
}

/* ------------------------------------------------------------ legal ids, Python's order */

/* The 32 discard patterns of a five-card hand by size, then by card order (the order of
 * actions.exchange_options). */
static uint8_t pattern_order[32];
static int patterns_ready = 0;

static int pattern_before(unsigned a, unsigned b) {
    int ca = __builtin_popcount(a), cb = __builtin_popcount(b);
    if (ca != cb) {
        return ca < cb;
    }
    while (a && b) { /* the positions in ascending order, compared one by one */
        int pa = __builtin_ctz(a), pb = __builtin_ctz(b);
        if (pa != pb) {
            return pa < pb;
        }
        a &= a - 1;
        b &= b - 1;
    }
    return 0;
}

static void init_patterns(void) {
    if (patterns_ready) {
        return;
    }
    for (int p = 0; p < 32; p++) {
        int at = p;
        while (at > 0 && pattern_before((unsigned)p, pattern_order[at - 1])) {
            pattern_order[at] = pattern_order[at - 1];
            at--;
        }
        pattern_order[at] = (uint8_t)p;
    }
    patterns_ready = 1;
}

/* How many stock cards seat may draw (R18-R20). */
static int draw_limit(const bw_game *g, int seat) {
    int limit = seat == g->dealer ? g->rules.dealer_stock_limit : 3;
    int stock = g->hi - g->lo;
    return limit < stock ? limit : stock;
}

int bw_legal_in_order(const bw_game *g, uint8_t *out) {
    if (g->phase != BW_EXCHANGE) {
        return bw_legal(g, out); /* cut: take, leave; play: card order; else none */
    }
    init_patterns();
    int seat = g->current, count = 0;
    int dealer = seat == g->dealer;
    if (!dealer && !bw_fold_rule(g, seat)) { /* R21 */
        out[count++] = BW_FOLD_ID;
    }
    int limit = draw_limit(g, seat);
    for (int k = 0; k < 32; k++) {
        int p = pattern_order[k];
        if (__builtin_popcount((unsigned)p) <= limit) {
            out[count++] = (uint8_t)(BW_EXCHANGE_BASE + p);
        }
    }
    if (dealer) { /* R19: one card more given for the trump card */
        for (int k = 0; k < 32; k++) {
            int p = pattern_order[k];
            int size = __builtin_popcount((unsigned)p);
            if (size >= 1 && size <= limit + 1) {
                out[count++] = (uint8_t)(BW_EXCHANGE_TRUMP_BASE + p);
            }
        }
    }
    return count;
}

/* ------------------------------------------------------------ the observation */

static const int critical_row[BW_MAX_PACK] = {[22] = 0, [24] = 1, [0] = 2}; /* CRITICALS order */
#define CRITICALS ((1ULL << 22) | (1ULL << 24) | (1ULL << 0))

void bw_layout_init(bw_layout *l, int n, int pack) {
    int at = 0;
    l->n = n;
    l->pack = pack;
    l->num_ids = BW_PLAY_BASE + pack;
    at += pack; /* hand */
    l->discards = at, at += pack;
    l->draws = at, at += pack;
    l->cut_seen = at, at += pack;
    l->trump_card = at, at += pack;
    l->trump_suit = at, at += 4;
    l->trump_taken = at, at += 1;
    l->criticals_taken = at, at += 3 * n;
    l->criticals_left = at, at += n;
    l->trick = at, at += pack * n;
    l->trick_leader = at, at += n;
    l->played = at, at += pack * n;
    l->tricks_won = at, at += n;
    l->folded = at, at += n;
    l->exchanged = at, at += 6 * n;
    l->scores = at, at += n;
    l->dealer = at, at += n;
    l->forehand = at, at += n;
    l->to_act = at, at += n;
    l->phase = at, at += 6;
    l->stock = at, at += 1;
    l->size = at;
}

static inline void set_cards(float *row, int base, uint64_t cards) {
    while (cards) {
        row[base + __builtin_ctzll(cards)] = 1.0f;
        cards &= cards - 1;
    }
}

/* adapters/fast.py's _observation_bits and mask_bits, column for column. */
void bw_encode(const bw_layout *l, const bw_game *g, const uint64_t *draws, int seat, float *row,
               int8_t *mask) {
    int n = g->n, pack = l->pack;
    int rot[BW_MAX_PLAYERS];
    for (int s = 0; s < n; s++) {
        rot[s] = (s - seat + n) % n; /* seats are relative: row 0 is the viewer's (R6) */
    }
    memset(row, 0, sizeof(float) * (size_t)l->size);
    set_cards(row, 0, g->hands[seat]);
    set_cards(row, l->discards, g->discards[seat]);
    if (g->exchanged[seat] > 0) {
        set_cards(row, l->draws, draws[seat]); /* R23: a seat knows its own draws only */
    }
    for (int i = 0; i < g->ncut; i++) {
        const bw_look *look = &g->cut[i];
        if (look->taken) { /* R13: a taken card is public */
            row[l->criticals_taken + 3 * rot[look->seat] + critical_row[look->card]] = 1.0f;
        } else {
            if (look->seat == seat) { /* R13: a card left is known to its looker only */
                row[l->cut_seen + look->card] = 1.0f;
            }
            if (CRITICALS >> look->card & 1) {
                row[l->criticals_left + rot[look->seat]] = 1.0f;
            }
        }
    }
    if (g->trump >= 0) {
        row[l->trump_card + g->trump] = 1.0f;
        row[l->trump_suit + bw_suit_of[g->trump]] = 1.0f;
    }
    if (g->took_trump) {
        row[l->trump_taken] = 1.0f;
    }
    double goal = 2.0 * g->rules.start_score;
    for (int s = 0; s < n; s++) {
        int r = rot[s];
        if (g->folded >> s & 1) {
            row[l->folded + r] = 1.0f;
        }
        if (g->exchanged[s] >= 0) {
            row[l->exchanged + 6 * r + g->exchanged[s]] = 1.0f;
        }
        int32_t score = g->scores[s];
        int32_t top = 2 * g->rules.start_score;
        score = score < 0 ? 0 : score > top ? top : score;
        row[l->scores + r] = (float)((double)score / goal);
        row[l->tricks_won + r] = (float)((double)g->tricks_won[s] / 5.0);
    }
    row[l->dealer + rot[g->dealer]] = 1.0f;
    row[l->forehand + rot[(g->dealer + 1) % n]] = 1.0f; /* R2 */
    for (int i = 0; i < g->ntrick; i++) {
        row[l->trick + pack * rot[g->trick[i].seat] + g->trick[i].card] = 1.0f;
    }
    if (g->ntrick) {
        row[l->trick_leader + rot[g->trick[0].seat]] = 1.0f;
    }
    int active = n - __builtin_popcount(g->folded);
    for (int t = 0; t < g->nplayed; t++) {
        for (int i = 0; i < active; i++) {
            const bw_play *play = &g->played[t][i];
            row[l->played + pack * rot[play->seat] + play->card] = 1.0f;
        }
    }
    if (g->current != BW_NO_SEAT) {
        row[l->to_act + rot[g->current]] = 1.0f;
    }
    row[l->phase + g->phase] = 1.0f;
    row[l->stock] = (float)((double)(g->hi - g->lo) / (double)pack);

    memset(mask, 0, (size_t)l->num_ids);
    if (g->current == seat) {
        if (g->phase == BW_PLAY) {
            uint64_t cards = g->play_mask;
            while (cards) {
                mask[BW_PLAY_BASE + __builtin_ctzll(cards)] = 1;
                cards &= cards - 1;
            }
        } else {
            uint8_t ids[BW_MAX_LEGAL];
            int count = bw_legal(g, ids);
            for (int i = 0; i < count; i++) {
                mask[ids[i]] = 1;
            }
        }
    }
}

/* ------------------------------------------------------------ episodes (SeatGame) */

/* bw_apply, keeping what the observation needs and the state does not hold: each seat's
 * draws from the stock (R23). */
static void slot_apply(bw_slot *slot, int id) {
    bw_game *g = &slot->game;
    int phase = g->phase, seat = g->current;
    uint64_t before = seat < BW_MAX_PLAYERS ? g->hands[seat] : 0;
    bw_apply(g, id);
    if (phase == BW_EXCHANGE && id >= BW_EXCHANGE_BASE && id < BW_PLAY_BASE) {
        uint64_t trump = id >= BW_EXCHANGE_TRUMP_BASE ? 1ULL << g->trump : 0;
        slot->draws[seat] = g->hands[seat] & ~before & ~trump;
    }
    if (g->phase == BW_DEAL || g->phase == BW_GAME_OVER) { /* a deal's points posted (R28) */
        memset(slot->draws, 0, sizeof slot->draws);
    }
}

static int ended(const bw_batch *b, const bw_game *g) { /* SeatGame.ended */
    if (g->phase == BW_GAME_OVER) {
        return 1;
    }
    return b->deal_mode && g->deal_number != b->start.deal_number;
}

static int capped(const bw_batch *b, const bw_game *g) { /* SeatGame.capped */
    return g->deal_number - b->start.deal_number >= b->max_deals;
}

/* SeatGame.pay for a step that posted a deal: every seat's reward into paid; 0 for None. */
static int pay(const bw_batch *b, const int32_t *before, const bw_game *after, double *paid) {
    int n = after->n;
    if (b->deal_mode) { /* minus the score change (R29-R32) */
        for (int s = 0; s < n; s++) {
            paid[s] = (double)(before[s] - after->scores[s]);
        }
        return 1;
    }
    if (after->phase != BW_GAME_OVER) {
        return 0;
    }
    uint8_t winners, losers; /* returns(): +1 winner, -1 loser (R34) */
    bw_result(after, &winners, &losers);
    for (int s = 0; s < n; s++) {
        paid[s] = (winners >> s & 1) ? 1.0 : (losers >> s & 1) ? -1.0 : 0.0;
    }
    return 1;
}

static int bot_id(const bw_batch *b, bw_slot *slot, int seat) {
    if (b->seats[seat] == BW_SEAT_HEURISTIC) {
        return bw_heuristic(&slot->game, b->neumaier);
    }
    uint8_t ids[BW_MAX_LEGAL]; /* RandomBot: rng.choice(legal_actions()) */
    int count = bw_legal_in_order(&slot->game, ids);
    return ids[bw_pyrandom_below(&slot->rng, (uint32_t)count)];
}

/* SeatGame._bots_move: shuffles and bot moves until a learner is to act or the episode
 * ends; returns whether a step paid (into paid). */
static int bots_move(const bw_batch *b, bw_slot *slot, double *paid) {
    int given = 0;
    bw_game *g = &slot->game;
    for (;;) {
        int mover = g->current;
        if (mover == BW_NO_SEAT) {
            if (g->phase != BW_DEAL) {
                break; /* the game is over: caught below when it happened */
            }
            bw_pyrandom_shuffle(g, &slot->rng);
            memset(slot->draws, 0, sizeof slot->draws);
            continue;
        }
        if (mover == b->learner) {
            break;
        }
        if (b->learner < 0) { /* self-play: every seat is the learner */
            slot->to_act = (uint8_t)mover;
            break;
        }
        int32_t before[BW_MAX_PLAYERS];
        memcpy(before, g->scores, sizeof before);
        slot_apply(slot, bot_id(b, slot, mover));
        if (g->phase == BW_DEAL || g->phase == BW_GAME_OVER) { /* posted (R28) */
            given = pay(b, before, g, paid);
            if (ended(b, g) || capped(b, g)) {
                break;
            }
        }
    }
    return given;
}

static int advance(const bw_batch *b, bw_slot *slot, double *paid) { /* SeatGame.advance */
    if (ended(b, &slot->game) || capped(b, &slot->game)) {
        return 0;
    }
    return bots_move(b, slot, paid);
}

void bw_batch_reset(bw_batch *b, int i, int reseed, uint64_t seed) {
    bw_slot *slot = &b->slots[i];
    double ignored[BW_MAX_PLAYERS];
    if (reseed) {
        bw_pyrandom_seed(&slot->rng, seed);
    }
    slot->game = b->start;
    memset(slot->draws, 0, sizeof slot->draws);
    slot->done = 0;
    advance(b, slot, ignored);
}

/* SeatGame.play of a legal id: whether it paid (into paid), and the episode's end. */
static int play(const bw_batch *b, bw_slot *slot, int id, double *paid, uint8_t *terminated,
                uint8_t *truncated) {
    bw_game *g = &slot->game;
    int32_t before[BW_MAX_PLAYERS];
    memcpy(before, g->scores, sizeof before);
    int32_t deal = g->deal_number;
    int given;
    slot_apply(slot, id);
    if (g->phase != BW_DEAL && g->phase != BW_GAME_OVER) {
        given = bots_move(b, slot, paid);
    } else {
        given = pay(b, before, g, paid);
        if (!given) { /* a step that pays ends the episode: nothing more moves */
            given = advance(b, slot, paid);
        }
    }
    if (g->deal_number == deal && g->phase != BW_GAME_OVER) { /* no deal posted */
        *terminated = *truncated = 0;
    } else {
        *terminated = (uint8_t)ended(b, g);
        *truncated = (uint8_t)(!*terminated && capped(b, g));
    }
    return given;
}

static int is_legal_for(const bw_game *g, int seat, int64_t id) {
    if (g->current != seat || id < 0 || id >= bw_num_ids(g)) {
        return 0;
    }
    if (g->phase == BW_PLAY) {
        return id >= BW_PLAY_BASE && (g->play_mask >> (id - BW_PLAY_BASE) & 1);
    }
    return bw_is_legal(g, (int)id);
}

/* WattenVectorEnv.step, game by game. */
void bw_batch_step(bw_batch *b, const int64_t *actions, const bw_outputs *out) {
    int n = b->start.n;
    for (int i = 0; i < b->num_games; i++) {
        bw_slot *slot = &b->slots[i];
        double *every = out->every + (size_t)i * (size_t)n;
        memset(every, 0, sizeof(double) * (size_t)n);
        out->rewards[i] = 0.0;
        out->terminated[i] = out->truncated[i] = out->illegal[i] = out->reset[i] = 0;
        if (slot->done) { /* NEXT_STEP autoreset: the action is ignored */
            bw_batch_reset(b, i, 0, 0);
            out->reset[i] = 1;
            continue;
        }
        int actor = slot->to_act;
        int64_t id = actions[i]; /* read once: the caller's array is not ours */
        if (!is_legal_for(&slot->game, actor, id)) {
            out->illegal[i] = 1; /* ends the episode with -1 for the actor alone */
            out->terminated[i] = 1;
            out->rewards[i] = -1.0;
            every[actor] = -1.0;
        } else if (play(b, slot, (int)id, every, &out->terminated[i], &out->truncated[i])) {
            out->rewards[i] = every[actor];
        } else {
            memset(every, 0, sizeof(double) * (size_t)n);
        }
        slot->done = (uint8_t)(out->terminated[i] | out->truncated[i]);
    }
    bw_batch_observe(b, out);
}

void bw_batch_observe(const bw_batch *b, const bw_outputs *out) {
    const bw_layout *l = &b->layout;
    for (int i = 0; i < b->num_games; i++) {
        const bw_slot *slot = &b->slots[i];
        bw_encode(l, &slot->game, slot->draws, slot->to_act,
                  out->observations + (size_t)i * (size_t)l->size,
                  out->masks + (size_t)i * (size_t)l->num_ids);
        out->seats[i] = slot->to_act;
    }
}

void bw_batch_random_actions(const bw_batch *b, bw_rng *rng, int64_t *out) {
    uint8_t ids[BW_MAX_LEGAL];
    for (int i = 0; i < b->num_games; i++) {
        const bw_game *g = &b->slots[i].game;
        if (g->current != b->slots[i].to_act || g->current == BW_NO_SEAT) {
            out[i] = 0;
            continue;
        }
        if (g->phase == BW_PLAY) { /* a random bit of the play mask */
            uint64_t mask = g->play_mask;
            uint32_t k = bw_rng_below(rng, (uint32_t)__builtin_popcountll(mask));
            while (k--) {
                mask &= mask - 1;
            }
            out[i] = BW_PLAY_BASE + __builtin_ctzll(mask);
            continue;
        }
        int count = bw_legal(g, ids);
        out[i] = ids[bw_rng_below(rng, (uint32_t)count)];
    }
}
