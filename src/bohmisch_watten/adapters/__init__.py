"""Adapters that make Böhmisch Watten a game of OpenSpiel, PettingZoo and Gymnasium.

Each adapter is an optional extra and is imported on its own, so importing the package
never needs numpy or the peer libraries:

* :mod:`bohmisch_watten.adapters.openspiel` (``pip install bohmisch-watten[openspiel]``)
  registers the Python game ``python_bohmisch_watten``;
* :mod:`bohmisch_watten.adapters.pettingzoo` (``[pettingzoo]``): ``env`` and ``raw_env``;
* :mod:`bohmisch_watten.adapters.gymnasium` (``[gymnasium]``): ``WattenEnv``, registered
  as ``BohmischWatten-v0``.

The internal ``bohmisch_watten.adapters._episodes`` holds what the three share, in pure Python.
"""
