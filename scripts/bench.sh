#!/usr/bin/env bash
# Benchmarks of the engine:
#  1. search speed: time and nodes to each depth, and nodes per second, on fixed positions of
#     several sizes (`boardbot bench`);
#  2. reply times: the worst and mean reply over many moves, bot against itself, measured by the
#     referee from its write to the reply's read, at TIMEOUT 1 and TIMEOUT 10, while two CPU
#     burners load both cores (the course referees run both bots on the same 2 cores).
#
# usage: scripts/bench.sh [speed|replies1|replies10|all]   (default all)
# environment: BENCH_MS (search time per position, default 2000), ROUNDS1 / ROUNDS10 (rounds of
# the reply-time matches, default 3 and 1), LOAD=0 to run without the CPU burners, LOG=FILE to
# keep the games (FILE.t1, FILE.t10). Progress lines (one per game, with its slowest replies) go
# to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
BIN=$(mktemp -d)/boardbot
cp target/release/boardbot "$BIN"
what=${1:-all}

speed() {
    echo "== search speed (${BENCH_MS:-2000} ms per position, one thread)"
    "$BIN" bench --ms "${BENCH_MS:-2000}"
}

burners=()
load_on() {
    [ "${LOAD:-1}" = 0 ] && return
    for _ in 1 2; do (while :; do :; done) & burners+=($!); done
    echo "(CPU loaded: ${#burners[@]} busy loops)"
}
load_off() {
    for p in "${burners[@]}"; do kill "$p" 2>/dev/null || true; done
    burners=()
}
trap load_off EXIT

replies() { # TIMEOUT ROUNDS BOARDS...
    local t=$1 r=$2; shift 2
    local args=()
    for b in "$@"; do args+=(--game $b); done
    echo "== reply times at TIMEOUT $t (bot against itself, $r rounds per board)"
    load_on
    "$BIN" match "${args[@]}" --timeout "$t" --rounds "$r" --engine1 self --engine2 self ${LOG:+--log "$LOG.t$t"}
    load_off
}

case $what in
    speed) speed ;;
    replies1) replies 1 "${ROUNDS1:-3}" "mnk 15 15 5" "mnk 10 10 5" "cx 6 7 4" "cx 7 7 5" ;;
    replies10) replies 10 "${ROUNDS10:-1}" "mnk 15 15 5" "cx 7 7 5" ;;
    all)
        speed
        replies 1 "${ROUNDS1:-3}" "mnk 15 15 5" "mnk 10 10 5" "cx 6 7 4" "cx 7 7 5"
        replies 10 "${ROUNDS10:-1}" "mnk 15 15 5" "cx 7 7 5"
        ;;
    *) echo "usage: $0 [speed|replies1|replies10|all]" >&2; exit 2 ;;
esac
