#!/usr/bin/env bash
# Each named level against the next one up (easy-medium, medium-hard, hard-max) on a few boards,
# ROUNDS rounds (two games each, one with each side first) at TIMEOUT seconds a move; the boards
# are BOARDS, separated by ';' (default "cx 6 7 4;mnk 9 9 5").
#   [BOARDS="kalah 6 4;checkers english"] scripts/levels.sh [BINARY] [ROUNDS] [TIMEOUT] [JOBS]
set -euo pipefail
bin=${1:-target/release/boardbot}; rounds=${2:-10}; timeout=${3:-0.3}; jobs=${4:-1}
for pair in "easy medium" "medium hard" "hard max"; do
  set -- $pair
  IFS=';' read -ra boards <<< "${BOARDS:-cx 6 7 4;mnk 9 9 5}"
  for board in "${boards[@]}"; do
    line=$("$bin" match --game $board --engine1 "$1" --engine2 "$2" --rounds "$rounds" \
      --timeout "$timeout" --jobs "$jobs" --seed 5 2>/dev/null | grep -E "^${board%% *} ")
    echo "$1 vs $2: $line"
  done
done
