"""``python -m bohmisch_watten``: see :mod:`bohmisch_watten.commands.cli`."""

import sys

from .commands.cli import main

sys.exit(main())
