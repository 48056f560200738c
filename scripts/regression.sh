#!/usr/bin/env bash
# Strength regression: the current build against a saved earlier build (a copied binary), over a
# set of boards, both colours; prints the match table, then the current build's score with a 95%
# error bar and the Elo difference it implies.
#
# usage: scripts/regression.sh OLD_BINARY [ROUNDS]    (default 10 rounds = 20 games a board)
# environment: TIMEOUT (default 1), BOARDS ('mnk 7 7 5; cx 6 7 4', default below), SEED, JOBS
# (games at a time, default 1), OPENING (random plies before the engines take over, default 0).
# Save a build for later comparison with: cp target/release/boardbot /somewhere/boardbot-old
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: $0 OLD_BINARY [ROUNDS]}
[ -x "$old" ] || { echo "$old: not an executable" >&2; exit 2; }
rounds=${2:-10}
boards=${BOARDS:-'mnk 7 7 5; mnk 10 10 5; mnk 15 15 5; cx 6 7 4; cx 7 7 5'}
cargo build --release -q
dir=$(mktemp -d)
cp target/release/boardbot "$dir/new"
cp "$old" "$dir/old"
args=()
IFS=';' read -ra list <<< "$boards"
for b in "${list[@]}"; do
    read -ra w <<< "$b"
    [ ${#w[@]} -eq 4 ] && args+=(--game "${w[@]}")
done
"$dir/new" match "${args[@]}" --timeout "${TIMEOUT:-1}" --rounds "$rounds" --seed "${SEED:-0}" \
    --jobs "${JOBS:-1}" --opening "${OPENING:-0}" --engine1 self --engine2 "$dir/old" | tee "$dir/table"
# TOTAL row: games W D L F oF ... (W counts the old build's forfeits, L+F the new build's losses).
awk '$1 == "TOTAL" {
    n = $2; w = $3; d = $4; l = $5 + $6
    s = (w + d / 2) / n
    var = (w * (1 - s)^2 + d * (0.5 - s)^2 + l * s^2) / n
    e = 1.96 * sqrt(var / n)
    elo = (s <= 0 || s >= 1) ? "inf" : (s == 0.5 ? "+0" : sprintf("%+.0f", -400 * log(1 / s - 1) / log(10)))
    printf "\nnew vs old: %d games, +%d =%d -%d: score %.1f%% +- %.1f%% (95%%), Elo %s\n", n, w, d, l, 100 * s, 100 * e, elo
}' "$dir/table"
