#!/usr/bin/env bash
# Depth and nodes per second on the 15x15x5 bench position, boardbot and Rapfi one after the other
# in one run, at the same time per move (issue 42; docs/results/gomoku.md).
#
# boardbot: `boardbot bench --only 15x15 --ms MS` (the position `mnk 15x15x5 middle` of
# src/bench.rs, first player to move). Rapfi: a pbrain session `START 15`, `INFO timeout_turn
# MS+RESERVE`, `BOARD` with the same stones (x = column, y = row; 1 = the side to move's stones),
# `DONE`; its MESSAGE line gives speed, depth (selective depth after the dash), nodes and time.
# Rapfi keeps `turn_time_reserved` (100 ms in the config.toml of scripts/rapfi.sh) of each turn,
# so it is given MS + RESERVE to think MS, as boardbot's bench does.
#
# usage: scripts/rapfi-bench.sh BOARDBOT RAPFI [MS] [RESERVE]   (defaults 1000 and 100)
set -euo pipefail
BIN=$1
RAPFI=$2
MS=${3:-1000}
RESERVE=${4:-100}
MOVES="7,7 7,8 8,8 6,6 8,7 8,6 9,7 6,7 6,8 10,6"

echo "uptime: $(uptime)"
echo "## boardbot ($BIN), $MS ms"
"$BIN" bench --only 15x15 --ms "$MS"

echo "## Rapfi ($RAPFI), $MS ms to think (timeout_turn $((MS + RESERVE)))"
board=""
i=0
for mv in $MOVES; do
    row=${mv%,*}
    col=${mv#*,}
    who=$((i % 2 == 0 ? 1 : 2))
    board+="$col,$row,$who"$'\n'
    i=$((i + 1))
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# From an empty folder: Rapfi reads ./config.toml before the one beside its executable.
(cd "$dir" && { printf 'START 15\nINFO timeout_turn %d\nINFO timeout_match 0\nBOARD\n%sDONE\n' \
    $((MS + RESERVE)) "$board"; sleep $(((MS + RESERVE) / 1000 + 2)); echo END; } | "$RAPFI")
