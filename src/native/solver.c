/* The exact solver of the rest of a deal whose hands are all known (R24-R32): the
 * native twin of ``solve_masks`` in src/bohmisch_watten/solver.py, which is the
 * reference and documents the method.
 *
 * WHY a twin and not a different solver: the expert bot gives up on a sampled world
 * when the solver starts more tricks than its budget (``max_nodes``), and values that
 * world another way.  For the expert to choose the same cards with either core, this
 * search must not only return the same values but start exactly the same tricks: the
 * same probes in the same order, the same move ordering, the same merging of
 * interchangeable cards and a transposition table that never forgets an entry (the
 * Python one is a dict).  tests/test_native_solver.py checks values and limits
 * against the Python search.
 *
 * Cards are ints 0-35 (``suit * 8 + rank``, the Sixes 32-35), hands 64-bit masks.
 * The entry point copies and checks every argument under the GIL, then searches
 * without it: all state of a search lives in one ``Search`` on the caller's stack
 * and its table on the heap, so threads may solve at once.
 */
#include "solver.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SEATS 7       /* R1: at most seven players */
#define CARDS 36      /* R6: the 36-card pack; the 32-card pack is its first 32 */
#define TRUMP 4       /* the effective suit of every trump (R10) */
#define TRICKS 5      /* R11: five cards each, five tricks a deal */
#define HAND_BITS ((UINT64_C(1) << CARDS) - 1)
#define POINT_LIMIT (INT64_C(1) << 53) /* point values: far from int64 overflow */

enum { NO = 0, YES = 1, LIMIT = -1, NO_MEMORY = -2 };

/* ------------------------------------------------------------------ card tables */

/* Read-only after bw_solver_register (run once, under the GIL, at import). */
static uint8_t STRENGTH[4][5][CARDS]; /* [trump][effective led suit][card], R27 */
static uint64_t BEATS[4][5][CARDS];   /* the cards that beat a card in such a trick */
static uint8_t EFFECTIVE[4][CARDS];   /* R10: TRUMP for a trump, else the printed suit */
static uint64_t FOLLOW[4][5];         /* the cards of an effective suit (R8) */
static uint64_t TRUMPS[4];            /* every trump, Criticals included (R9) */
static uint16_t ORDER[4][CARDS];      /* by effective suit, then strength */

static int suit_of(int card) { return card < 32 ? card >> 3 : card - 32; }
static int rank_of(int card) { return card < 32 ? (card & 7) : -1; } /* a Six: below 7 */

static int strength(int trump, int led, int card) {
    if (card == 2 * 8 + 6) return 40; /* Maxi, the Hearts King (R7) */
    if (card == 3 * 8 + 0) return 39; /* Belli, the Bells Seven */
    if (card == 0 * 8 + 0) return 38; /* Spitz, the Acorns Seven */
    if (suit_of(card) == trump) return 20 + rank_of(card);
    if (suit_of(card) == led) return 10 + rank_of(card);
    return 0;
}

static void build_tables(void) {
    uint64_t criticals = (UINT64_C(1) << 22) | (UINT64_C(1) << 24) | UINT64_C(1);
    for (int t = 0; t < 4; t++) {
        uint64_t suit_mask[4] = {0, 0, 0, 0};
        for (int c = 0; c < CARDS; c++) suit_mask[suit_of(c)] |= UINT64_C(1) << c;
        TRUMPS[t] = suit_mask[t] | criticals;
        for (int s = 0; s < 4; s++) FOLLOW[t][s] = suit_mask[s] & ~TRUMPS[t];
        FOLLOW[t][TRUMP] = TRUMPS[t];
        for (int c = 0; c < CARDS; c++)
            EFFECTIVE[t][c] = (uint8_t)((TRUMPS[t] >> c & 1) ? TRUMP : suit_of(c));
        for (int led = 0; led < 5; led++)
            for (int c = 0; c < CARDS; c++) STRENGTH[t][led][c] = (uint8_t)strength(t, led, c);
        for (int led = 0; led < 5; led++)
            for (int w = 0; w < CARDS; w++) {
                uint64_t beats = 0;
                for (int c = 0; c < CARDS; c++)
                    if (STRENGTH[t][led][c] > STRENGTH[t][led][w]) beats |= UINT64_C(1) << c;
                BEATS[t][led][w] = beats;
            }
        for (int c = 0; c < CARDS; c++)
            ORDER[t][c] = (uint16_t)(EFFECTIVE[t][c] * 64 + STRENGTH[t][EFFECTIVE[t][c]][c]);
    }
}

static int popcount(uint64_t x) { return __builtin_popcountll(x); }
static int lowest(uint64_t x) { return __builtin_ctzll(x); }
static int highest(uint64_t x) { return 63 - __builtin_clzll(x); }

/* ------------------------------------------------------------------ tricks */

typedef struct {
    uint8_t seat[SEATS];
    uint8_t card[SEATS];
    int len;
} Trick;

static void push(Trick *trick, int seat, int card) {
    trick->seat[trick->len] = (uint8_t)seat;
    trick->card[trick->len] = (uint8_t)card;
    trick->len++;
}

/* The index in ``trick`` of the play now winning it (R27): best_play in tricks.py. */
static int best_index(const Trick *trick, int trump) {
    const uint8_t *power = STRENGTH[trump][EFFECTIVE[trump][trick->card[0]]];
    int best = 0;
    for (int i = 1; i < trick->len; i++)
        if (power[trick->card[i]] > power[trick->card[best]]) best = i;
    return best;
}

static int winner(const Trick *trick, int trump) { return trick->seat[best_index(trick, trump)]; }

/* The cards of ``hand`` that may be played to a non-empty trick (R25, R26). */
static uint64_t legal_mask(uint64_t hand, const Trick *trick, int trump, int must_head) {
    int led = EFFECTIVE[trump][trick->card[0]];
    uint64_t follow = hand & FOLLOW[trump][led];
    if (!follow && led != TRUMP) follow = hand & TRUMPS[trump]; /* R25.2: must trump */
    if (!follow) return hand;                                    /* R25.4 */
    if (must_head) {
        uint64_t heading = follow & BEATS[trump][led][trick->card[best_index(trick, trump)]];
        if (heading) return heading; /* R25.1-3: head / overtrump when possible */
    }
    return follow;
}

/* The cards of ``legal`` in groups of interchangeable cards, weakest group first
 * (``_classes`` in solver.py): same effective suit (R10) and no card in play between
 * them in strength (R27).  Fills ``cards`` in ascending order and ``group`` with each
 * card's group number; returns the number of cards. */
static int classes(uint64_t legal, uint64_t inplay, int trump, int *cards, int *group) {
    const uint16_t *order = ORDER[trump];
    int n = 0;
    for (uint64_t rest = legal; rest; rest &= rest - 1) {
        int card = lowest(rest), i = n++;
        while (i > 0 && order[cards[i - 1]] > order[card]) {
            cards[i] = cards[i - 1];
            i--;
        }
        cards[i] = card;
    }
    int g = 0;
    group[0] = 0;
    for (int i = 1; i < n; i++) {
        int low = cards[i - 1], high = cards[i], suit = EFFECTIVE[trump][high];
        if (!(suit == EFFECTIVE[trump][low] &&
              (inplay & BEATS[trump][suit][low] & ~BEATS[trump][suit][high]) ==
                  UINT64_C(1) << high))
            g++;
        group[i] = g;
    }
    return n;
}

/* ------------------------------------------------------------------ the table */

/* One remembered node: the hands and seat to lead, and ``tag`` (the paranoid probe's
 * ``want`` set, 0 for its bounds; the selfish search's tricks taken so far). */
typedef struct {
    uint64_t hands[SEATS];
    uint64_t hash;
    uint32_t tag;
    uint32_t value; /* a probe's answer, or a packed max^n line */
    int8_t lo, hi;  /* the bounds on the mover's remaining tricks */
    uint8_t seat;
} Entry;

/* Open addressing over indices into a growing array of entries: an entry never
 * moves out of the table (the Python dicts forget nothing either), only its index is
 * stable across growth, so the search keeps indices, not pointers. */
typedef struct {
    Entry *entries;
    size_t count, capacity;
    uint32_t *slots; /* 0 empty, else entry index + 1 */
    size_t mask;
} Table;

static int table_init(Table *table) {
    table->capacity = 256;
    table->count = 0;
    table->mask = 511;
    table->entries = malloc(table->capacity * sizeof(Entry));
    table->slots = calloc(table->mask + 1, sizeof(uint32_t));
    return table->entries && table->slots ? 0 : -1;
}

static void table_free(Table *table) {
    free(table->entries);
    free(table->slots);
}

static uint64_t key_hash(const uint64_t *hands, int n, int seat, uint32_t tag) {
    uint64_t h = (uint64_t)seat * UINT64_C(0x9E3779B97F4A7C15) ^ (uint64_t)tag << 40;
    for (int i = 0; i < n; i++) {
        h ^= hands[i] + UINT64_C(0x632BE59BD9B4E019) * (uint64_t)(i + 1);
        h *= UINT64_C(0xBF58476D1CE4E5B9);
        h ^= h >> 31;
    }
    return h;
}

static int table_grow(Table *table) {
    size_t size = (table->mask + 1) * 2;
    uint32_t *slots = calloc(size, sizeof(uint32_t));
    if (!slots) return -1;
    for (size_t i = 0; i < table->count; i++) {
        size_t at = table->entries[i].hash & (size - 1);
        while (slots[at]) at = (at + 1) & (size - 1);
        slots[at] = (uint32_t)(i + 1);
    }
    free(table->slots);
    table->slots = slots;
    table->mask = size - 1;
    return 0;
}

/* The index of the entry for this key, or -1 if absent (``insert`` false), or a new
 * zeroed entry's (``*fresh`` set); -2 when memory runs out. */
static long table_find(Table *table, const uint64_t *hands, int n, int seat, uint32_t tag,
                       int insert, int *fresh) {
    uint64_t hash = key_hash(hands, n, seat, tag);
    size_t at = hash & table->mask;
    for (uint32_t slot; (slot = table->slots[at]) != 0; at = (at + 1) & table->mask) {
        Entry *entry = &table->entries[slot - 1];
        if (entry->hash == hash && entry->seat == seat && entry->tag == tag &&
            memcmp(entry->hands, hands, (size_t)n * sizeof(uint64_t)) == 0)
            return (long)(slot - 1);
    }
    if (!insert) return -1;
    if (table->count >= UINT32_MAX - 1) return -2;
    if (table->count == table->capacity) {
        Entry *grown = realloc(table->entries, 2 * table->capacity * sizeof(Entry));
        if (!grown) return -2;
        table->entries = grown;
        table->capacity *= 2;
    }
    size_t index = table->count++;
    Entry *entry = &table->entries[index];
    memset(entry, 0, sizeof(Entry));
    memcpy(entry->hands, hands, (size_t)n * sizeof(uint64_t));
    entry->hash = hash;
    entry->seat = (uint8_t)seat;
    entry->tag = tag;
    table->slots[at] = (uint32_t)(index + 1);
    *fresh = 1;
    if (2 * table->count > table->mask && table_grow(table) < 0) return -2;
    return (long)index;
}

/* ------------------------------------------------------------------ one search */

typedef struct {
    int n, active, trump, must_head, mover;
    int next[SEATS]; /* R24: the next seat in play, folded seats skipped */
    int64_t points[SEATS][TRICKS + 1];
    int limited;
    int64_t budget; /* the tricks the search may still start */
    Table table;
} Search;

static uint64_t all_cards(const Search *s, const uint64_t *hands) {
    uint64_t all = 0;
    for (int i = 0; i < s->n; i++) all |= hands[i];
    return all;
}

/* The trumps stronger than every card of ``trumps`` (non-empty): ``_above``. */
static uint64_t above(uint64_t trumps, int trump) {
    const uint8_t *power = STRENGTH[trump][TRUMP];
    int top = lowest(trumps);
    for (uint64_t rest = trumps; rest; rest &= rest - 1)
        if (power[lowest(rest)] > power[top]) top = lowest(rest);
    return BEATS[trump][TRUMP][top];
}

/* Bounds on the mover's remaining tricks from the trumps alone (``_sure``). */
static void sure(const Search *s, const uint64_t *hands, int left, int *lo, int *hi) {
    uint64_t trumps = TRUMPS[s->trump];
    uint64_t mine = hands[s->mover] & trumps;
    uint64_t theirs = (all_cards(s, hands) ^ hands[s->mover]) & trumps;
    if (!theirs) {
        *lo = popcount(mine);
        *hi = left;
        return;
    }
    uint64_t over = trumps;
    *lo = 0;
    if (mine) {
        *lo = popcount(mine & above(theirs, s->trump));
        over = above(mine, s->trump);
    }
    int lost = 0;
    for (int seat = 0; seat < s->n; seat++)
        if (seat != s->mover && popcount(hands[seat] & over) > lost)
            lost = popcount(hands[seat] & over);
    *hi = left - lost;
}

/* Whether the mover can end with r more tricks for some bit r of ``want``: the
 * paranoid probe (``_Paranoid.force``).  YES, NO, or LIMIT / NO_MEMORY. */
static int force(Search *s, uint64_t *hands, const Trick *trick, int seat, unsigned want,
                 uint64_t inplay) {
    const int trump = s->trump, mover = s->mover;
    uint64_t hand = hands[seat];
    int left = popcount(hand); /* tricks still to play, the current one included */
    unsigned full = (2u << left) - 1;
    want &= full;
    if (want == full) return YES;
    if (!want) return NO;
    if (left == 1) { /* the last trick: every card is forced */
        Trick plays = *trick;
        while (plays.len < s->active) {
            push(&plays, seat, highest(hands[seat]));
            seat = s->next[seat];
        }
        return (want >> (winner(&plays, trump) == mover)) & 1;
    }
    long entry = -1; /* the bounds' entry (threshold probes), or */
    int keyed = 0;   /* a probe of another set of outcomes, remembered by its set */
    int need = -1, fresh = 0;
    uint64_t legal = hand;
    if (trick->len) {
        legal = legal_mask(hand, trick, trump, s->must_head);
    } else {
        keyed = 1;
        if (s->limited && --s->budget < 0) return LIMIT;
        unsigned low = want & (0u - want);
        if (want == (full & (0u - low))) { /* "at least need more tricks" */
            need = lowest(low);
            entry = table_find(&s->table, hands, s->n, seat, 0, 1, &fresh);
            if (entry < 0) return NO_MEMORY;
            Entry *e = &s->table.entries[entry];
            if (fresh) {
                int lo, hi;
                sure(s, hands, left, &lo, &hi);
                e->lo = (int8_t)lo;
                e->hi = (int8_t)hi;
            }
            if (need <= e->lo) return YES;
            if (need > e->hi) return NO;
        } else {
            long known = table_find(&s->table, hands, s->n, seat, want, 0, &fresh);
            if (known >= 0) return (int)s->table.entries[known].value;
        }
    }
    int moves[TRICKS], count = 0;
    if (legal & (legal - 1)) {
        int cards[CARDS], group[CARDS];
        int n = classes(legal, inplay, trump, cards, group);
        for (int i = 0; i < n; i++) /* the strongest card of each group, weakest first */
            if (i == n - 1 || group[i + 1] != group[i]) moves[count++] = cards[i];
        /* Ordering (R27), as solver.py: the mover strongest first; the others try to
         * beat him before he plays or while he wins, and play low otherwise. */
        int down;
        if (seat == mover || (trick->len && popcount(hands[mover]) == left))
            down = 1;
        else if (trick->len)
            down = winner(trick, trump) == mover;
        else
            down = 0;
        if (down)
            for (int i = 0, j = count - 1; i < j; i++, j--) {
                int swap = moves[i];
                moves[i] = moves[j];
                moves[j] = swap;
            }
    } else {
        moves[count++] = lowest(legal);
    }
    const int is_mover = seat == mover;
    int result = !is_mover;
    for (int i = 0; i < count; i++) {
        int card = moves[i], ok;
        hands[seat] = hand ^ (UINT64_C(1) << card);
        Trick plays = *trick;
        push(&plays, seat, card);
        if (plays.len == s->active) { /* R27: the trick is complete */
            int won = winner(&plays, trump);
            Trick none = {.len = 0};
            ok = force(s, hands, &none, won, won == mover ? want >> 1 : want,
                       all_cards(s, hands));
        } else {
            ok = force(s, hands, &plays, s->next[seat], want, inplay);
        }
        if (ok < 0) {
            hands[seat] = hand;
            return ok;
        }
        if (ok == is_mover) {
            result = ok;
            break;
        }
    }
    hands[seat] = hand;
    if (entry >= 0) {
        Entry *e = &s->table.entries[entry]; /* re-read: the table may have grown */
        if (result)
            e->lo = (int8_t)need;
        else
            e->hi = (int8_t)(need - 1);
    } else if (keyed) {
        long at = table_find(&s->table, hands, s->n, seat, want, 1, &fresh);
        if (at < 0) return NO_MEMORY;
        s->table.entries[at].value = (uint32_t)result;
    }
    return result;
}

static uint64_t trick_cards(const Trick *trick) {
    uint64_t cards = 0;
    for (int i = 0; i < trick->len; i++) cards |= UINT64_C(1) << trick->card[i];
    return cards;
}

/* The mover's deal points at this node, having taken ``taken`` tricks (``value``):
 * a binary search over the values his points can still take, or a walk from the
 * sibling's value ``guess``.  0, or LIMIT / NO_MEMORY. */
static int value(Search *s, uint64_t *hands, const Trick *trick, int seat, int taken,
                 int has_guess, int64_t guess, int64_t *out) {
    int left = popcount(hands[seat]);
    const int64_t *outcomes = &s->points[s->mover][taken];
    int64_t candidates[TRICKS + 1];
    int count = 0;
    for (int r = 0; r <= left; r++) { /* sorted, without repeats */
        int i = count;
        int64_t v = outcomes[r];
        int seen = 0;
        for (int j = 0; j < count; j++) seen |= candidates[j] == v;
        if (seen) continue;
        while (i > 0 && candidates[i - 1] > v) {
            candidates[i] = candidates[i - 1];
            i--;
        }
        candidates[i] = v;
        count++;
    }
    uint64_t inplay = all_cards(s, hands) | trick_cards(trick);
    unsigned wants[TRICKS + 1];
    for (int i = 0; i < count; i++) {
        wants[i] = 0;
        for (int r = 0; r <= left; r++)
            if (outcomes[r] <= candidates[i]) wants[i] |= 1u << r;
    }
#define AT_MOST(index, into)                                             \
    do {                                                                 \
        into = force(s, hands, trick, seat, wants[index], inplay);       \
        if (into < 0) return into;                                       \
    } while (0)
    int low = 0, high = count - 1, ok;
    if (has_guess && low < high) {
        int near = 0;
        for (int i = 1; i < count; i++) {
            int64_t d = candidates[i] - guess, best = candidates[near] - guess;
            if ((d < 0 ? -d : d) < (best < 0 ? -best : best)) near = i;
        }
        ok = 1;
        if (near != high) AT_MOST(near, ok);
        if (ok) { /* walk down from the guess */
            high = near;
            while (low < high) {
                AT_MOST(high - 1, ok);
                if (!ok) break;
                high--;
            }
            low = high;
        } else { /* walk up */
            low = near + 1;
            while (low < high) {
                AT_MOST(low, ok);
                if (ok) break;
                low++;
            }
            high = low;
        }
    }
    while (low < high) {
        int mid = (low + high) / 2;
        AT_MOST(mid, ok);
        if (ok)
            high = mid;
        else
            low = mid + 1;
    }
#undef AT_MOST
    *out = candidates[low];
    return 0;
}

/* ------------------------------------------------------------------ max^n */

static uint32_t pack_line(const uint8_t *won, int n) {
    uint32_t packed = 0;
    for (int i = 0; i < n; i++) packed |= (uint32_t)won[i] << (3 * i);
    return packed;
}

static void unpack_line(uint32_t packed, int n, uint8_t *won) {
    for (int i = 0; i < n; i++) won[i] = (uint8_t)(packed >> (3 * i) & 7);
}

/* One card of each group with the same max^n line, in card order
 * (``_selfish_moves``): interchangeable cards with no card of the hand between them
 * in card order, each group represented by its lowest card. */
static int selfish_moves(uint64_t legal, uint64_t hand, uint64_t inplay, int trump, int *moves) {
    int cards[CARDS], group[CARDS], count = 0;
    int n = classes(legal, inplay, trump, cards, group);
    int run_min = cards[0];
    for (int i = 1; i <= n; i++) {
        if (i == n || group[i] != group[i - 1]) {
            moves[count++] = run_min;
            if (i < n) run_min = cards[i];
            continue;
        }
        int first = cards[i - 1] < cards[i] ? cards[i - 1] : cards[i];
        int last = cards[i - 1] < cards[i] ? cards[i] : cards[i - 1];
        if (hand & ((UINT64_C(1) << last) - (UINT64_C(2) << first))) { /* a card between */
            moves[count++] = run_min;
            run_min = cards[i];
        } else if (cards[i] < run_min) {
            run_min = cards[i];
        }
    }
    for (int i = 1; i < count; i++) /* card order */
        for (int j = i; j > 0 && moves[j - 1] > moves[j]; j--) {
            int swap = moves[j];
            moves[j] = moves[j - 1];
            moves[j - 1] = swap;
        }
    return count;
}

static int line(Search *s, uint64_t *hands, const Trick *trick, int seat, const uint8_t *won,
                uint64_t inplay, uint8_t *out);

/* The max^n line after ``seat`` plays ``card`` (``_Selfish.child``). */
static int child(Search *s, uint64_t *hands, const Trick *trick, int seat, const uint8_t *won,
                 int card, uint64_t inplay, uint8_t *out) {
    uint64_t hand = hands[seat];
    int status;
    hands[seat] = hand ^ (UINT64_C(1) << card);
    Trick plays = *trick;
    push(&plays, seat, card);
    if (plays.len == s->active) {
        int taker = winner(&plays, s->trump);
        uint8_t after[SEATS];
        memcpy(after, won, SEATS);
        after[taker]++;
        Trick none = {.len = 0};
        status = line(s, hands, &none, taker, after, all_cards(s, hands), out);
    } else {
        status = line(s, hands, &plays, s->next[seat], won, inplay, out);
    }
    hands[seat] = hand;
    return status;
}

/* The tricks per seat at the end of the deal on the max^n line from here
 * (``_Selfish.line``): every seat minimises its own points, ties to the lowest card. */
static int line(Search *s, uint64_t *hands, const Trick *trick, int seat, const uint8_t *won,
                uint64_t inplay, uint8_t *out) {
    uint64_t hand = hands[seat];
    if (!hand) {
        memcpy(out, won, SEATS);
        return 0;
    }
    int keyed = 0, fresh = 0;
    uint32_t tag = 0;
    uint64_t legal = hand;
    if (!trick->len) {
        if (s->limited && --s->budget < 0) return LIMIT;
        keyed = 1;
        tag = pack_line(won, s->n);
        long known = table_find(&s->table, hands, s->n, seat, tag, 0, &fresh);
        if (known >= 0) {
            memset(out, 0, SEATS);
            unpack_line(s->table.entries[known].value, s->n, out);
            return 0;
        }
    } else {
        legal = legal_mask(hand, trick, s->trump, s->must_head);
    }
    const int64_t *own = s->points[seat];
    int moves[TRICKS];
    int count = selfish_moves(legal, hand, inplay, s->trump, moves);
    uint8_t best[SEATS], result[SEATS];
    int64_t best_value = 0;
    for (int i = 0; i < count; i++) {
        int status = child(s, hands, trick, seat, won, moves[i], inplay, result);
        if (status < 0) return status;
        int64_t v = own[result[seat]];
        if (i == 0 || v < best_value) {
            memcpy(best, result, SEATS);
            best_value = v;
        }
    }
    if (keyed) {
        long at = table_find(&s->table, hands, s->n, seat, tag, 1, &fresh);
        if (at < 0) return NO_MEMORY;
        s->table.entries[at].value = pack_line(best, s->n);
    }
    memcpy(out, best, SEATS);
    return 0;
}

/* ------------------------------------------------------------------ the root */

typedef struct {
    uint64_t hands[SEATS];
    Trick trick;
    uint8_t won[SEATS];
    int player, paranoid;
} Root;

/* Per legal card of the player, the mover's points (``_node_values``): fills
 * ``values`` by card index and ``legal``; 0, or LIMIT / NO_MEMORY. */
static int node_values(Search *s, Root *root, uint64_t *legal_out, int64_t *values) {
    uint64_t *hands = root->hands;
    const Trick *trick = &root->trick;
    int player = root->player, mover = s->mover;
    uint64_t hand = hands[player];
    uint64_t legal = trick->len ? legal_mask(hand, trick, s->trump, s->must_head) : hand;
    uint64_t inplay = all_cards(s, hands) | trick_cards(trick);
    *legal_out = legal;
    if (!root->paranoid) {
        for (uint64_t rest = legal; rest; rest &= rest - 1) {
            uint8_t result[SEATS];
            int card = lowest(rest);
            int status = child(s, hands, trick, player, root->won, card, inplay, result);
            if (status < 0) return status;
            values[card] = s->points[mover][result[mover]];
        }
        return 0;
    }
    int cards[CARDS], group[CARDS];
    int n = classes(legal, inplay, s->trump, cards, group);
    int has_guess = 0;
    int64_t guess = 0;
    for (int start = 0; start < n;) {
        int end = start + 1;
        while (end < n && group[end] == group[start]) end++;
        int card = cards[start]; /* the weakest of the group, as solver.py */
        hands[player] = hand ^ (UINT64_C(1) << card);
        Trick plays = *trick;
        push(&plays, player, card);
        int taken = root->won[mover], status;
        int64_t v;
        if (plays.len == s->active) {
            int taker = winner(&plays, s->trump);
            taken += taker == mover;
            Trick none = {.len = 0};
            status = value(s, hands, &none, taker, taken, has_guess, guess, &v);
        } else {
            status = value(s, hands, &plays, s->next[player], taken, has_guess, guess, &v);
        }
        hands[player] = hand;
        if (status < 0) return status;
        has_guess = 1;
        guess = v;
        for (int i = start; i < end; i++) values[cards[i]] = v;
        start = end;
    }
    return 0;
}

/* ------------------------------------------------------------------ arguments */

static const char CALL[] = "solve_masks";

/* An int (not a bool) in [low, high]: 0, or -1 with TypeError / ValueError set. */
static int read_int(PyObject *object, const char *name, long long low, long long high,
                    long long *out) {
    if (!PyLong_Check(object) || PyBool_Check(object)) {
        PyErr_Format(PyExc_TypeError, "%s: %s must be an int, got %.50s", CALL, name,
                     Py_TYPE(object)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(object, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < low || v > high) {
        PyErr_Format(PyExc_ValueError, "%s: %s must be from %lld to %lld, got %R", CALL, name,
                     low, high, object);
        return -1;
    }
    *out = v;
    return 0;
}

static int read_bool(PyObject *object, const char *name, int *out) {
    if (!PyBool_Check(object)) {
        PyErr_Format(PyExc_TypeError, "%s: %s must be a bool, got %.50s", CALL, name,
                     Py_TYPE(object)->tp_name);
        return -1;
    }
    *out = object == Py_True;
    return 0;
}

/* A list or tuple (a str is no sequence of seats here) as a fast sequence, or NULL. */
static PyObject *read_sequence(PyObject *object, const char *name, Py_ssize_t length) {
    if (PyUnicode_Check(object) || PyBytes_Check(object) || !PySequence_Check(object)) {
        PyErr_Format(PyExc_TypeError, "%s: %s must be a sequence, got %.50s", CALL, name,
                     Py_TYPE(object)->tp_name);
        return NULL;
    }
    PyObject *fast = PySequence_Fast(object, name);
    if (fast && length >= 0 && PySequence_Fast_GET_SIZE(fast) != length) {
        PyErr_Format(PyExc_ValueError, "%s: %s must have %zd entries, got %zd", CALL, name,
                     length, PySequence_Fast_GET_SIZE(fast));
        Py_DECREF(fast);
        return NULL;
    }
    return fast;
}

static int bad(const char *message) {
    PyErr_Format(PyExc_ValueError, "%s: %s", CALL, message);
    return -1;
}

/* Reads every argument into ``s`` and ``root`` and checks that they describe a
 * reachable position of the PLAY phase (R1, R11, R21, R24-R26): no card twice, a
 * trick played in seat order by seats in play, the player next, the hands of the
 * same size (one fewer for a seat that has played to the trick), at most five tricks
 * in all (a test may start a deal with fewer cards).  This is what keeps the search
 * inside its arrays. */
static int read_arguments(PyObject *const *args, Search *s, Root *root) {
    PyObject *fast;
    long long v;
    memset(s, 0, sizeof(*s));
    memset(root, 0, sizeof(*root));
    if (!(fast = read_sequence(args[0], "hands", -1))) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n < 2 || n > SEATS) {
        Py_DECREF(fast);
        return bad("hands must hold one mask per seat, 2 to 7 seats (R1)");
    }
    s->n = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (read_int(PySequence_Fast_GET_ITEM(fast, i), "each hand", 0, (long long)HAND_BITS,
                     &v) < 0) {
            Py_DECREF(fast);
            return -1;
        }
        root->hands[i] = (uint64_t)v;
    }
    Py_DECREF(fast);
    if (!(fast = read_sequence(args[1], "trick", -1))) return -1;
    Py_ssize_t length = PySequence_Fast_GET_SIZE(fast);
    if (length >= n) {
        Py_DECREF(fast);
        return bad("trick must hold fewer plays than seats");
    }
    for (Py_ssize_t i = 0; i < length; i++) {
        PyObject *pair = read_sequence(PySequence_Fast_GET_ITEM(fast, i), "each play of trick", 2);
        long long seat, card;
        int failed = !pair ||
                     read_int(PySequence_Fast_GET_ITEM(pair, 0), "a play's seat", 0, n - 1,
                              &seat) < 0 ||
                     read_int(PySequence_Fast_GET_ITEM(pair, 1), "a play's card", 0, CARDS - 1,
                              &card) < 0;
        Py_XDECREF(pair);
        if (failed) {
            Py_DECREF(fast);
            return -1;
        }
        push(&root->trick, (int)seat, (int)card);
    }
    Py_DECREF(fast);
    if (!(fast = read_sequence(args[2], "tricks_won", n))) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (read_int(PySequence_Fast_GET_ITEM(fast, i), "each of tricks_won", 0, TRICKS, &v) <
            0) {
            Py_DECREF(fast);
            return -1;
        }
        root->won[i] = (uint8_t)v;
    }
    Py_DECREF(fast);
    if (read_int(args[3], "trump", 0, 3, &v) < 0) return -1;
    s->trump = (int)v;
    if (read_int(args[4], "player", 0, n - 1, &v) < 0) return -1;
    root->player = (int)v;
    if (read_int(args[5], "mover", 0, n - 1, &v) < 0) return -1;
    s->mover = (int)v;
    if (read_bool(args[6], "must_head", &s->must_head) < 0) return -1;
    int folded[SEATS];
    if (!(fast = read_sequence(args[7], "folded", n))) return -1;
    for (Py_ssize_t i = 0; i < n; i++)
        if (read_bool(PySequence_Fast_GET_ITEM(fast, i), "each of folded", &folded[i]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    Py_DECREF(fast);
    if (!(fast = read_sequence(args[8], "points", n))) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *row = read_sequence(PySequence_Fast_GET_ITEM(fast, i), "each row of points",
                                      TRICKS + 1);
        if (!row) {
            Py_DECREF(fast);
            return -1;
        }
        for (int t = 0; t <= TRICKS; t++) {
            if (read_int(PySequence_Fast_GET_ITEM(row, t), "each point value", -POINT_LIMIT,
                         POINT_LIMIT, &v) < 0) {
                Py_DECREF(row);
                Py_DECREF(fast);
                return -1;
            }
            s->points[i][t] = v;
        }
        Py_DECREF(row);
    }
    Py_DECREF(fast);
    if (!PyUnicode_Check(args[9])) {
        PyErr_Format(PyExc_TypeError, "%s: others must be a str, got %.50s", CALL,
                     Py_TYPE(args[9])->tp_name);
        return -1;
    }
    if (PyUnicode_CompareWithASCIIString(args[9], "paranoid") == 0)
        root->paranoid = 1;
    else if (PyUnicode_CompareWithASCIIString(args[9], "selfish") != 0)
        return bad("others must be one of paranoid, selfish");
    if (args[10] == Py_None) {
        s->limited = 0;
    } else {
        if (!PyLong_Check(args[10]) || PyBool_Check(args[10])) {
            PyErr_Format(PyExc_TypeError, "%s: max_nodes must be an int or None, got %.50s",
                         CALL, Py_TYPE(args[10])->tp_name);
            return -1;
        }
        int overflow = 0;
        long long budget = PyLong_AsLongLongAndOverflow(args[10], &overflow);
        if (budget == -1 && PyErr_Occurred()) return -1;
        /* As in solver.py: a negative budget gives up at the first trick started; one
         * beyond int64 never runs out. */
        s->limited = overflow <= 0;
        s->budget = overflow < 0 ? -1 : budget;
    }

    /* The position. */
    for (int i = 0; i < s->n; i++)
        if (folded[i]) root->hands[i] = 0; /* a folded seat's hand is ignored (R21) */
    for (int i = 0; i < s->n; i++) {
        int after = (i + 1) % s->n;
        while (folded[after] && after != i) after = (after + 1) % s->n;
        s->next[i] = after;
        s->active += !folded[i];
    }
    if (s->active < 2) return bad("at least two seats must be in play (R21)");
    if (folded[root->player]) return bad("player must be a seat in play");
    uint64_t seen = 0;
    for (int i = 0; i < s->n; i++) {
        if (seen & root->hands[i]) return bad("a card is in two hands");
        seen |= root->hands[i];
        if (folded[i] && root->won[i]) return bad("a folded seat takes no tricks (R21)");
    }
    const Trick *trick = &root->trick;
    int played[SEATS] = {0};
    for (int i = 0; i < trick->len; i++) {
        int seat = trick->seat[i];
        if (seen >> trick->card[i] & 1) return bad("a card of trick is also in a hand");
        seen |= UINT64_C(1) << trick->card[i];
        if (folded[seat]) return bad("a folded seat played to trick (R21)");
        if (i > 0 && seat != s->next[trick->seat[i - 1]])
            return bad("trick must be played in seat order (R24)");
        played[seat] = 1;
    }
    if (trick->len && root->player != s->next[trick->seat[trick->len - 1]])
        return bad("player must be the seat after the last play of trick (R24)");
    int left = popcount(root->hands[root->player]);
    if (left < 1 || left > TRICKS) return bad("player must hold one to five cards (R11)");
    int taken = 0;
    for (int i = 0; i < s->n; i++) {
        taken += root->won[i];
        if (!folded[i] && popcount(root->hands[i]) != left - played[i])
            return bad("the hands in play must hold the cards the tricks leave (R11, R24)");
    }
    if (taken + left > TRICKS)
        return bad("tricks_won and the cards in hand must add up to at most five tricks (R11)");
    return 0;
}

/* solve_masks(hands, trick, tricks_won, trump, player, mover, must_head, folded,
 *             points, others, max_nodes) -> {card: points} or None at the node limit */
static PyObject *native_solve_masks(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 11) {
        PyErr_Format(PyExc_TypeError, "%s takes 11 positional arguments, got %zd", CALL, nargs);
        return NULL;
    }
    Search s;
    Root root;
    if (read_arguments(args, &s, &root) < 0) return NULL;
    if (table_init(&s.table) < 0) {
        table_free(&s.table);
        return PyErr_NoMemory();
    }
    int64_t values[CARDS];
    uint64_t legal = 0;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = node_values(&s, &root, &legal, values);
    Py_END_ALLOW_THREADS
    table_free(&s.table);
    if (status == LIMIT) Py_RETURN_NONE;
    if (status == NO_MEMORY) return PyErr_NoMemory();
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    for (uint64_t rest = legal; rest; rest &= rest - 1) {
        int card = lowest(rest);
        PyObject *key = PyLong_FromLong(card), *v = PyLong_FromLongLong(values[card]);
        int failed = !key || !v || PyDict_SetItem(out, key, v) < 0;
        Py_XDECREF(key);
        Py_XDECREF(v);
        if (failed) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

static PyMethodDef solver_methods[] = {
    {"solve_masks", (PyCFunction)(void (*)(void))native_solve_masks, METH_FASTCALL,
     "solve_masks(hands, trick, tricks_won, trump, player, mover, must_head, folded, points,"
     " others, max_nodes)\n--\n\n"
     "The exact solver of bohmisch_watten.solver.solve_masks, every argument given and"
     " checked: {card index: points of the mover}, or None when the search would start"
     " more than max_nodes tricks."},
    {NULL, NULL, 0, NULL},
};

int bw_solver_register(PyObject *module) {
    build_tables();
    return PyModule_AddFunctions(module, solver_methods);
}
