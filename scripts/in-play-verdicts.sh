#!/usr/bin/env bash
# How often the exact solver gives its verdict in play: for each m,n,k position of a file (one a
# line, protocol move text: `ROW,COL` cells separated by spaces), one `go` under the clock, and
# whether a `solved:` line was logged. Prints a line a position (`solved` or `-`, and the move),
# then the count.
#
# usage: scripts/in-play-verdicts.sh POSITIONS M N K [TIMEOUT]    (default TIMEOUT 1)
# environment: BIN (default target/release/boardbot, built if missing).
# The result depends on the machine's load: the solver gets a share of the move's time.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 4 ] || { echo "usage: $0 POSITIONS M N K [TIMEOUT]" >&2; exit 2; }
positions=$1 m=$2 n=$3 k=$4 timeout=${5:-1}
bin=${BIN:-target/release/boardbot}
[ -x "$bin" ] || cargo build --release -q
solved=0 total=0
while read -r pos; do
    [ -n "$pos" ] || continue
    # The engine's side is the side to move; input stays open until the reply (end of input
    # would stop the search at once).
    log=$( (printf 'init %s %s %s false %s\nposition %s\ngo\n' "$m" "$n" "$k" "$timeout" "$pos"
        sleep "$(awk -v t="$timeout" 'BEGIN { print t + 0.5 }')") | RUST_LOG=info "$bin" 2>&1)
    mv=$(grep -E '^[0-9]+ [0-9]+$' <<< "$log" || true)
    if grep -q 'solved:' <<< "$log"; then
        verdict=solved
        solved=$((solved + 1))
    else
        verdict=-
    fi
    total=$((total + 1))
    echo "$pos | $verdict | $mv"
done < "$positions"
echo "verdicts: $solved of $total"
