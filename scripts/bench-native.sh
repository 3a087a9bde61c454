#!/usr/bin/env bash
# Native micro-benchmarks of the translator + SSE encoder beside the serde_json floor
# (bench/README.md): runs `cargo bench --bench translate` (crates/core/benches/translate.rs), which prints divan's
# statistics and then the table: turn, events/s, MB/s and the ratio to the floor.
#
#   bash scripts/bench-native.sh               # divan, then the table
#   bash scripts/bench-native.sh --table-only  # the table alone (quicker)
#   BENCH_ROUNDS=21 bash scripts/bench-native.sh --table-only
#   bash scripts/bench-native.sh translator    # other arguments go to divan (a filter, …)
#
# Figures are wall-clock on whatever else the machine is doing: run it on a quiet machine and
# read the ratios, not the absolute rates. Nothing here is a test; it never fails on speed.
set -euo pipefail
cd "$(dirname "$0")/.."

args=()
for arg in "$@"; do
  if [ "$arg" = "--table-only" ]; then
    export BENCH_TABLE_ONLY=1
  else
    args+=("$arg")
  fi
done

# divan's statistics first, then the table of paired runs (the last lines printed).
exec cargo bench -p session-agent-core --bench translate -- "${args[@]}"
