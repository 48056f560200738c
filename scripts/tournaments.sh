#!/usr/bin/env bash
# The courses' tournament board sets, the bot against an opponent (default: the built-in L1).
#
# usage: scripts/tournaments.sh [mnk|cx|both] [-- MORE_MATCH_ARGS...]   (default both)
# environment: ROUNDS (default 1: one game with each colour per board), TIMEOUT (default 1),
#              ENGINE2 (default l1; any engine of `boardbot match`), LOG (prefix of game logs),
#              JOBS (default 1: games played at the same time, `--jobs`; a job loads about a core).
# Note: the large Connect-X boards (up to 100x100x30) make long games: hours for the cx set.
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:-both}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
cargo build --release -q
BIN=$(mktemp -d)/boardbot
cp target/release/boardbot "$BIN"
run() {
    local set=$1
    shift
    echo "== $set-tournament"
    "$BIN" match --boards "$set-tournament" --timeout "${TIMEOUT:-1}" --rounds "${ROUNDS:-1}" \
        --jobs "${JOBS:-1}" --engine1 self --engine2 "${ENGINE2:-l1}" ${LOG:+--log "$LOG.$set"} "$@"
}
case $which in
    mnk) run mnk "$@" ;;
    cx) run cx "$@" ;;
    both) run mnk "$@"; run cx "$@" ;;
    *) echo "usage: $0 [mnk|cx|both] [-- MORE_MATCH_ARGS...]" >&2; exit 2 ;;
esac
