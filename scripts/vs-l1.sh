#!/usr/bin/env bash
# The bot (full strength) against the courses' L1 player, refereed by `boardbot match`, on the
# boards of the m,n,k and Connect-X courses; prints one combined table.
#
# usage: scripts/vs-l1.sh [--quick | --big] [--rounds R | R] [-- MORE_MATCH_ARGS...]
#   --quick      only the small boards (m,n,k up to 7x7x5, Connect-X up to 7x7x5)
#   --big        only the big boards (m,n,k from 10x10x5, Connect-X from 25x25x10)
#   R            rounds per board (each round = 2 games, one with each colour); default 5
#   after --     passed to `boardbot match` as is (e.g. --engine-stderr, --quiet)
# environment:
#   ROUNDS       rounds per board, as R (default 5)
#   TIMEOUT      seconds per move (default 1)
#   BOARDS       the boards to play instead of the list below, separated by ';' or newlines,
#                e.g. BOARDS='mnk 3 3 3; cx 6 7 4'
#   ENGINE1      default self;  ENGINE2  default l1 (any engine spec of `boardbot match`)
#   SEED         seed of L1's random choices (default 0; game i uses SEED + i)
#   LOG          file for the per-game log (board, colours, moves, result, reason)
set -euo pipefail

cd "$(dirname "$0")/.."

SMALL_BOARDS='
mnk 3 3 3
mnk 4 4 3
mnk 5 5 4
mnk 6 6 5
mnk 7 7 5
cx 6 7 4
cx 5 4 4
cx 7 7 5
'
BIG_BOARDS='
mnk 10 10 5
mnk 50 50 10
mnk 70 70 10
cx 25 25 10
cx 50 50 15
cx 100 100 30
'

rounds="${ROUNDS:-5}"
subset=all
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) subset=small ;;
        --big) subset=big ;;
        --rounds) rounds="${2:?--rounds needs a number}"; shift ;;
        --rounds=*) rounds="${1#--rounds=}" ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *[!0-9]*|'') echo "vs-l1.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
        *) rounds="$1" ;;
    esac
    shift
done

if [ -n "${BOARDS:-}" ]; then
    boards="$(printf '%s\n' "$BOARDS" | tr ';' '\n')"
else
    case "$subset" in
        small) boards="$SMALL_BOARDS" ;;
        big) boards="$BIG_BOARDS" ;;
        # The course order: m,n,k small to big, then Connect-X.
        *) boards="$(printf '%s\n' "$SMALL_BOARDS" "$BIG_BOARDS" | grep '^mnk'; printf '%s\n' "$SMALL_BOARDS" "$BIG_BOARDS" | grep '^cx')" ;;
    esac
fi

cargo build --release --quiet

# Run a private copy of the binary: a rebuild during a long match must not change the players
# (the built-in players are started again from the referee's own executable).
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp target/release/boardbot "$tmp/boardbot"
printf '%s\n' "$boards" | sed 's/#.*//; s/^[[:space:]]*//; /^$/d' > "$tmp/boards"

args=(match --boards "$tmp/boards" --timeout "${TIMEOUT:-1}" --rounds "$rounds"
      --engine1 "${ENGINE1:-self}" --engine2 "${ENGINE2:-l1}" --seed "${SEED:-0}")
if [ -n "${LOG:-}" ]; then
    args+=(--log "$LOG")
fi
echo "boards: $(paste -sd ';' "$tmp/boards" | sed 's/;/; /g')" >&2
"$tmp/boardbot" "${args[@]}" ${extra[@]+"${extra[@]}"}
