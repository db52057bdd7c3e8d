/* HeuristicBot in C: the twin of src/bohmisch_watten/bots/policy.py (decide) with the card
 * values of bots/_cards.py.  Every float is computed as Python computes it (the same
 * operations in the same order, sum() as the running interpreter sums), so the choice is
 * the same, ties included; tests/test_native_batch.py checks it against the Python bot
 * over many decisions. */
#include <math.h>

#include "batch.h"

#define CARD_MAXI 22
#define CARD_BELLI 24
#define CARD_SPITZ 0
#define ACE 7

static inline int rank_of(int card) { return card < 32 ? card % 8 : -1; } /* the Six: -1 */
static inline int is_critical(int card) {
    return card == CARD_MAXI || card == CARD_BELLI || card == CARD_SPITZ;
}
static inline int is_trump(int card, int trump) { /* effective suit TRUMP (R9, R10) */
    return is_critical(card) || bw_suit_of[card] == trump;
}

/* _cards.card_value: expected tricks of a card in a typical deal. */
static double card_value(int card, int trump) {
    static const double trump_values[9] = {0.18, 0.22, 0.27, 0.32, 0.38, 0.45, 0.55, 0.65, 0.75};
    if (card == CARD_MAXI) {
        return 1.0;
    }
    if (card == CARD_BELLI) {
        return 0.95;
    }
    if (card == CARD_SPITZ) {
        return 0.9;
    }
    int rank = rank_of(card);
    if (bw_suit_of[card] == trump) {
        return trump_values[rank + 1];
    }
    switch (rank) {
    case ACE:
        return 0.35;
    case 6: /* King */
        return 0.15;
    case 5: /* Ober */
        return 0.08;
    case 4: /* Unter */
        return 0.05;
    default:
        return 0.02;
    }
}

/* Python's sum() of floats: plain before 3.12, Neumaier's compensated sum from 3.12 on. */
typedef struct {
    double total, compensation;
    int neumaier;
} py_sum;

static void sum_add(py_sum *s, double x) {
    if (!s->neumaier) {
        s->total += x;
        return;
    }
    double t = s->total + x;
    if (fabs(s->total) >= fabs(x)) {
        s->compensation += (s->total - t) + x;
    } else {
        s->compensation += (x - t) + s->total;
    }
    s->total = t;
}

static double sum_result(const py_sum *s) {
    if (s->neumaier && s->compensation != 0.0 && isfinite(s->compensation)) {
        return s->total + s->compensation;
    }
    return s->total;
}

/* tricks.card_strength: the order of cards by strength (R7-R9). */
static int card_strength(int card, int trump) {
    if (is_critical(card)) {
        return card == CARD_MAXI ? 40 : card == CARD_BELLI ? 39 : 38;
    }
    return (bw_suit_of[card] == trump ? 20 : 10) + rank_of(card);
}

/* choose_exchange (rules 2 and 3): the best exchange, or fold (R18-R21). */
static int choose_exchange(const bw_game *g, const uint8_t *legal, int count, int neumaier) {
    int seat = g->current, trump_card = g->trump, trump = bw_suit_of[trump_card];
    uint8_t hand[5];
    int size = 0;
    for (uint64_t cards = g->hands[seat]; cards && size < 5; cards &= cards - 1) {
        hand[size++] = (uint8_t)__builtin_ctzll(cards);
    }
    /* mean_unseen_value([*hand, trump_card]): over the 32 cards of DECK */
    uint64_t seen = g->hands[seat] | 1ULL << trump_card;
    py_sum unseen = {0.0, 0.0, neumaier};
    int unseen_count = 0;
    for (int card = 0; card < 32; card++) {
        if (!(seen >> card & 1)) {
            sum_add(&unseen, card_value(card, trump));
            unseen_count++;
        }
    }
    double draw = unseen_count ? sum_result(&unseen) / unseen_count : 0.0;
    double values[5];
    py_sum kept = {0.0, 0.0, neumaier};
    for (int j = 0; j < size; j++) {
        values[j] = card_value(hand[j], trump);
        sum_add(&kept, values[j]);
    }
    double kept_total = sum_result(&kept);
    int best = -1, fold = 0;
    double best_value = 0.0;
    for (int k = 0; k < count; k++) { /* rank_exchanges: the first of the highest value */
        int id = legal[k];
        if (id == BW_FOLD_ID) {
            fold = 1;
            continue;
        }
        int take = id >= BW_EXCHANGE_TRUMP_BASE;
        unsigned p = (unsigned)(id - (take ? BW_EXCHANGE_TRUMP_BASE : BW_EXCHANGE_BASE));
        py_sum given = {0.0, 0.0, neumaier};
        for (int j = 0; j < size; j++) { /* the discard in card order */
            if (p >> j & 1) {
                sum_add(&given, values[j]);
            }
        }
        int drawn = __builtin_popcount(p);
        double gain = 0.0;
        if (take) {
            drawn -= 1;
            gain = card_value(trump_card, trump);
        }
        double value = kept_total - sum_result(&given) + gain + drawn * draw;
        if (best < 0 || value > best_value) {
            best = id;
            best_value = value;
        }
    }
    if (!fold) {
        return best;
    }
    /* rule 3: fold when the best hand still expects to gain points (R29, R30) */
    int take = best >= BW_EXCHANGE_TRUMP_BASE;
    unsigned p = (unsigned)(best - (take ? BW_EXCHANGE_TRUMP_BASE : BW_EXCHANGE_BASE));
    double kept_values[6 + 4];
    int kept_count = 0;
    for (int j = 0; j < size; j++) {
        if (!(p >> j & 1)) {
            kept_values[kept_count++] = values[j];
        }
    }
    int drawn = __builtin_popcount(p);
    if (take) {
        kept_values[kept_count++] = card_value(trump_card, trump);
        drawn -= 1;
    }
    for (int k = 0; k < drawn; k++) {
        kept_values[kept_count++] = draw;
    }
    double none = 1.0;
    py_sum total = {0.0, 0.0, neumaier};
    for (int k = 0; k < kept_count; k++) { /* expected_gain */
        none *= 1.0 - kept_values[k];
        sum_add(&total, kept_values[k]);
    }
    double expected = 5 * none - sum_result(&total);
    return expected > 0.0 ? BW_FOLD_ID : best;
}

/* The first card of cards (ascending) with the least card_strength. */
static int weakest(const uint8_t *cards, int count, int trump) {
    int best = cards[0];
    for (int i = 1; i < count; i++) {
        if (card_strength(cards[i], trump) < card_strength(best, trump)) {
            best = cards[i];
        }
    }
    return best;
}

/* choose_play (rules 4 and 5, R24-R27). */
static int choose_play(const bw_game *g, const uint8_t *legal, int count) {
    int trump = bw_suit_of[g->trump];
    uint8_t cards[BW_MAX_PACK] = {0}, some[BW_MAX_PACK] = {0};
    for (int i = 0; i < count; i++) {
        cards[i] = (uint8_t)(legal[i] - BW_PLAY_BASE);
    }
    if (g->ntrick == 0) {
        int trumps = 0, highest = -1;
        for (int i = 0; i < count; i++) {
            if (is_trump(cards[i], trump)) {
                trumps++;
                if (highest < 0 || card_strength(cards[i], trump) > card_strength(highest, trump)) {
                    highest = cards[i];
                }
            }
        }
        if (trumps >= 3 || (trumps >= 2 && is_critical(highest))) {
            return highest; /* draw the others' trumps (R25.3) */
        }
        int plain = 0;
        for (int i = 0; i < count; i++) {
            if (!is_trump(cards[i], trump)) {
                some[plain++] = cards[i];
            }
        }
        for (int i = 0; i < plain; i++) {
            if (rank_of(some[i]) == ACE) {
                return some[i];
            }
        }
        return plain ? weakest(some, plain, trump) : weakest(cards, count, trump);
    }
    /* win as cheaply as possible, else throw the weakest card */
    bw_play three[3] = {g->trick[0], g->trick[bw_best_play(g->trick, g->ntrick, trump)], {0, 0}};
    int winners = 0;
    for (int i = 0; i < count; i++) {
        three[2].card = cards[i]; /* outranks: it would take the trick from the best play */
        if (bw_best_play(three, 3, trump) == 2) {
            some[winners++] = cards[i];
        }
    }
    return winners ? weakest(some, winners, trump) : weakest(cards, count, trump);
}

int bw_heuristic(const bw_game *g, int neumaier) {
    uint8_t legal[BW_MAX_LEGAL];
    int count = bw_legal_in_order(g, legal);
    if (count == 1) {
        return legal[0];
    }
    if (g->phase == BW_CUT || g->trump < 0) {
        return BW_TAKE_ID; /* rule 1: take every Critical offered (R12, R14) */
    }
    if (g->phase == BW_EXCHANGE) {
        return choose_exchange(g, legal, count, neumaier);
    }
    return BW_PLAY_BASE + choose_play(g, legal, count);
}
