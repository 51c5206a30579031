"""``python -m training.evaluate``: the same command line as ``smear-rl evaluate``."""

from training.evaluate.cli import main

main()
