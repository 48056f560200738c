#!/usr/bin/env bash
# A book of unbalanced m,n,k openings: random positions that the exact solver proves won for
# the side to move, and not at once. Played from such a book (`boardbot match --openings`, each
# opening with both colours), a pair of games scores 1/2 when both engines convert the win, and
# only an engine that lets a win go, or holds a lost position its opponent failed to convert,
# moves the score: where both engines play the values of balanced openings (a draw on 7x7x5),
# this is where a difference in strength shows, as in chess engines' testing from unbalanced
# openings. Read the match's error bar over the game pairs (the match prints it).
#
# usage: scripts/won-openings.sh M N K MIN_STONES MAX_STONES COUNT SEED > BOOK
#   Each candidate has a number of stones drawn uniformly in MIN_STONES..MAX_STONES, each on a
#   uniformly random empty cell, the players in turn; the first COUNT candidates that are won
#   for the side to move and need at least MIN_NODES df-pn nodes to prove (from a fresh table)
#   are printed, one a line, in the protocol's move text.
# environment: BIN (default target/release/boardbot, built if missing); MIN_NODES (default
#   10000); LIMIT (seconds a candidate may take, default 10: unproved ones are left out); HASH
#   (MiB, default 256); BATCH (candidates solved at a time, default 50); BATCHES (the most
#   batches tried, default 1000: the script then fails, having printed what it found).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 7 ] || { echo "usage: $0 M N K MIN_STONES MAX_STONES COUNT SEED" >&2; exit 2; }
m=$1 n=$2 k=$3 lo=$4 hi=$5 count=$6 seed=$7
bin=${BIN:-target/release/boardbot}
[ -x "$bin" ] || cargo build --release -q
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
found=0 batch=0
while [ "$found" -lt "$count" ]; do
    if [ "$batch" -ge "${BATCHES:-1000}" ]; then
        echo "$0: only $found won openings in $batch batches" >&2
        exit 1
    fi
    # One batch of candidates; the batch number is mixed into the seed, so a run is repeatable.
    awk -v m="$m" -v n="$n" -v lo="$lo" -v hi="$hi" -v count="${BATCH:-50}" -v seed="$((seed * 1000 + batch))" '
        BEGIN {
            srand(seed)
            for (c = 0; c < count; c++) {
                stones = lo + int(rand() * (hi - lo + 1))
                delete used
                line = ""
                for (s = 0; s < stones; s++) {
                    do { cell = int(rand() * m * n) } while (cell in used)
                    used[cell] = 1
                    line = line (s ? " " : "") int(cell / n) "," (cell % n)
                }
                print line
            }
        }' > "$dir/candidates"
    batch=$((batch + 1))
    # A solve line: the cells (one comma each), the value, words, "nodes N time T us".
    "$bin" solve --game mnk "$m" "$n" "$k" --pn --fresh --limit "${LIMIT:-10}" --hash "${HASH:-256}" \
        < "$dir/candidates" 2> /dev/null \
        | awk -v min="${MIN_NODES:-10000}" '
            !/^positions / {
                cells = ""; value = ""; nodes = 0
                for (i = 1; i <= NF; i++) {
                    if ($i ~ /,/) cells = cells (cells == "" ? "" : " ") $i
                    else if (value == "") value = $i
                    if ($i == "nodes") nodes = $(i + 1)
                }
                if (value == "1" && nodes >= min) print cells
            }' > "$dir/won"
    while read -r line && [ "$found" -lt "$count" ]; do
        echo "$line"
        found=$((found + 1))
    done < "$dir/won"
done
