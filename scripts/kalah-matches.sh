#!/usr/bin/env bash
# boardbot against greedy and against a fixed-depth alpha-beta to 8 moves (the courses' kind of
# bot: `ab8`, src/search/plain.rs) on Kalah(6,3) .. (6,6), 1 s a move, ROUNDS game pairs each
# (each engine plays each side once per round), from the start. Results: docs/results/kalah.md.
# Usage: scripts/kalah-matches.sh [ROUNDS] [OPPONENTS...]   (defaults: 3, greedy ab8)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
shift || true
opponents=("${@:-greedy ab8}")
cargo build --release --quiet
bin=${BOARDBOT_BIN:-target/release/boardbot}
uptime
for opp in ${opponents[@]}; do
  for seeds in 3 4 5 6; do
    echo "== kalah 6 $seeds: boardbot vs $opp, $rounds rounds, 1 s a move"
    "$bin" match --game kalah 6 "$seeds" --rounds "$rounds" --timeout 1 --engine2 "$opp" \
      --log "target/kalah-6-$seeds-$opp.log" 2>/dev/null | grep -E '^(kalah|engine)'
  done
done
uptime
