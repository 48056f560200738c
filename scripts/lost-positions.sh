#!/usr/bin/env bash
# Second player on boards the first player wins (6x6x4, 8x8x4), against fallible opponents (the
# courses' L1 and the low levels of NEW_BINARY): how often do two builds still win or draw?
# NEW_BINARY referees every match, so both builds meet the same opponents.
#   scripts/lost-positions.sh OLD_BINARY NEW_BINARY [ROUNDS] [TIMEOUT]
# A round is two games, both with the opponent first (--first 1).
set -euo pipefail
old=${1:?old binary}; new=${2:?new binary}; rounds=${3:-5}; timeout=${4:-1}
for board in "6 6 4" "8 8 4"; do
  for opponent in l1 easy medium; do
    for player in "$old" self; do
      line=$("$new" match --game mnk $board --engine1 "$opponent" --engine2 "$player" --first 1 \
        --rounds "$rounds" --timeout "$timeout" --seed 11 2>/dev/null | grep -E "^mnk")
      echo "$(basename "$player") mnk $board vs $opponent: $line"
    done
  done
done
