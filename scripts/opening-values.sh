#!/usr/bin/env bash
# Checks the games of an m,n,k match played from random openings against the openings' proved
# values: each game's result is compared with the value of its opening position (perfect play
# from there), which tells each engine's errors (points it let go below the value, points it took
# above it) and the best score any engine could have made against the same opponent.
#
# usage: scripts/opening-values.sh LOG PLIES M N K [SOLVE_ARGS...]
#   LOG: a `boardbot match --log` file of games from `--opening PLIES` on the m,n,k board M N K;
#   SOLVE_ARGS: passed to `boardbot solve --game mnk M N K` (e.g. --dfpn --limit 30 --hash 1024).
# environment: BIN (default target/release/boardbot, built if missing), VERBOSE=1 (a line a game).
# An opening whose value is not proved (`unknown`) leaves its games out of the tally.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 5 ] || { echo "usage: $0 LOG PLIES M N K [SOLVE_ARGS...]" >&2; exit 2; }
log=$1 plies=$2 m=$3 n=$4 k=$5
shift 5
bin=${BIN:-target/release/boardbot}
[ -x "$bin" ] || cargo build --release -q
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# Each game's opening: its first PLIES moves (both games of a round share one).
awk -F'\t' -v p="$plies" '!/^#/ && NF >= 7 {
    if (split($7, mv, " ") < p) next
    s = (p == 0) ? "." : mv[1]; for (i = 2; i <= p; i++) s = s " " mv[i]
    if (!(s in seen)) { seen[s] = 1; print s }
}' "$log" > "$dir/openings"
"$bin" solve --game mnk "$m" "$n" "$k" "$@" < "$dir/openings" > "$dir/values"
# Value from the side to move after PLIES stones -> the first player's points with perfect play.
awk -F'\t' -v p="$plies" -v verbose="${VERBOSE:-0}" '
FNR == NR {
    if ($0 ~ /^positions /) next
    split($0, f, " ")
    np = (p == 0) ? 1 : p
    s = f[1]; for (i = 2; i <= np; i++) s = s " " f[i]
    v = f[np + 1]
    if (v == "unknown") { par[s] = "?"; next }
    if (p % 2 == 1) v = -v
    par[s] = (v + 1) / 2
    next
}
/^#/ || NF < 7 { next }
{
    split($7, mv, " ")
    s = (p == 0) ? "." : mv[1]; for (i = 2; i <= p; i++) s = s " " mv[i]
    got = ($5 == "1-0") ? 1 : ($5 == "0-1") ? 0 : 0.5
    e1 = $3; e2 = $4; sub(/^e[12]:/, "", e1); sub(/^e[12]:/, "", e2)
    if (!(s in par) || par[s] == "?") { unknown++; next }
    v = par[s]
    games[e1]++; games[e2]++
    pts[e1] += got; pts[e2] += 1 - got
    best[e1] += v; best[e2] += 1 - v
    # Who erred: the side whose result is below the value.
    if (got < v) { drop[e1] += v - got; take[e2] += v - got }
    if (got > v) { drop[e2] += got - v; take[e1] += got - v }
    total++
    if (verbose) printf "game %d: value %s for the first player, result %s (%s - %s)\n", $1, v, $5, e1, e2
}
END {
    printf "%d games checked against proved opening values, %d left out (opening not proved)\n", total, unknown
    for (e in games)
        printf "%s: %d games, %.1f points, %.1f by the values; let %.1f go below the value, took %.1f above it\n",
            e, games[e], pts[e], best[e], drop[e] + 0, take[e] + 0
}' "$dir/values" "$log"
