#!/usr/bin/env bash
# Checks the games of an m,n,k match played from openings (random or given) against the
# openings' proved values: each game's result is compared with the value of its opening position
# (perfect play from there), which tells each engine's errors (points it let go below the value,
# points it took above it) and the best score any engine could have made against the same
# opponent.
#
# usage: scripts/opening-values.sh LOG PLIES|OPENINGS M N K [SOLVE_ARGS...]
#   LOG: a `boardbot match --log` file of games on the one m,n,k board M N K, from
#   `--opening PLIES` (each game's opening: its first PLIES moves) or from `--openings
#   OPENINGS` (a file: game g, from 1, started from the opening of round (g - 1) / 2, the
#   file's lines taken in turn as the match does);
#   SOLVE_ARGS: passed to `boardbot solve --game mnk M N K` (e.g. --dfpn --limit 30 --hash 1024).
# environment: BIN (default target/release/boardbot, built if missing), VERBOSE=1 (a line a game).
# An opening whose value is not proved (`unknown`) leaves its games out of the tally.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 5 ] || { echo "usage: $0 LOG PLIES|OPENINGS M N K [SOLVE_ARGS...]" >&2; exit 2; }
log=$1 plies=$2 m=$3 n=$4 k=$5
shift 5
bin=${BIN:-target/release/boardbot}
[ -x "$bin" ] || cargo build --release -q
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# The given openings, one a line without comments (none with PLIES).
if [[ "$plies" =~ ^[0-9]+$ ]]; then
    : > "$dir/book"
else
    [ -f "$plies" ] || { echo "$0: '$plies' is neither a number of plies nor a file of openings" >&2; exit 2; }
    sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e 's/[[:space:]][[:space:]]*/ /g' "$plies" \
        | grep -v '^$' > "$dir/book" || true
    [ -s "$dir/book" ] || { echo "$0: no openings in $plies" >&2; exit 2; }
    plies=-1
fi
# Each game's opening (both games of a round share one): `.` for the empty board.
opening_of='
function opening_of(number, moves,    mv, s, i, np) {
    if (p < 0) return book[int((number - 1) / 2) % nbook]
    np = split(moves, mv, " ")
    if (np < p) return ""
    s = (p == 0) ? "." : mv[1]; for (i = 2; i <= p; i++) s = s " " mv[i]
    return s
}'
awk -F'\t' -v p="$plies" "$opening_of"'
FILENAME == ARGV[1] { book[nbook++] = $0; next }
!/^#/ && NF >= 7 { s = opening_of($1, $7); if (s != "" && !(s in seen)) { seen[s] = 1; print s } }
' "$dir/book" "$log" > "$dir/openings"
"$bin" solve --game mnk "$m" "$n" "$k" "$@" < "$dir/openings" > "$dir/values"
# Value from the side to move after the opening -> the first player's points with perfect play.
# A line of `solve`: the position's cells (`.` for none), the value, then nodes and time.
awk -F'\t' -v p="$plies" -v verbose="${VERBOSE:-0}" "$opening_of"'
FILENAME == ARGV[1] { book[nbook++] = $0; next }
FILENAME == ARGV[2] {
    if ($0 ~ /^positions /) next
    nf = split($0, f, " ")
    s = f[1]; stones = (s == ".") ? 0 : 1
    for (i = 2; i <= nf && f[i] ~ /,/; i++) { s = s " " f[i]; stones++ }
    v = f[i]
    if (v == "unknown") { par[s] = "?"; next }
    if (stones % 2 == 1) v = -v
    par[s] = (v + 1) / 2
    next
}
/^#/ || NF < 7 { next }
{
    s = opening_of($1, $7)
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
}' "$dir/book" "$dir/values" "$log"
