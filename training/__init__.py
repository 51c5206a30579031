"""Self-play training and evaluation (to come; see the project issues)."""
