#!/usr/bin/env bash
# Second player on boards the first player wins (6x6x4, 8x8x4), against fallible opponents (the
# courses' L1 and low levels of boardbot itself): how often does boardbot still win or draw?
# Compares two builds, each refereeing its own games (the opponents are the same in both).
#   scripts/lost-positions.sh OLD_BINARY NEW_BINARY [ROUNDS] [TIMEOUT]
# A round is two games, both with the opponent first (--first 1).
set -euo pipefail
old=${1:?old binary}; new=${2:?new binary}; rounds=${3:-5}; timeout=${4:-1}
for board in "6 6 4" "8 8 4"; do
  for opponent in l1 level2 level4; do
    for bin in "$old" "$new"; do
      line=$("$bin" match --game mnk $board --engine1 "$opponent" --engine2 self --first 1 \
        --rounds "$rounds" --timeout "$timeout" --seed 11 2>/dev/null | grep -E "^mnk")
      echo "$(basename "$bin") mnk $board vs $opponent: $line"
    done
  done
done
