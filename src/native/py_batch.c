/* bohmisch_watten._native.Batch: N games of batch.c as a Python type, and
 * heuristic_action(game).
 *
 * The arrays go in and out through the buffer protocol: the caller (adapters/batch.py)
 * hands preallocated numpy arrays and C writes into their memory, so nothing is copied
 * and no numpy C API is needed.  Every buffer is checked for its item type, its size
 * and C order; a wrong one raises TypeError or ValueError naming it, never a crash.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "py_args.h"

int bw_game_of(PyObject *object, const char *name, bw_game *out); /* py_game.c */

#define MAX_GAMES 1000000L

typedef struct {
    PyObject_HEAD bw_batch batch;
    bw_rng sampler; /* random_actions' generator, apart from the games' own */
    int busy;       /* a call is running with the GIL released: no second one */
} BatchObject;

static PyTypeObject BatchType;

/* ------------------------------------------------------------------ arguments */

/* The item kinds of the arrays: numpy's buffer formats on this machine. */
enum { FLOAT32, FLOAT64, INT8, INT64, BOOL };

static int format_is(const char *format, int kind, Py_ssize_t itemsize) {
    if (format == NULL) {
        format = "B";
    }
    while (*format == '@' || *format == '=' || *format == '<') {
        format++;
    }
    if (format[0] == '\0' || format[1] != '\0') {
        return 0;
    }
    switch (kind) {
    case FLOAT32:
        return format[0] == 'f' && itemsize == 4;
    case FLOAT64:
        return format[0] == 'd' && itemsize == 8;
    case INT8:
        return format[0] == 'b' && itemsize == 1;
    case INT64:
        return (format[0] == 'l' || format[0] == 'q') && itemsize == 8;
    default:
        return (format[0] == '?' || format[0] == 'B') && itemsize == 1;
    }
}

static const char *kind_names[] = {"float32", "float64", "int8", "int64", "bool"};

/* A C-contiguous buffer of count items of kind, writable if asked; -1 with an error
 * naming the argument otherwise (the view is then released). */
static int get_buffer(PyObject *object, const char *name, int kind, Py_ssize_t count,
                      int writable, Py_buffer *view) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object, view, flags) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must be a %sC-contiguous %s array, got %.50s", name,
                     writable ? "writable " : "", kind_names[kind], Py_TYPE(object)->tp_name);
        return -1;
    }
    if (!format_is(view->format, kind, view->itemsize)) {
        PyErr_Format(PyExc_TypeError, "%s must hold %s items, got format %.10s", name,
                     kind_names[kind], view->format ? view->format : "B");
        PyBuffer_Release(view);
        return -1;
    }
    if (view->len != count * view->itemsize) {
        PyErr_Format(PyExc_ValueError, "%s must hold %zd items, got %zd", name, count,
                     view->len / view->itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ construction */

static PyObject *batch_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"start", "num_games", "seats", "deal_mode", "max_deals", "neumaier",
                            NULL};
    PyObject *start, *games_object, *seats_object, *deal_object, *max_object, *neumaier_object;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOO:Batch", names, &start, &games_object,
                                     &seats_object, &deal_object, &max_object, &neumaier_object)) {
        return NULL;
    }
    bw_game game;
    long games, max_deals;
    if (bw_game_of(start, "start", &game) < 0 ||
        bw_long_arg(games_object, "num_games", 1, MAX_GAMES, &games) < 0 ||
        bw_long_arg(max_object, "max_deals", 1, 1000000000L, &max_deals) < 0) {
        return NULL;
    }
    if (game.phase != BW_DEAL) {
        return PyErr_Format(PyExc_ValueError, "start must be a game at the chance node of a deal");
    }
    if (!PyBytes_Check(seats_object)) {
        return PyErr_Format(PyExc_TypeError, "seats must be bytes, got %.50s",
                            Py_TYPE(seats_object)->tp_name);
    }
    if (PyBytes_GET_SIZE(seats_object) != game.n) {
        return PyErr_Format(PyExc_ValueError, "seats must hold one kind per seat (%d)", game.n);
    }
    const unsigned char *seats = (const unsigned char *)PyBytes_AS_STRING(seats_object);
    int learners = 0, learner = -1;
    for (int s = 0; s < game.n; s++) {
        if (seats[s] > BW_SEAT_LEARNER) {
            return PyErr_Format(PyExc_ValueError, "seats: %d is no seat kind (0 random, 1 "
                                "heuristic, 2 learner)", seats[s]);
        }
        if (seats[s] == BW_SEAT_LEARNER) {
            learners++;
            learner = s;
        }
    }
    if (learners != 1 && learners != game.n) {
        return PyErr_Format(PyExc_ValueError, "seats: one learning seat, or every seat (self-play)");
    }
    int deal_mode = PyObject_IsTrue(deal_object), neumaier = PyObject_IsTrue(neumaier_object);
    if (deal_mode < 0 || neumaier < 0) {
        return NULL;
    }
    bw_slot *slots = calloc((size_t)games, sizeof(bw_slot));
    if (slots == NULL) {
        return PyErr_NoMemory();
    }
    BatchObject *self = (BatchObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        free(slots);
        return NULL;
    }
    bw_batch *b = &self->batch;
    b->start = game;
    b->num_games = (int)games;
    b->deal_mode = deal_mode;
    b->max_deals = (int32_t)max_deals;
    b->learner = learners == 1 ? learner : -1;
    memcpy(b->seats, seats, (size_t)game.n);
    b->neumaier = neumaier;
    bw_layout_init(&b->layout, game.n, game.rules.pack);
    b->slots = slots;
    for (long i = 0; i < games; i++) {
        slots[i].game = game;
        slots[i].to_act = (uint8_t)(learners == 1 ? learner : 0);
        bw_pyrandom_seed(&slots[i].rng, 0);
        slots[i].done = 1; /* not started: reset() starts it */
    }
    bw_rng_seed(&self->sampler, 0);
    return (PyObject *)self;
}

static void batch_dealloc(BatchObject *self) {
    free(self->batch.slots);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int enter(BatchObject *self) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the batch is in use by another thread");
        return -1;
    }
    self->busy = 1;
    return 0;
}

/* ------------------------------------------------------------------ the API */

#define OUTPUTS 3 /* observations, masks, seats */

static int observation_buffers(BatchObject *self, PyObject *const *objects, Py_buffer *views) {
    const bw_batch *b = &self->batch;
    Py_ssize_t n = b->num_games;
    static const char *names[OUTPUTS] = {"observations", "masks", "seats"};
    const int kinds[OUTPUTS] = {FLOAT32, INT8, INT64};
    const Py_ssize_t counts[OUTPUTS] = {n * b->layout.size, n * b->layout.num_ids, n};
    for (int k = 0; k < OUTPUTS; k++) {
        if (get_buffer(objects[k], names[k], kinds[k], counts[k], 1, &views[k]) < 0) {
            while (k--) {
                PyBuffer_Release(&views[k]);
            }
            return -1;
        }
    }
    return 0;
}

static PyObject *batch_observe(BatchObject *self, PyObject *args) {
    PyObject *objects[OUTPUTS];
    if (!PyArg_ParseTuple(args, "OOO:observe", &objects[0], &objects[1], &objects[2])) {
        return NULL;
    }
    Py_buffer views[OUTPUTS];
    if (observation_buffers(self, objects, views) < 0) {
        return NULL;
    }
    bw_outputs out = {views[0].buf, views[1].buf, views[2].buf, NULL, NULL, NULL, NULL, NULL, NULL};
    if (enter(self) == 0) {
        Py_BEGIN_ALLOW_THREADS bw_batch_observe(&self->batch, &out);
        Py_END_ALLOW_THREADS self->busy = 0;
    }
    for (int k = 0; k < OUTPUTS; k++) {
        PyBuffer_Release(&views[k]);
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *batch_reset(BatchObject *self, PyObject *args) {
    PyObject *mask_object, *seeds_object;
    if (!PyArg_ParseTuple(args, "OO:reset", &mask_object, &seeds_object)) {
        return NULL;
    }
    Py_buffer mask, seeds;
    Py_ssize_t n = self->batch.num_games;
    if (get_buffer(mask_object, "mask", BOOL, n, 0, &mask) < 0) {
        return NULL;
    }
    if (get_buffer(seeds_object, "seeds", INT64, n, 0, &seeds) < 0) {
        PyBuffer_Release(&mask);
        return NULL;
    }
    if (enter(self) == 0) {
        const uint8_t *which = mask.buf;
        const int64_t *given = seeds.buf;
        for (Py_ssize_t i = 0; i < n; i++) {
            if (which[i]) { /* a seed below 0: the game's generator, drawn on */
                bw_batch_reset(&self->batch, (int)i, given[i] >= 0, (uint64_t)given[i]);
            }
        }
        self->busy = 0;
    }
    PyBuffer_Release(&mask);
    PyBuffer_Release(&seeds);
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_RETURN_NONE;
}

#define STEP_BUFFERS 10

static PyObject *batch_step(BatchObject *self, PyObject *args) {
    PyObject *objects[STEP_BUFFERS];
    if (!PyArg_ParseTuple(args, "OOOOOOOOOO:step", &objects[0], &objects[1], &objects[2],
                          &objects[3], &objects[4], &objects[5], &objects[6], &objects[7],
                          &objects[8], &objects[9])) {
        return NULL;
    }
    const bw_batch *b = &self->batch;
    Py_ssize_t n = b->num_games;
    static const char *names[STEP_BUFFERS] = {"actions",    "observations", "masks",   "seats",
                                              "rewards",    "terminated",   "truncated", "illegal",
                                              "reset",      "every"};
    const int kinds[STEP_BUFFERS] = {INT64, FLOAT32, INT8, INT64, FLOAT64,
                                     BOOL,  BOOL,    BOOL, BOOL,  FLOAT64};
    const Py_ssize_t counts[STEP_BUFFERS] = {n, n * b->layout.size, n * b->layout.num_ids, n, n,
                                             n, n, n, n, n * b->start.n};
    Py_buffer views[STEP_BUFFERS];
    for (int k = 0; k < STEP_BUFFERS; k++) {
        if (get_buffer(objects[k], names[k], kinds[k], counts[k], k > 0, &views[k]) < 0) {
            while (k--) {
                PyBuffer_Release(&views[k]);
            }
            return NULL;
        }
    }
    bw_outputs out = {views[1].buf, views[2].buf, views[3].buf, views[4].buf, views[5].buf,
                      views[6].buf, views[7].buf, views[8].buf, views[9].buf};
    if (enter(self) == 0) {
        Py_BEGIN_ALLOW_THREADS bw_batch_step(&self->batch, views[0].buf, &out);
        Py_END_ALLOW_THREADS self->busy = 0;
    }
    for (int k = 0; k < STEP_BUFFERS; k++) {
        PyBuffer_Release(&views[k]);
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *batch_random_actions(BatchObject *self, PyObject *args) {
    PyObject *out_object, *seed_object = Py_None;
    if (!PyArg_ParseTuple(args, "O|O:random_actions", &out_object, &seed_object)) {
        return NULL;
    }
    if (seed_object != Py_None) {
        if (!PyLong_Check(seed_object) || PyBool_Check(seed_object)) {
            return PyErr_Format(PyExc_TypeError, "seed must be an int or None, got %.50s",
                                Py_TYPE(seed_object)->tp_name);
        }
        unsigned long long seed = PyLong_AsUnsignedLongLongMask(seed_object);
        if (seed == (unsigned long long)-1 && PyErr_Occurred()) {
            return NULL;
        }
        bw_rng_seed(&self->sampler, seed);
    }
    Py_buffer out;
    if (get_buffer(out_object, "out", INT64, self->batch.num_games, 1, &out) < 0) {
        return NULL;
    }
    if (enter(self) == 0) {
        Py_BEGIN_ALLOW_THREADS bw_batch_random_actions(&self->batch, &self->sampler, out.buf);
        Py_END_ALLOW_THREADS self->busy = 0;
    }
    PyBuffer_Release(&out);
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *get_num_games(BatchObject *self, void *c) {
    return PyLong_FromLong(self->batch.num_games);
}
static PyObject *get_size(BatchObject *self, void *c) {
    return PyLong_FromLong(self->batch.layout.size);
}
static PyObject *get_num_ids(BatchObject *self, void *c) {
    return PyLong_FromLong(self->batch.layout.num_ids);
}
static PyObject *get_num_players(BatchObject *self, void *c) {
    return PyLong_FromLong(self->batch.start.n);
}

static PyGetSetDef batch_getset[] = {
    {"num_games", (getter)get_num_games, NULL, "How many games.", NULL},
    {"size", (getter)get_size, NULL, "The length of one observation.", NULL},
    {"num_ids", (getter)get_num_ids, NULL, "The length of one mask (the pack's ids).", NULL},
    {"num_players", (getter)get_num_players, NULL, "Seats per game.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef batch_methods[] = {
    {"reset", (PyCFunction)batch_reset, METH_VARARGS,
     "reset(mask, seeds): restart the games where mask (bool) is set; seeds (int64): "
     "random.Random(seed) for a seed >= 0, the game's generator drawn on for -1."},
    {"observe", (PyCFunction)batch_observe, METH_VARARGS,
     "observe(observations, masks, seats): every game's row into the arrays."},
    {"step", (PyCFunction)batch_step, METH_VARARGS,
     "step(actions, observations, masks, seats, rewards, terminated, truncated, illegal, "
     "reset, every): one id per game; writes the results into the arrays."},
    {"random_actions", (PyCFunction)batch_random_actions, METH_VARARGS,
     "random_actions(out, seed=None): a uniformly random legal id per game into out."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bohmisch_watten._native.Batch",
    .tp_basicsize = sizeof(BatchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Batch(start, num_games, seats, deal_mode, max_deals, neumaier): N episodes "
              "of one start game (see adapters/batch.py).",
    .tp_new = batch_new,
    .tp_dealloc = (destructor)batch_dealloc,
    .tp_methods = batch_methods,
    .tp_getset = batch_getset,
};

/* heuristic_action(game, neumaier): the id HeuristicBot chooses for the seat to act. */
static PyObject *heuristic_action(PyObject *module, PyObject *args) {
    PyObject *game_object, *neumaier_object;
    if (!PyArg_ParseTuple(args, "OO:heuristic_action", &game_object, &neumaier_object)) {
        return NULL;
    }
    bw_game game;
    if (bw_game_of(game_object, "game", &game) < 0) {
        return NULL;
    }
    int neumaier = PyObject_IsTrue(neumaier_object);
    if (neumaier < 0) {
        return NULL;
    }
    if (game.current == BW_NO_SEAT) {
        return PyErr_Format(PyExc_ValueError, "nobody is to act (a chance node or the end)");
    }
    return PyLong_FromLong(bw_heuristic(&game, neumaier));
}

static PyMethodDef batch_functions[] = {
    {"heuristic_action", (PyCFunction)heuristic_action, METH_VARARGS,
     "heuristic_action(game, neumaier): HeuristicBot's id for the seat to act of a Game."},
    {NULL, NULL, 0, NULL},
};

int bw_add_batch(PyObject *module) {
    if (PyType_Ready(&BatchType) < 0) {
        return -1;
    }
    Py_INCREF(&BatchType);
    if (PyModule_AddObject(module, "Batch", (PyObject *)&BatchType) < 0) {
        Py_DECREF(&BatchType);
        return -1;
    }
    return PyModule_AddFunctions(module, batch_functions);
}
