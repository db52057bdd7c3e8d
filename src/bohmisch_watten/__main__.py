"""``python -m bohmisch_watten``: see :mod:`bohmisch_watten.cli`."""

import sys

from .cli import main

sys.exit(main())
