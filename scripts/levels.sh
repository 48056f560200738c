#!/usr/bin/env bash
# Each named level against the next one up (easy-medium, medium-hard, hard-max) on a few boards,
# ROUNDS rounds (two games each, one with each side first) at TIMEOUT seconds a move.
#   scripts/levels.sh [BINARY] [ROUNDS] [TIMEOUT] [JOBS]
set -euo pipefail
bin=${1:-target/release/boardbot}; rounds=${2:-10}; timeout=${3:-0.3}; jobs=${4:-1}
for pair in "easy medium" "medium hard" "hard max"; do
  set -- $pair
  for board in "cx 6 7 4" "mnk 9 9 5"; do
    line=$("$bin" match --game $board --engine1 "$1" --engine2 "$2" --rounds "$rounds" \
      --timeout "$timeout" --jobs "$jobs" --seed 5 2>/dev/null | grep -E "^(cx|mnk) ")
    echo "$1 vs $2: $line"
  done
done
