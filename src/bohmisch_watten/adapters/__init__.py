"""Adapters that make Böhmisch Watten a game of OpenSpiel, PettingZoo and Gymnasium.

Each adapter is an optional extra and is imported on its own, so importing the package
never needs numpy or the peer libraries:

* :mod:`bohmisch_watten.adapters.openspiel` (``pip install bohmisch-watten[openspiel]``)
  registers the Python game ``python_bohmisch_watten``;
* :mod:`bohmisch_watten.adapters.pettingzoo` (``[pettingzoo]``): ``env`` and ``raw_env``;
* :mod:`bohmisch_watten.adapters.gymnasium` (``[gymnasium]``): ``WattenEnv``, registered
  as ``BohmischWatten-v0``.

Importing one without its extra raises an :class:`ImportError` (``ModuleNotFoundError``)
that names the extra to install (``bohmisch_watten.adapters.gymnasium needs the
[gymnasium] extra (gymnasium is missing): pip install 'bohmisch-watten[gymnasium]'``);
:mod:`~bohmisch_watten.adapters.fast` and :mod:`~bohmisch_watten.adapters.arrays` need
only numpy, which every learning extra brings.

The internal ``bohmisch_watten.adapters._episodes`` holds what the three share, in pure Python.
"""
