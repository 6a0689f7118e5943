"""``python -m server.cli``: the ``fracas`` command."""

import sys

from server.cli import main

sys.exit(main())
