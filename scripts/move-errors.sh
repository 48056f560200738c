#!/usr/bin/env bash
# How often engines throw away a proved value with one move: for each m,n,k position of a file
# whose value the exact solver proves, every engine given plays one move under the clock, and
# the solver checks whether the move keeps the value (a win stays a win, a draw a draw). On
# boards where both engines of a match play the openings' values, this counts the errors that
# decide games, a move at a time, with many more samples than games give.
#
# usage: scripts/move-errors.sh POSITIONS M N K TIMEOUT ENGINE...
#   POSITIONS: one position a line, protocol move text (`ROW,COL` cells separated by spaces);
#   ENGINE: a boardbot-protocol engine command (a binary path, with arguments if quoted).
# environment:
#   BIN      the solver (default target/release/boardbot, built if missing);
#   LIMIT    seconds the solver may take per position (default 30), HASH its table in MiB
#            (default 1024);
#   CACHE    a file of proved values (`position<TAB>value`, side to move: 1, 0, -1 or unknown)
#            read and extended, so that later runs solve only new positions;
#   VERBOSE=1  a line per position and engine.
# Positions the solver does not prove, or that are lost for the side to move (any move keeps a
# loss), are left out; so are moves whose result it does not prove (counted as unsettled).
# Each engine gets `init M N K false TIMEOUT`, `position ...`, `go`, and `quit` once it has
# answered; the results depend on the machine's load, as in a match.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 6 ] || { echo "usage: $0 POSITIONS M N K TIMEOUT ENGINE..." >&2; exit 2; }
positions=$1 m=$2 n=$3 k=$4 timeout=$5
shift 5
bin=${BIN:-target/release/boardbot}
[ -x "$bin" ] || cargo build --release -q
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cache=${CACHE:-$dir/cache}
touch "$cache"
grep -v '^[[:space:]]*$' "$positions" > "$dir/positions" || true

# Solves the positions of standard input missing from the cache, and adds them.
solve_new() {
    awk -F'\t' 'FILENAME == ARGV[1] { known[$1] = 1; next } !($0 in known) && !seen[$0]++' "$cache" - > "$dir/new"
    [ -s "$dir/new" ] || return 0
    # The value is the field after the position's cells (each has one comma).
    "$bin" solve --game mnk "$m" "$n" "$k" --limit "${LIMIT:-30}" --hash "${HASH:-1024}" < "$dir/new" \
        | awk '!/^positions / { print ($1 == ".") ? $2 : $(split($0, f, ",")) }' > "$dir/values"
    paste -d'\t' "$dir/new" "$dir/values" >> "$cache"
}

# The engine's move in a position (`-` if none came within TIMEOUT + 2 s).
engine_move() {
    local engine=$1 pos=$2 out=$dir/reply
    : > "$out"
    {
        printf 'init %s %s %s false %s\nposition %s\ngo\n' "$m" "$n" "$k" "$timeout" "$pos"
        local waited=0
        until grep -qE '^[0-9]+ [0-9]+$' "$out" || [ "$waited" -ge $(((${timeout%.*} + 2) * 20)) ]; do
            sleep 0.05
            waited=$((waited + 1))
        done
        printf 'quit\n'
    } | $engine > "$out" 2> /dev/null || true
    local reply
    reply=$(grep -m1 -E '^[0-9]+ [0-9]+$' "$out" || true)
    echo "${reply:--}" | tr ' ' ','
}

solve_new < "$dir/positions"
for engine in "$@"; do
    : > "$dir/moves"
    while IFS= read -r pos; do
        engine_move "$engine" "$pos" >> "$dir/moves" < /dev/null
    done < "$dir/positions"
    paste -d' ' "$dir/positions" "$dir/moves" | grep -v ' -$' | solve_new || true
    paste -d'\t' "$dir/positions" "$dir/moves" | awk -F'\t' -v engine="$engine" -v verbose="${VERBOSE:-0}" '
    FILENAME == ARGV[1] { value[$1] = $2; next }
    {
        pos = $1; mv = $2; v = value[pos]; c = value[pos " " mv]
        if (v == "unknown" || v == "") { unproved++; next }
        if (v < 0) { lost++; next }
        n++
        if (mv == "-") { verdict = "no move"; errors++ }
        else if (c == "unknown" || c == "") { verdict = "unsettled"; unsettled++ }
        else if (-c < v) { verdict = "ERROR"; errors++ }
        else { verdict = "keeps"; kept++ }
        if (verbose) printf "%s | value %s | %s | %s\n", pos, v, mv, verdict
    }
    END {
        printf "%s: %d positions (%d not proved, %d lost left out): %d keep the value, %d errors, %d unsettled\n",
            engine, n, unproved, lost, kept, errors, unsettled
    }' "$cache" -
done
