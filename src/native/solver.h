/* The exact solver of a deal whose hands are all known: the native twin of
 * bohmisch_watten/solver.py's solve_masks (R24-R32).  See solver.c. */
#ifndef BW_SOLVER_H
#define BW_SOLVER_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* Builds the solver's read-only card tables and adds its functions to ``module``
 * (called once from the module's init, under the GIL); 0, or -1 with an exception set. */
int bw_solver_register(PyObject *module);

#endif
