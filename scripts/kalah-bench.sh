#!/usr/bin/env bash
# The Kalah benchmark runs of docs/results/kalah.md, one after the other (one thread each).
#
# usage: [DB_DIR=DIR] scripts/kalah-bench.sh [quick|all|65]
#   quick (default): Bantumi (6,3) and Kalah(6,4) both capture rules, the course's alpha-beta;
#   all: also Kalah(6,4) over a 20-seed database cached in DB_DIR (default target/kalah-db;
#        the first run builds it, about a minute here, and writes a 226 MB file);
#   65: Kalah(6,5) over that database (hours: see docs/results/kalah.md).
# Each run prints `uptime` first: the machine is shared, and its load disturbs the times.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release --bench kalah
# bench "BOARDS" VAR=value...: the boards (P,S separated by spaces) with that environment.
bench() {
    local boards=$1
    shift
    uptime
    # shellcheck disable=SC2086 # the boards are separate arguments
    env "$@" cargo bench -q --bench kalah -- $boards
}
DB_DIR=${DB_DIR:-target/kalah-db}
mkdir -p "$DB_DIR"
case "${1:-quick}" in
quick | all)
    bench "6,3" ALPHABETA=8 TABLE_MIB=16
    bench "6,3" TABLE_MIB=16 DB_SEEDS=10
    bench "6,3 6,4" TABLE_MIB=256 DB_SEEDS=14
    bench "6,4" TABLE_MIB=256 DB_SEEDS=14 CAPTURE=standard
    if [ "${1:-quick}" = all ]; then
        bench "6,3 6,4" TABLE_MIB=256 DB_SEEDS=20 DB_DIR="$DB_DIR"
    fi
    ;;
65)
    bench "6,5" TABLE_MIB=1024 DB_SEEDS=20 DB_DIR="$DB_DIR" TRACE=1
    ;;
*)
    echo "usage: scripts/kalah-bench.sh [quick|all|65]" >&2
    exit 2
    ;;
esac
