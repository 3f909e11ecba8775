"""python -m irdiv: the irdiv command."""

import sys

from ._cli import main

sys.exit(main())
