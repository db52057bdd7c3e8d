/* bohmisch_watten._native.Game: the engine of game.c as a Python type.
 *
 * A mutable game on integers (card indices, bitmasks, the action ids of
 * bohmisch_watten.encoding): apply() and shuffle() change it in place, copy() gives an
 * independent one.  It is the fast half of the native core; bohmisch_watten.state keeps
 * the rich reads and every message.  Nothing here trusts its caller: every argument is
 * checked and a wrong one raises TypeError or ValueError naming it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "game.h"
#include "py_args.h"

typedef struct {
    PyObject_HEAD bw_game game;
} GameObject;

static PyTypeObject GameType;

/* ------------------------------------------------------------------ argument checks */

/* A bool (or the ints 0 and 1). */
static int flag_arg(PyObject *value, const char *name, uint8_t *out) {
    long result;
    if (PyBool_Check(value)) {
        *out = (uint8_t)(value == Py_True);
        return 0;
    }
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s must be a bool, got %.50s", name, Py_TYPE(value)->tp_name);
        return -1;
    }
    if (bw_long_arg(value, name, 0, 1, &result) < 0) {
        return -1;
    }
    *out = (uint8_t)result;
    return 0;
}

static int id_arg(PyObject *value, long *out) {
    return bw_long_arg(value, "action id", 0, BW_PLAY_BASE + BW_MAX_PACK - 1, out);
}

/* ------------------------------------------------------------------ construction */

static PyObject *game_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"num_players", "dealer", "pack", "schleck", "dealer_stock_limit",
                            "must_head", "overshoot", "plus_fifty", "start_score",
                            "hearts_double", "min_fold_score", "deal_number", "scores",
                            "prev_folded", NULL};
    PyObject *num_players, *dealer = NULL, *pack = NULL, *schleck = NULL, *limit = NULL;
    PyObject *must_head = NULL, *overshoot = NULL, *plus_fifty = NULL, *start = NULL;
    PyObject *hearts = NULL, *min_fold = NULL, *deal_number = NULL, *scores = NULL;
    PyObject *prev = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O$OOOOOOOOOOOO:Game", names, &num_players,
                                     &dealer, &pack, &schleck, &limit, &must_head, &overshoot,
                                     &plus_fifty, &start, &hearts, &min_fold, &deal_number,
                                     &scores, &prev)) {
        return NULL;
    }
    bw_rules rules = bw_default_rules();
    long value, n, seat = 0, number = 1;
    uint8_t folded = 0;
    if (pack) {
        if (bw_long_arg(pack, "pack", 32, 36, &value) < 0) {
            return NULL;
        }
        if (value != 32 && value != 36) {
            return PyErr_Format(PyExc_ValueError, "pack must be 32 or 36 (R6), got %ld", value);
        }
        rules.pack = (uint8_t)value;
    }
    if (bw_long_arg(num_players, "num_players", 2, rules.pack == 32 ? 4 : 7, &n) < 0) {
        return NULL;
    }
    if (dealer && bw_long_arg(dealer, "dealer", 0, n - 1, &seat) < 0) {
        return NULL;
    }
    if (schleck) {
        if (bw_long_arg(schleck, "schleck", 0, BW_SCHLECK_NONE, &value) < 0) {
            return NULL;
        }
        rules.schleck = (uint8_t)value;
    }
    if (limit) {
        if (bw_long_arg(limit, "dealer_stock_limit", 2, 3, &value) < 0) {
            return NULL;
        }
        rules.dealer_stock_limit = (uint8_t)value;
    }
    if (overshoot) {
        if (bw_long_arg(overshoot, "overshoot", 0, BW_OVERSHOOT_ADDED_BACK, &value) < 0) {
            return NULL;
        }
        rules.overshoot = (uint8_t)value;
    }
    if (start) {
        if (bw_long_arg(start, "start_score", 1, 1000, &value) < 0) {
            return NULL;
        }
        rules.start_score = (int32_t)value;
    }
    if (min_fold) {
        if (bw_long_arg(min_fold, "min_fold_score", -1000, 1000, &value) < 0) {
            return NULL;
        }
        rules.min_fold_score = (int32_t)value;
    }
    if ((must_head && flag_arg(must_head, "must_head", &rules.must_head) < 0) ||
        (plus_fifty && flag_arg(plus_fifty, "plus_fifty", &rules.plus_fifty) < 0) ||
        (hearts && flag_arg(hearts, "hearts_double", &rules.hearts_double) < 0)) {
        return NULL;
    }
    if (deal_number && bw_long_arg(deal_number, "deal_number", 1, 1000000000L, &number) < 0) {
        return NULL;
    }
    int32_t given[BW_MAX_PLAYERS];
    if (scores && scores != Py_None) {
        PyObject *items = PySequence_Fast(scores, "scores must be a sequence of ints");
        if (items == NULL) {
            if (PyErr_ExceptionMatches(PyExc_TypeError)) {
                return NULL;
            }
            return NULL;
        }
        if (PySequence_Fast_GET_SIZE(items) != n) {
            Py_DECREF(items);
            return PyErr_Format(PyExc_ValueError, "scores must hold one int per seat (%ld)", n);
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            if (bw_long_arg(PySequence_Fast_GET_ITEM(items, i), "each score", -1000000000L,
                        1000000000L, &value) < 0) {
                Py_DECREF(items);
                return NULL;
            }
            given[i] = (int32_t)value;
        }
        Py_DECREF(items);
    }
    if (prev) {
        if (bw_long_arg(prev, "prev_folded", 0, (1L << n) - 1, &value) < 0) {
            return NULL;
        }
        folded = (uint8_t)value;
    }
    GameObject *self = (GameObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    if (bw_game_init(&self->game, (int)n, &rules, (int)seat, (int32_t)number,
                     scores && scores != Py_None ? given : NULL, folded) != BW_OK) {
        Py_DECREF(self);
        return PyErr_Format(PyExc_ValueError, "Game: arguments out of range");
    }
    return (PyObject *)self;
}

static PyObject *game_copy(GameObject *self, PyObject *unused) {
    GameObject *copy = (GameObject *)GameType.tp_alloc(&GameType, 0);
    if (copy == NULL) {
        return NULL;
    }
    copy->game = self->game;
    return (PyObject *)copy;
}

/* ------------------------------------------------------------------ moving on */

static const char *phase_names[] = {"DEAL", "CUT", "EXCHANGE", "PLAY", "SCORE", "GAME_OVER"};

static PyObject *refused(const bw_game *g, long id, int code) {
    const char *why = code == BW_E_PHASE    ? "is not an action of this phase"
                      : code == BW_E_RANGE ? "is no action id of this pack's table"
                                           : "is against the rules now";
    return PyErr_Format(PyExc_ValueError, "action id %ld %s (phase %s)", id, why,
                        phase_names[g->phase]);
}

static PyObject *game_apply(GameObject *self, PyObject *arg) {
    long id;
    if (id_arg(arg, &id) < 0) {
        return NULL;
    }
    int code = bw_apply(&self->game, (int)id);
    if (code != BW_OK) {
        return refused(&self->game, id, code);
    }
    Py_RETURN_NONE;
}

static PyObject *game_is_legal(GameObject *self, PyObject *arg) {
    long id;
    if (id_arg(arg, &id) < 0) {
        return NULL;
    }
    return PyBool_FromLong(bw_is_legal(&self->game, (int)id));
}

static PyObject *game_shuffle(GameObject *self, PyObject *arg) {
    if (PyUnicode_Check(arg) || PyBytes_Check(arg)) {
        return PyErr_Format(PyExc_TypeError, "pack must be a sequence of card indices");
    }
    PyObject *items = PySequence_Fast(arg, "pack must be a sequence of card indices");
    if (items == NULL) {
        return NULL;
    }
    Py_ssize_t size = PySequence_Fast_GET_SIZE(items);
    uint8_t perm[BW_MAX_PACK];
    if (size != self->game.rules.pack) {
        Py_DECREF(items);
        return PyErr_Format(PyExc_ValueError, "R11: a shuffle holds all %d cards once, got %zd",
                            self->game.rules.pack, size);
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        long card;
        if (bw_long_arg(PySequence_Fast_GET_ITEM(items, i), "each card of pack", 0,
                    self->game.rules.pack - 1, &card) < 0) {
            Py_DECREF(items);
            return NULL;
        }
        perm[i] = (uint8_t)card;
    }
    Py_DECREF(items);
    int code = bw_shuffle(&self->game, perm, (int)size);
    if (code == BW_E_PHASE) {
        return PyErr_Format(PyExc_ValueError, "R11: not a chance node (phase %s)",
                            phase_names[self->game.phase]);
    }
    if (code != BW_OK) {
        return PyErr_Format(PyExc_ValueError, "R11: a shuffle holds every card once");
    }
    Py_RETURN_NONE;
}

static int seed_arg(PyObject *value, uint64_t *out) {
    if (!PyLong_Check(value) || PyBool_Check(value)) {
        PyErr_Format(PyExc_TypeError, "seed must be an int, got %.50s", Py_TYPE(value)->tp_name);
        return -1;
    }
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(value); /* any int: its low bits */
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) {
        return -1;
    }
    *out = seed;
    return 0;
}

static PyObject *game_playout(GameObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"seed", "max_deal", NULL};
    PyObject *seed_object, *max_object = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:playout", names, &seed_object, &max_object)) {
        return NULL;
    }
    uint64_t seed;
    long max_deal = 500;
    if (seed_arg(seed_object, &seed) < 0 ||
        (max_object && bw_long_arg(max_object, "max_deal", 1, 1000000000L, &max_deal) < 0)) {
        return NULL;
    }
    bw_rng rng;
    bw_rng_seed(&rng, seed);
    long decisions;
    bw_game game = self->game; /* played without the GIL on a copy: no other thread sees it */
    Py_BEGIN_ALLOW_THREADS decisions = bw_playout(&game, &rng, (int32_t)max_deal);
    Py_END_ALLOW_THREADS self->game = game;
    return PyLong_FromLong(decisions);
}

/* ------------------------------------------------------------------ reads */

static PyObject *game_legal(GameObject *self, PyObject *unused) {
    uint8_t ids[BW_MAX_LEGAL];
    int count = bw_legal(&self->game, ids);
    PyObject *out = PyTuple_New(count);
    if (out == NULL) {
        return NULL;
    }
    for (int i = 0; i < count; i++) {
        PyTuple_SET_ITEM(out, i, PyLong_FromLong(ids[i]));
    }
    return out;
}

static PyObject *game_fold_rule(GameObject *self, PyObject *arg) {
    long seat;
    if (bw_long_arg(arg, "seat", 0, self->game.n - 1, &seat) < 0) {
        return NULL;
    }
    if (self->game.phase != BW_EXCHANGE) {
        return PyErr_Format(PyExc_ValueError, "R18: nobody is deciding whether to fold now");
    }
    return PyLong_FromLong(bw_fold_rule(&self->game, (int)seat));
}

static PyObject *seat_tuple_u64(const uint64_t *values, int n) {
    PyObject *out = PyTuple_New(n);
    for (int i = 0; out && i < n; i++) {
        PyObject *item = PyLong_FromUnsignedLongLong(values[i]);
        if (item == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, item);
    }
    return out;
}

static PyObject *mask_bools(unsigned mask, int n) {
    PyObject *out = PyTuple_New(n);
    for (int i = 0; out && i < n; i++) {
        PyObject *item = PyBool_FromLong(mask >> i & 1);
        PyTuple_SET_ITEM(out, i, item);
    }
    return out;
}

static PyObject *mask_seats(unsigned mask, int n) {
    PyObject *out = PyTuple_New(__builtin_popcount(mask));
    for (int i = 0, k = 0; out && i < n; i++) {
        if (mask >> i & 1) {
            PyTuple_SET_ITEM(out, k++, PyLong_FromLong(i));
        }
    }
    return out;
}

static PyObject *plays_tuple(const bw_play *plays, int count) {
    PyObject *out = PyTuple_New(count);
    for (int i = 0; out && i < count; i++) {
        PyObject *pair = Py_BuildValue("(ii)", plays[i].seat, plays[i].card);
        if (pair == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, pair);
    }
    return out;
}

#define G (&self->game)

static PyObject *get_phase(GameObject *self, void *c) { return PyLong_FromLong(G->phase); }
static PyObject *get_current(GameObject *self, void *c) {
    if (G->current == BW_NO_SEAT) {
        Py_RETURN_NONE;
    }
    return PyLong_FromLong(G->current);
}
static PyObject *get_dealer(GameObject *self, void *c) { return PyLong_FromLong(G->dealer); }
static PyObject *get_deal_number(GameObject *self, void *c) { return PyLong_FromLong(G->deal_number); }
static PyObject *get_num_players(GameObject *self, void *c) { return PyLong_FromLong(G->n); }
static PyObject *get_pack_size(GameObject *self, void *c) { return PyLong_FromLong(G->rules.pack); }
static PyObject *get_hands(GameObject *self, void *c) { return seat_tuple_u64(G->hands, G->n); }
static PyObject *get_discards(GameObject *self, void *c) { return seat_tuple_u64(G->discards, G->n); }
static PyObject *get_stock(GameObject *self, void *c) {
    PyObject *out = PyTuple_New(G->hi - G->lo);
    for (int i = G->lo; out && i < G->hi; i++) {
        PyTuple_SET_ITEM(out, i - G->lo, PyLong_FromLong(G->pack[i]));
    }
    return out;
}
static PyObject *get_trump(GameObject *self, void *c) { return PyLong_FromLong(G->trump); }
static PyObject *get_took_trump(GameObject *self, void *c) { return PyBool_FromLong(G->took_trump); }
static PyObject *get_folded(GameObject *self, void *c) { return mask_bools(G->folded, G->n); }
static PyObject *get_prev_folded(GameObject *self, void *c) { return mask_bools(G->prev_folded, G->n); }
static PyObject *get_exchanged(GameObject *self, void *c) {
    PyObject *out = PyTuple_New(G->n);
    for (int i = 0; out && i < G->n; i++) {
        PyTuple_SET_ITEM(out, i, PyLong_FromLong(G->exchanged[i]));
    }
    return out;
}
static PyObject *get_cut(GameObject *self, void *c) {
    PyObject *out = PyTuple_New(G->ncut);
    for (int i = 0; out && i < G->ncut; i++) {
        PyObject *look = Py_BuildValue("(iiO)", G->cut[i].seat, G->cut[i].card,
                                       G->cut[i].taken ? Py_True : Py_False);
        if (look == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, look);
    }
    return out;
}
static PyObject *get_trick(GameObject *self, void *c) { return plays_tuple(G->trick, G->ntrick); }
static PyObject *get_played(GameObject *self, void *c) {
    PyObject *out = PyTuple_New(G->nplayed);
    int size = G->n - __builtin_popcount(G->folded);
    for (int i = 0; out && i < G->nplayed; i++) {
        PyObject *plays = plays_tuple(G->played[i], size);
        PyObject *trick = plays ? Py_BuildValue("(Ni)", plays, G->played_winner[i]) : NULL;
        if (trick == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, trick);
    }
    return out;
}
static PyObject *get_tricks_won(GameObject *self, void *c) {
    PyObject *out = PyTuple_New(G->n);
    for (int i = 0; out && i < G->n; i++) {
        PyTuple_SET_ITEM(out, i, PyLong_FromLong(G->tricks_won[i]));
    }
    return out;
}
static PyObject *get_scores(GameObject *self, void *c) {
    PyObject *out = PyTuple_New(G->n);
    for (int i = 0; out && i < G->n; i++) {
        PyTuple_SET_ITEM(out, i, PyLong_FromLong(G->scores[i]));
    }
    return out;
}
static PyObject *get_winners(GameObject *self, void *c) {
    uint8_t winners, losers;
    bw_result(G, &winners, &losers);
    return mask_seats(winners, G->n);
}
static PyObject *get_losers(GameObject *self, void *c) {
    uint8_t winners, losers;
    bw_result(G, &winners, &losers);
    return mask_seats(losers, G->n);
}
static PyObject *get_play_mask(GameObject *self, void *c) {
    return PyLong_FromUnsignedLongLong(G->play_mask);
}
static PyObject *get_is_terminal(GameObject *self, void *c) {
    return PyBool_FromLong(G->phase == BW_GAME_OVER);
}
static PyObject *get_is_chance_node(GameObject *self, void *c) {
    return PyBool_FromLong(G->phase == BW_DEAL);
}

#undef G

static PyGetSetDef game_getset[] = {
    {"phase", (getter)get_phase, NULL, "The phase: 0 DEAL … 5 GAME_OVER (Phase order).", NULL},
    {"current_player", (getter)get_current, NULL, "The seat to act, None at chance and the end.", NULL},
    {"dealer", (getter)get_dealer, NULL, "The dealer (R2).", NULL},
    {"deal_number", (getter)get_deal_number, NULL, "1 for the first deal (R21.1).", NULL},
    {"num_players", (getter)get_num_players, NULL, "2 to 7 (R1).", NULL},
    {"pack", (getter)get_pack_size, NULL, "32 or 36 (R6).", NULL},
    {"hand_masks", (getter)get_hands, NULL, "Per seat, the bitmask of his cards.", NULL},
    {"discards", (getter)get_discards, NULL, "Per seat, the bitmask of his discards (R23).", NULL},
    {"stock", (getter)get_stock, NULL, "The stock (the undealt pack in the ritual), top first.", NULL},
    {"trump", (getter)get_trump, NULL, "The trump card's index, -1 before it is turned.", NULL},
    {"took_trump", (getter)get_took_trump, NULL, "Whether the dealer took the trump card (R19).", NULL},
    {"folded", (getter)get_folded, NULL, "Per seat, whether he folded (R18).", NULL},
    {"prev_folded", (getter)get_prev_folded, NULL, "Per seat, folded in the previous deal.", NULL},
    {"exchanged", (getter)get_exchanged, NULL, "Per seat, cards exchanged, -1 if none yet.", NULL},
    {"cut", (getter)get_cut, NULL, "The ritual's looks (seat, card, taken) (R12).", NULL},
    {"trick", (getter)get_trick, NULL, "The trick so far as (seat, card) pairs.", NULL},
    {"played_tricks", (getter)get_played, NULL, "The finished tricks: (plays, winner).", NULL},
    {"tricks_won", (getter)get_tricks_won, NULL, "Per seat, tricks won this deal.", NULL},
    {"scores", (getter)get_scores, NULL, "Per seat, the score (R28).", NULL},
    {"winners", (getter)get_winners, NULL, "The winners once over, else () (R34).", NULL},
    {"losers", (getter)get_losers, NULL, "The losers once over, else () (R34).", NULL},
    {"play_mask", (getter)get_play_mask, NULL, "In phase PLAY, the playable cards.", NULL},
    {"is_terminal", (getter)get_is_terminal, NULL, "Whether the game is over.", NULL},
    {"is_chance_node", (getter)get_is_chance_node, NULL, "Whether a shuffle is next.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef game_methods[] = {
    {"copy", (PyCFunction)game_copy, METH_NOARGS, "An independent copy."},
    {"__copy__", (PyCFunction)game_copy, METH_NOARGS, "An independent copy."},
    {"apply", (PyCFunction)game_apply, METH_O,
     "Take the decision with this action id; ValueError (nothing changed) if it is illegal."},
    {"is_legal", (PyCFunction)game_is_legal, METH_O, "Whether apply(id) would succeed."},
    {"shuffle", (PyCFunction)game_shuffle, METH_O,
     "The chance action: a permutation of the pack's card indices, top first (R11)."},
    {"legal", (PyCFunction)game_legal, METH_NOARGS, "The legal action ids, ascending."},
    {"fold_rule", (PyCFunction)game_fold_rule, METH_O,
     "In the exchange, the condition of R21 (1-6) that forbids seat to fold, or 0."},
    {"playout", (PyCFunction)(void (*)(void))game_playout, METH_VARARGS | METH_KEYWORDS,
     "playout(seed, max_deal=500): random legal decisions to the end (or past max_deal);"
     " returns the decisions taken."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject GameType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bohmisch_watten._native.Game",
    .tp_basicsize = sizeof(GameObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Game(num_players, dealer=0, *, pack=32, schleck=0, dealer_stock_limit=2, "
              "must_head=True, overshoot=0, plus_fifty=False, start_score=20, "
              "hearts_double=True, min_fold_score=5, deal_number=1, scores=None, "
              "prev_folded=0): one game of the compiled core, mutable.",
    .tp_new = game_new,
    .tp_methods = game_methods,
    .tp_getset = game_getset,
};

/* random_playouts(game, games, seed, max_deal=500): play `games` copies of `game` to
 * their ends with random legal decisions; the total of decisions. */
static PyObject *random_playouts(PyObject *module, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"game", "games", "seed", "max_deal", NULL};
    PyObject *game, *games_object, *seed_object, *max_object = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO|O:random_playouts", names, &game,
                                     &games_object, &seed_object, &max_object)) {
        return NULL;
    }
    if (!PyObject_TypeCheck(game, &GameType)) {
        return PyErr_Format(PyExc_TypeError, "game must be a Game, got %.50s", Py_TYPE(game)->tp_name);
    }
    long games, max_deal = 500;
    uint64_t seed;
    if (bw_long_arg(games_object, "games", 0, 1000000000L, &games) < 0 || seed_arg(seed_object, &seed) < 0 ||
        (max_object && bw_long_arg(max_object, "max_deal", 1, 1000000000L, &max_deal) < 0)) {
        return NULL;
    }
    bw_game start = ((GameObject *)game)->game;
    bw_rng rng;
    bw_rng_seed(&rng, seed);
    long long decisions = 0;
    Py_BEGIN_ALLOW_THREADS for (long i = 0; i < games; i++) {
        bw_game copy = start;
        decisions += bw_playout(&copy, &rng, (int32_t)max_deal);
    }
    Py_END_ALLOW_THREADS return PyLong_FromLongLong(decisions);
}

static PyMethodDef game_functions[] = {
    {"random_playouts", (PyCFunction)(void (*)(void))random_playouts, METH_VARARGS | METH_KEYWORDS,
     "random_playouts(game, games, seed, max_deal=500): play copies of game to their ends "
     "by random legal decisions (a seeded xoshiro256** in C); the decisions taken."},
    {NULL, NULL, 0, NULL},
};

/* Called once from module.c's PyInit. */
int bw_add_game(PyObject *module) {
    bw_init_tables();
    if (PyType_Ready(&GameType) < 0) {
        return -1;
    }
    Py_INCREF(&GameType);
    if (PyModule_AddObject(module, "Game", (PyObject *)&GameType) < 0) {
        Py_DECREF(&GameType);
        return -1;
    }
    return PyModule_AddFunctions(module, game_functions);
}

/* For the other types of the module (py_batch.c): the game a Game object holds, copied
 * into out; -1 with a TypeError naming the argument for anything else. */
int bw_game_of(PyObject *object, const char *name, bw_game *out) {
    if (!PyObject_TypeCheck(object, &GameType)) {
        PyErr_Format(PyExc_TypeError, "%s must be a Game, got %.50s", name, Py_TYPE(object)->tp_name);
        return -1;
    }
    *out = ((GameObject *)object)->game;
    return 0;
}
