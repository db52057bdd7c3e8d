/* Argument checks shared by the Python-facing files of the compiled core.
 *
 * The core trusts no caller (a socket can reach it through the server's bots): every
 * entry point reads its arguments through checks like this one, which raise TypeError
 * or ValueError naming the argument instead of letting a bad value into the C code.
 */
#ifndef BW_PY_ARGS_H
#define BW_PY_ARGS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* An int (not a bool, which is no seat, id or count) in [low, high], or -1 with an
 * exception set. */
static inline int bw_long_arg(PyObject *value, const char *name, long low, long high, long *out) {
    if (!PyLong_Check(value) || PyBool_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, got %.50s", name, Py_TYPE(value)->tp_name);
        return -1;
    }
    int overflow = 0;
    long result = PyLong_AsLongAndOverflow(value, &overflow);
    if (result == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow || result < low || result > high) {
        PyErr_Format(PyExc_ValueError, "%s must be an integer from %ld to %ld", name, low, high);
        return -1;
    }
    *out = result;
    return 0;
}

#endif
