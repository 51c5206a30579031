#!/usr/bin/env bash
# Re-measure the shipped agents' figures on the results page (duplicate format, every core): each agent of
# agents/shipped/ against random, rule and search. Match counts: RANDOM_MATCHES (default 1000), RULE_MATCHES (1000),
# SEARCH_MATCHES (100; these take most of the time: about half an hour a preset on 2 cores) on each of SEARCH_SEEDS
# (default 1). PRESETS picks the agents (default: all). Every run is written to runs/evals/ and the search runs are
# pooled over their seeds.
set -euo pipefail
cd "$(dirname "$0")/.."
SMEAR_EXTRAS=${SMEAR_EXTRAS:-eval} bash scripts/setup.sh
mkdir -p runs/evals
for agent in agents/shipped/*.npz; do  # every shipped agent: agents/shipped/<preset>.npz
  preset=$(basename "$agent" .npz)
  if [ -n "${PRESETS:-}" ] && [[ " $PRESETS " != *" $preset "* ]]; then continue; fi
  for opponent in random rule; do
    case $opponent in
      rule) matches=${RULE_MATCHES:-1000} ;;
      random) matches=${RANDOM_MATCHES:-1000} ;;
    esac
    .venv/bin/smear-rl evaluate "$agent" "$opponent" --preset "$preset" --matches "$matches" --seed 1 \
      --no-progress --json "runs/evals/${preset}_npz_vs_${opponent}_seed1.json"
  done
  runs=()
  for seed in ${SEARCH_SEEDS:-1}; do
    out="runs/evals/${preset}_npz_vs_search_${preset}_seed$seed.json"
    .venv/bin/smear-rl evaluate "$agent" search --preset "$preset" \
      --matches "${SEARCH_MATCHES:-100}" --seed "$seed" --no-progress --json "$out"
    runs+=("$out")
  done
  if [ "${#runs[@]}" -gt 1 ]; then .venv/bin/smear-rl pool "${runs[@]}"; fi
done
