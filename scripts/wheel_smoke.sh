#!/usr/bin/env bash
# Build the wheel, install it in a fresh venv outside the checkout, and run scripts/wheel_smoke.py from there.
# Needs .venv (scripts/setup.sh). Prints how long it took.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
start=$SECONDS
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
.venv/bin/python -m pip wheel -q --no-deps -w "$work/dist" .
"${PYTHON:-python3}" -m venv "$work/venv"
wheel=$(ls "$work"/dist/smear_rl-*.whl)
"$work/venv/bin/python" -m pip install -q -c "$repo/constraints.txt" "$wheel[eval]"
cp scripts/wheel_smoke.py "$work/smoke.py"
(cd "$work" && "$work/venv/bin/python" smoke.py)
echo "wheel smoke test: $((SECONDS - start)) s (build, fresh venv, install, run)"
