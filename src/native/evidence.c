/* The opponent model's exchange term: the C twin of ``_exchange_term_python`` in
 * src/bohmisch_watten/bots/inference.py (R18-R21).
 *
 * The expert weighs every sampled world by how likely it makes the opponents' own
 * decisions; for each seat that exchanged or folded this deal that is a softmax over
 * the legal exchanges and a sigmoid for the fold, a few dozen float operations that
 * Python spends most of a card-play decision on.  Here they run in the same order with
 * the same libm functions, so the value is the Python one to the bit and the expert
 * resamples the same worlds with either core (tests/test_native_expert.py).  Python's
 * math.exp raises OverflowError where libm returns infinity; so does this twin.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdint.h>

#define CARDS 36     /* R6: the 36-card pack; the 32-card deck is its first 32 */
#define DECK 32      /* the cards the heuristic averages a draw over */
#define MAX_LIMIT 8  /* far above any stock limit of R19, R20 (2 or 3) */
#define NO_TRICK 5.0 /* R29: the points of a deal without a trick */

static int checked_exp(double x, double *out) {
    double y = exp(x);
    if (isinf(y) && isfinite(x)) {
        PyErr_SetString(PyExc_OverflowError, "math range error");
        return -1;
    }
    *out = y;
    return 0;
}

static PyObject *zero_division(void) {
    PyErr_SetString(PyExc_ZeroDivisionError, "float division by zero");
    return NULL;
}

/* ``_elementary``: e_0 ... e_top of xs, the sums of the products of every j of them. */
static void elementary(const double *xs, int count, int top, double *e) {
    e[0] = 1.0;
    for (int j = 1; j <= top; j++) e[j] = 0.0;
    for (int i = 0; i < count; i++)
        for (int j = top; j > 0; j--) e[j] += e[j - 1] * xs[i];
}

static int read_mask(PyObject *object, const char *name, uint64_t *out) {
    if (!PyLong_Check(object) || PyBool_Check(object)) {
        PyErr_Format(PyExc_TypeError, "exchange_evidence: %s must be an int", name);
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(object);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        v = UINT64_MAX;
    }
    if (v >> CARDS) {
        PyErr_Format(PyExc_ValueError, "exchange_evidence: %s must be a mask of 36 cards", name);
        return -1;
    }
    *out = v;
    return 0;
}

static int read_small(PyObject *object, const char *name, long low, long high, long *out) {
    if (!PyLong_Check(object) || PyBool_Check(object)) {
        PyErr_Format(PyExc_TypeError, "exchange_evidence: %s must be an int", name);
        return -1;
    }
    int overflow;
    long v = PyLong_AsLongAndOverflow(object, &overflow);
    if (overflow || v < low || v > high) {
        PyErr_Format(PyExc_ValueError, "exchange_evidence: %s must be from %ld to %ld", name,
                     low, high);
        return -1;
    }
    *out = v;
    return 0;
}

static int read_float(PyObject *object, const char *name, double *out) {
    if (!PyFloat_Check(object)) {
        PyErr_Format(PyExc_TypeError, "exchange_evidence: %s must be a float", name);
        return -1;
    }
    *out = PyFloat_AS_DOUBLE(object);
    return 0;
}

static int read_flag(PyObject *object, const char *name, int *out) {
    if (!PyBool_Check(object)) {
        PyErr_Format(PyExc_TypeError, "exchange_evidence: %s must be a bool", name);
        return -1;
    }
    *out = object == Py_True;
    return 0;
}

/* exchange_evidence(dealt, discards, values, total, trump_card, limit, may_fold, folded,
 *                   dealer_limit, took, fold_bias, fold_temperature, exchange_temperature)
 * -> the log-probability of the seat's fold or exchange (see the Python twin). */
static PyObject *exchange_evidence(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 13) {
        PyErr_Format(PyExc_TypeError, "exchange_evidence takes 13 positional arguments, got %zd",
                     nargs);
        return NULL;
    }
    uint64_t dealt, discards;
    double value[CARDS], total, bias, fold_tau, tau;
    long trump_card, limit, dealer_limit;
    int may_fold, folded, took;
    if (read_mask(args[0], "dealt", &dealt) < 0 || read_mask(args[1], "discards", &discards) < 0)
        return NULL;
    if (!PyTuple_Check(args[2]) || PyTuple_GET_SIZE(args[2]) != CARDS) {
        PyErr_SetString(PyExc_TypeError, "exchange_evidence: values must be a tuple of 36 floats");
        return NULL;
    }
    for (int c = 0; c < CARDS; c++)
        if (read_float(PyTuple_GET_ITEM(args[2], c), "each of values", &value[c]) < 0) return NULL;
    if (read_float(args[3], "total", &total) < 0 ||
        read_small(args[4], "trump_card", 0, CARDS - 1, &trump_card) < 0 ||
        read_small(args[5], "limit", 0, MAX_LIMIT, &limit) < 0 ||
        read_flag(args[6], "may_fold", &may_fold) < 0 || read_flag(args[7], "folded", &folded) < 0 ||
        read_small(args[8], "dealer_limit", -1, MAX_LIMIT, &dealer_limit) < 0 ||
        read_flag(args[9], "took", &took) < 0 || read_float(args[10], "fold_bias", &bias) < 0 ||
        read_float(args[11], "fold_temperature", &fold_tau) < 0 ||
        read_float(args[12], "exchange_temperature", &tau) < 0)
        return NULL;
    int cards[CARDS], count = 0, seen = 0;
    for (uint64_t rest = dealt; rest; rest &= rest - 1) cards[count++] = __builtin_ctzll(rest);
    double seen_sum = 0.0;
    for (int i = 0; i <= count; i++) {
        int c = i < count ? cards[i] : (int)trump_card;
        if (c < DECK) {
            seen_sum += value[c];
            seen++;
        }
    }
    if (seen == DECK) return zero_division();
    double draw = (total - seen_sum) / (double)(DECK - seen), out = 0.0;
    if (may_fold) {
        double gains[CARDS], kept = 0.0, none = 1.0;
        for (int i = 0; i < count; i++) { /* sorted, ascending (insertion) */
            double v = value[cards[i]];
            int j = i;
            for (; j > 0 && gains[j - 1] > v; j--) gains[j] = gains[j - 1];
            gains[j] = v;
        }
        for (int i = 0; i < count; i++)
            if (!(i >= limit || gains[i] >= draw)) gains[i] = draw;
        for (int i = 0; i < count; i++) none *= 1.0 - gains[i];
        for (int i = 0; i < count; i++) kept += gains[i];
        double gain = NO_TRICK * none - kept, power;
        if (fold_tau == 0.0) return zero_division();
        if (checked_exp((bias - gain) / fold_tau, &power) < 0) return NULL;
        double p_fold = 1.0 / (1.0 + power);
        if (1e-6 > p_fold) p_fold = 1e-6;
        if (1 - 1e-6 < p_fold) p_fold = 1 - 1e-6;
        out += log(folded ? p_fold : 1.0 - p_fold);
    }
    if (folded) return PyFloat_FromDouble(out);
    double xs[CARDS] = {0}, e[MAX_LIMIT + 2], z = 0.0;
    if (tau == 0.0 && (count || discards || took || dealer_limit >= 0)) return zero_division();
    for (int i = 0; i < count; i++)
        if (checked_exp((draw - value[cards[i]]) / tau, &xs[i]) < 0) return NULL;
    if (dealer_limit >= 0) {
        double take, low = 0.0, high = 0.0;
        elementary(xs, count, (int)dealer_limit + 1, e);
        if (checked_exp((value[trump_card] - draw) / tau, &take) < 0) return NULL;
        for (int j = 0; j <= dealer_limit; j++) low += e[j];
        for (int j = 1; j <= dealer_limit + 1; j++) high += e[j];
        z = low + take * high;
    } else {
        elementary(xs, count, (int)limit, e);
        for (int j = 0; j <= limit; j++) z += e[j];
    }
    double chosen = 0.0;
    for (uint64_t rest = discards; rest; rest &= rest - 1)
        chosen += (draw - value[__builtin_ctzll(rest)]) / tau;
    if (took) chosen += (value[trump_card] - draw) / tau;
    return PyFloat_FromDouble(out + chosen - log(z));
}

static PyMethodDef evidence_methods[] = {
    {"exchange_evidence", (PyCFunction)(void (*)(void))exchange_evidence, METH_FASTCALL,
     "exchange_evidence(dealt, discards, values, total, trump_card, limit, may_fold, folded,"
     " dealer_limit, took, fold_bias, fold_temperature, exchange_temperature)\n--\n\n"
     "The opponent model's log-probability of one seat's fold or exchange"
     " (_exchange_term_python in bots/inference.py), to the bit."},
    {NULL, NULL, 0, NULL},
};

int bw_add_evidence(PyObject *module) { return PyModule_AddFunctions(module, evidence_methods); }
