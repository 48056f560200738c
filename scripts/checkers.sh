#!/usr/bin/env bash
# The figures of docs/results/checkers.md: perft and its speed, the search's speed and depth in
# 1 s, the endgame database's size and build time (through cargo test), play/undo against
# copy-make, matches against the greedy player (English and house rules, each engine playing
# each side), and the levels: easy against greedy, then each against the next.
#   scripts/checkers.sh [BINARY] [ROUNDS] [TIMEOUT] [LEVEL_ROUNDS] [LEVEL_TIMEOUT]
# Run it on an idle machine (it is one process at a time); `nice` keeps it polite.
set -euo pipefail
bin=${1:-target/release/boardbot}; rounds=${2:-5}; timeout=${3:-1}; lrounds=${4:-4}; ltimeout=${5:-0.3}

echo "== perft, English, depths 1-12"
"$bin" perft --game checkers english 12 --all
echo "== perft, house rules, depths 1-6"
"$bin" perft --game checkers house 6 --all

echo "== search: 1 s a position, one thread, fresh 64 MiB table"
"$bin" bench --only checkers --ms 1000

echo "== the endgame database: size and build time (4 pieces; English, then house rules)"
cargo test --release --lib endgame_database_build_time -- --ignored --nocapture 2>/dev/null | grep bytes
echo "== perft 11: play/undo (the game's play, with hash, counter and history) against copy-make"
cargo test --release --lib play_undo_against_copy_make -- --ignored --nocapture 2>/dev/null | grep perft

echo "== against greedy, $rounds round(s) of 2 games, $timeout s a move"
for rules in english house; do
  "$bin" match --game checkers "$rules" --engine1 self --engine2 greedy --rounds "$rounds" \
    --timeout "$timeout" --seed 1 --quiet 2>/dev/null | grep -E "^(checkers|engine1 score)"
done

echo "== levels, $lrounds round(s) of 2 games, $ltimeout s a move"
for pair in "easy greedy" "easy medium" "medium hard" "hard max"; do
  set -- $pair
  line=$("$bin" match --game checkers english --engine1 "$1" --engine2 "$2" --rounds "$lrounds" \
    --timeout "$ltimeout" --seed 5 --quiet 2>/dev/null | grep -E "^checkers ")
  echo "$1 vs $2: $line"
done
