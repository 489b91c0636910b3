"""`python -m pipelines`: the headless CLI."""

import sys

from pipelines.cli import main

sys.exit(main())
