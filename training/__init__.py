"""Self-play training (needs the ``train`` extra: torch) and the evaluation harness (the ``eval`` extra)."""
