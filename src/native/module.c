/* bohmisch_watten._native: the optional compiled core (see docs/architecture.md).
 *
 * This file holds only the module's definition; the game, the solver and the sampler
 * live in their own files of src/native/, each adding its functions here.  The
 * pure-Python modules of the package stay the reference: every function of this module
 * is tested in lockstep against its Python twin.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "solver.h" /* solver.c: the exact solver, solve_masks */

/* Bumped whenever the module's functions change meaning, so that a stale build left in
 * a source tree is refused by bohmisch_watten._cores rather than trusted. */
#define BW_NATIVE_ABI 2

int bw_add_game(PyObject *module); /* py_game.c: the Game type and random_playouts */
int bw_add_play(PyObject *module); /* py_play.c: play_step, GameState's hot path */
int bw_add_batch(PyObject *module); /* py_batch.c: the Batch type and heuristic_action */
int bw_add_evidence(PyObject *module); /* evidence.c: the opponent model's exchange term */

static PyMethodDef native_methods[] = {
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT,
    "bohmisch_watten._native",
    "The compiled core of bohmisch_watten (optional; the Python modules are the reference).",
    -1,
    native_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    PyObject *module = PyModule_Create(&native_module);
    if (module == NULL) {
        return NULL;
    }
    if (bw_solver_register(module) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    if (PyModule_AddIntConstant(module, "ABI", BW_NATIVE_ABI) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    if (bw_add_game(module) < 0 || bw_add_play(module) < 0 || bw_add_batch(module) < 0 ||
        bw_add_evidence(module) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
