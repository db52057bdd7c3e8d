/* bohmisch_watten._native.play_step: GameState.apply's commonest step, a card played,
 * computed in C on GameState's own compact fields (state.py, GameState._apply_play).
 *
 * It takes the fields as they are (tuples of ints and (seat, card) pairs) and returns
 * the new ones, sharing every object that does not change (the other hands, the plays
 * already in the trick, the finished tricks), so that the state it makes is the state
 * the Python path makes, field for field.  It leaves to Python what only Python says:
 * a card that may not be played (the IllegalActionError names the rule) and the card
 * that completes the deal (the scoring): for both it returns None.
 *
 * The arguments come from a GameState, but the function is public to anybody holding
 * the module, so each is checked, and a wrong one raises TypeError or ValueError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "game.h"

static int small_int(PyObject *value, const char *name, long high, long *out) {
    if (!PyLong_CheckExact(value)) {
        PyErr_Format(PyExc_TypeError, "play_step: %s must be an int", name);
        return -1;
    }
    int overflow = 0;
    long result = PyLong_AsLongAndOverflow(value, &overflow);
    if (overflow || result < 0 || result > high) {
        PyErr_Format(PyExc_ValueError, "play_step: %s out of range", name);
        return -1;
    }
    *out = result;
    return 0;
}

static int tuple_arg(PyObject *value, const char *name, Py_ssize_t most) {
    if (!PyTuple_CheckExact(value) || PyTuple_GET_SIZE(value) > most) {
        PyErr_Format(PyExc_TypeError, "play_step: %s must be a tuple of at most %zd items", name,
                     most);
        return -1;
    }
    return 0;
}

/* A (seat, card) pair of a trick. */
static int pair_arg(PyObject *pair, long n, bw_play *out) {
    long seat, card;
    if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) {
        PyErr_Format(PyExc_TypeError, "play_step: a play must be a (seat, card) pair");
        return -1;
    }
    if (small_int(PyTuple_GET_ITEM(pair, 0), "a play's seat", n - 1, &seat) < 0 ||
        small_int(PyTuple_GET_ITEM(pair, 1), "a play's card", BW_MAX_PACK - 1, &card) < 0) {
        return -1;
    }
    out->seat = (uint8_t)seat;
    out->card = (uint8_t)card;
    return 0;
}

/* play_step(seat, card, play_mask, hand_masks, trick_plays, played_tricks, tricks_won,
 *           folded, trump, must_head)
 * -> (hand_masks, trick_plays, played_tricks, tricks_won, next seat, play mask) or None. */
static PyObject *play_step(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 10) {
        return PyErr_Format(PyExc_TypeError, "play_step takes 10 arguments (%zd given)", nargs);
    }
    PyObject *hands = args[3], *trick = args[4], *played = args[5], *won = args[6];
    PyObject *folded = args[7];
    long n, seat, card, trump, head;
    if (tuple_arg(hands, "hand_masks", BW_MAX_PLAYERS) < 0 ||
        tuple_arg(trick, "trick_plays", BW_MAX_PLAYERS - 1) < 0 ||
        tuple_arg(played, "played_tricks", BW_TRICKS - 1) < 0 ||
        tuple_arg(won, "tricks_won", BW_MAX_PLAYERS) < 0 ||
        tuple_arg(folded, "folded", BW_MAX_PLAYERS) < 0) {
        return NULL;
    }
    n = (long)PyTuple_GET_SIZE(hands);
    if (n < 2 || PyTuple_GET_SIZE(won) != n || PyTuple_GET_SIZE(folded) != n) {
        return PyErr_Format(PyExc_ValueError, "play_step: one hand, count and fold per seat");
    }
    if (small_int(args[0], "seat", n - 1, &seat) < 0 ||
        small_int(args[1], "card", BW_MAX_PACK - 1, &card) < 0 ||
        small_int(args[8], "trump", BW_MAX_PACK - 1, &trump) < 0) {
        return NULL;
    }
    if (!PyLong_CheckExact(args[2])) {
        return PyErr_Format(PyExc_TypeError, "play_step: play_mask must be an int");
    }
    uint64_t mask = PyLong_AsUnsignedLongLongMask(args[2]);
    if (mask == (uint64_t)-1 && PyErr_Occurred()) {
        return NULL;
    }
    head = PyObject_IsTrue(args[9]);
    if (head < 0) {
        return NULL;
    }
    if (!(mask >> card & 1)) {
        Py_RETURN_NONE; /* not playable: the Python path words the IllegalActionError */
    }
    uint8_t out = 0;
    for (long i = 0; i < n; i++) {
        PyObject *flag = PyTuple_GET_ITEM(folded, i);
        if (flag == Py_True) {
            out |= (uint8_t)(1u << i);
        } else if (flag != Py_False) {
            return PyErr_Format(PyExc_TypeError, "play_step: folded must hold bools");
        }
    }
    int active = (int)n - __builtin_popcount(out);
    bw_play plays[BW_MAX_PLAYERS];
    Py_ssize_t count = PyTuple_GET_SIZE(trick);
    if (active < 2 || (out >> seat & 1) || count >= active) {
        return PyErr_Format(PyExc_ValueError, "play_step: no trick of R24 looks like this");
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        if (pair_arg(PyTuple_GET_ITEM(trick, i), n, &plays[i]) < 0) {
            return NULL;
        }
    }
    Py_ssize_t done = PyTuple_GET_SIZE(played);
    if (done == BW_TRICKS - 1 && count + 1 == active) {
        Py_RETURN_NONE; /* the card completes the deal: the Python path scores it */
    }
    uint64_t masks[BW_MAX_PLAYERS];
    for (long i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(hands, i);
        if (!PyLong_CheckExact(item)) {
            return PyErr_Format(PyExc_TypeError, "play_step: hand_masks must hold ints");
        }
        masks[i] = PyLong_AsUnsignedLongLongMask(item);
        if (masks[i] == (uint64_t)-1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    long counts[BW_MAX_PLAYERS];
    for (long i = 0; i < n; i++) {
        if (small_int(PyTuple_GET_ITEM(won, i), "tricks_won", BW_TRICKS, &counts[i]) < 0) {
            return NULL;
        }
    }
    int suit = bw_suit_of[trump];
    plays[count].seat = (uint8_t)seat;
    plays[count].card = (uint8_t)card;
    masks[seat] &= ~(1ULL << card);

    /* The new objects: every unchanged item is shared with the old fields. */
    PyObject *new_hands = NULL, *new_trick = NULL, *new_played = NULL, *new_won = NULL;
    PyObject *pair = Py_BuildValue("(ll)", seat, card);
    if (pair == NULL) {
        return NULL;
    }
    new_hands = PyTuple_New(n);
    if (new_hands == NULL) {
        goto fail;
    }
    for (long i = 0; i < n; i++) {
        PyObject *item = i == seat ? PyLong_FromUnsignedLongLong(masks[i]) : PyTuple_GET_ITEM(hands, i);
        if (item == NULL) {
            goto fail;
        }
        if (i != seat) {
            Py_INCREF(item);
        }
        PyTuple_SET_ITEM(new_hands, i, item);
    }
    new_trick = PyTuple_New(count + 1);
    if (new_trick == NULL) {
        goto fail;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *item = PyTuple_GET_ITEM(trick, i);
        Py_INCREF(item);
        PyTuple_SET_ITEM(new_trick, i, item);
    }
    PyTuple_SET_ITEM(new_trick, count, pair);
    pair = NULL;
    long next;
    uint64_t next_mask;
    if (count + 1 == active) { /* the trick is complete: to its winner, who leads (R24, R27) */
        long winner = plays[bw_best_play(plays, (int)count + 1, suit)].seat;
        PyObject *finished = Py_BuildValue("(Nl)", new_trick, winner);
        new_trick = NULL;
        if (finished == NULL) {
            goto fail;
        }
        new_played = PyTuple_New(done + 1);
        if (new_played == NULL) {
            Py_DECREF(finished);
            goto fail;
        }
        for (Py_ssize_t i = 0; i < done; i++) {
            PyObject *item = PyTuple_GET_ITEM(played, i);
            Py_INCREF(item);
            PyTuple_SET_ITEM(new_played, i, item);
        }
        PyTuple_SET_ITEM(new_played, done, finished);
        new_won = PyTuple_New(n);
        if (new_won == NULL) {
            goto fail;
        }
        for (long i = 0; i < n; i++) {
            PyObject *item = i == winner ? PyLong_FromLong(counts[i] + 1) : PyTuple_GET_ITEM(won, i);
            if (item == NULL) {
                goto fail;
            }
            if (i != winner) {
                Py_INCREF(item);
            }
            PyTuple_SET_ITEM(new_won, i, item);
        }
        new_trick = PyTuple_New(0);
        if (new_trick == NULL) {
            goto fail;
        }
        next = winner;
        next_mask = masks[winner]; /* R24: the winner leads any card */
    } else {
        next = seat + 1 == n ? 0 : seat + 1; /* the next active seat to the left (R24) */
        while (out >> next & 1) {
            next = next + 1 == n ? 0 : next + 1;
        }
        next_mask = bw_legal_play_mask(masks[next], plays, (int)count + 1, suit, (int)head);
        Py_INCREF(played);
        new_played = played;
        Py_INCREF(won);
        new_won = won;
    }
    PyObject *mask_object = PyLong_FromUnsignedLongLong(next_mask);
    if (mask_object == NULL) {
        goto fail;
    }
    return Py_BuildValue("(NNNNlN)", new_hands, new_trick, new_played, new_won, next, mask_object);
fail:
    Py_XDECREF(pair);
    Py_XDECREF(new_hands);
    Py_XDECREF(new_trick);
    Py_XDECREF(new_played);
    Py_XDECREF(new_won);
    return NULL;
}

static PyMethodDef play_functions[] = {
    {"play_step", (PyCFunction)(void (*)(void))play_step, METH_FASTCALL,
     "play_step(seat, card, play_mask, hand_masks, trick_plays, played_tricks, tricks_won, "
     "folded, trump, must_head): GameState's fields after the card (hand_masks, trick_plays, "
     "played_tricks, tricks_won, next seat, play mask), or None for an unplayable card or "
     "the card that completes the deal."},
    {NULL, NULL, 0, NULL},
};

/* Called once from module.c's PyInit. */
int bw_add_play(PyObject *module) {
    bw_init_tables();
    return PyModule_AddFunctions(module, play_functions);
}
