#!/usr/bin/env bash
# Re-measure the README's tables for the shipped agents (duplicate format, every core).
# Match counts: RULE_MATCHES (default 2000), RANDOM_MATCHES (1000), SEARCH_MATCHES (100; these take most of the time).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
for preset in ten_point minnesota; do
  for opponent in random rule search; do
    case $opponent in
      rule) matches=${RULE_MATCHES:-2000} ;;
      random) matches=${RANDOM_MATCHES:-1000} ;;
      search) matches=${SEARCH_MATCHES:-100} ;;
    esac
    .venv/bin/python -m training.evaluate "checkpoints/$preset.pt" "$opponent" --preset "$preset" \
      --matches "$matches" --seed 1 --no-progress
  done
done
