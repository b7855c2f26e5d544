"""``python -m sourcegrad``: the command line (see ``cli``)."""

import sys

from .cli import main

sys.exit(main())
