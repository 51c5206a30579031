#!/usr/bin/env bash
# Re-measure the results page's tables for the shipped agents (duplicate format, every core).
# Match counts: RULE_MATCHES (default 2000), RANDOM_MATCHES (1000), SEARCH_MATCHES (100; these take most
# of the time) on each of SEARCH_SEEDS (default 1); the search runs are written to runs/evals/ and pooled.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
mkdir -p runs/evals
for checkpoint in checkpoints/*.pt; do  # every shipped agent: checkpoints/<preset>.pt
  preset=$(basename "$checkpoint" .pt)
  for opponent in random rule; do
    case $opponent in
      rule) matches=${RULE_MATCHES:-2000} ;;
      random) matches=${RANDOM_MATCHES:-1000} ;;
    esac
    .venv/bin/smear-rl evaluate "$checkpoint" "$opponent" --preset "$preset" \
      --matches "$matches" --seed 1 --no-progress
  done
  runs=()
  for seed in ${SEARCH_SEEDS:-1}; do
    out="runs/evals/${preset}_pt_vs_search_${preset}_seed$seed.json"
    .venv/bin/smear-rl evaluate "$checkpoint" search --preset "$preset" \
      --matches "${SEARCH_MATCHES:-100}" --seed "$seed" --no-progress --json "$out"
    runs+=("$out")
  done
  if [ "${#runs[@]}" -gt 1 ]; then .venv/bin/smear-rl pool "${runs[@]}"; fi
done
