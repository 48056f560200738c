#!/usr/bin/env bash
# The Kalah benchmark runs of docs/results/kalah.md, one after the other (one thread each).
#
# usage: [DB_DIR=DIR] scripts/kalah-bench.sh [quick|all|65|goals]
#   quick (default): Bantumi (6,3) and Kalah(6,4) both capture rules, the course's alpha-beta;
#   all: also Kalah(6,4) over a 20-seed database cached in DB_DIR (default target/kalah-db;
#        the first run builds it, about a minute here, and writes a 226 MB file);
#   65: Kalah(6,5) over that database;
#   goals: the issue's goals as a user meets them, `boardbot solve` with its defaults from a
#        fresh process on one core (taskset -c 0), with its wall and CPU times and peak memory:
#        Kalah(5,2), Bantumi, Kalah(6,4) three times each, then Kalah(6,5) once (at most LIMIT
#        seconds, default 300: the goal). The database cache is boardbot's (~/.cache/boardbot,
#        or BOARDBOT_CACHE); with COLD=1 an empty one of its own, so that the first Kalah(6,4)
#        is the cold run that builds the 20-seed database (70 s on an idle core, a 226 MB file)
#        and the next two are warm. HASH=MIB passes `--hash MIB` to every solve (from 523 the
#        solves ask for a 22-seed database on 6 pits, built once from the cached 20-seed one;
#        from 796, Kalah(6,5) asks for 23 seeds: a larger build, not measured).
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
goals)
    cargo build -q --release
    bin=target/release/boardbot
    # solve GAME...: one fresh process on core 0, with its wall time, CPU time and peak memory.
    solve() {
        # shellcheck disable=SC2086 # --hash and its value are two words
        printf '.\n' | /usr/bin/time -f '  %e s wall, %U s user, %S s sys, %M KB peak' taskset -c 0 "$bin" solve \
            --game kalah "$@" ${HASH:+--hash $HASH}
    }
    if [ -n "${COLD:-}" ]; then
        BOARDBOT_CACHE=$(mktemp -d)
        export BOARDBOT_CACHE
    fi
    cache=${BOARDBOT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/boardbot}
    uptime
    echo "== the cache $cache holds, for 6 pits and empty captures:"
    ls -l "$cache"/kalah-db-6-empty-*.bin 2>/dev/null || echo "  nothing"
    for board in "5 2" "6 3" "6 4"; do
        for _ in 1 2 3; do
            echo "== kalah $board"
            # shellcheck disable=SC2086 # the board is two words
            solve $board
        done
    done
    uptime
    echo "== kalah 6 5 (limit ${LIMIT:-300} s)"
    solve 6 5 --limit "${LIMIT:-300}"
    uptime
    if [ -n "${COLD:-}" ]; then
        rm -r "$BOARDBOT_CACHE"
    fi
    ;;
*)
    echo "usage: scripts/kalah-bench.sh [quick|all|65|goals]" >&2
    exit 2
    ;;
esac
