#!/usr/bin/env bash
# Regenerates the built-in Connect-4 opening book (book/cx-6x7x4.book) with boardbot's own exact
# solver, and prints each level's positions, nodes and time, then the book's size and the total.
#
# usage: [PLIES=10] [THREADS=2] [HASH_MB=8192] [OUT=book/cx-6x7x4.book] scripts/make-book.sh
# PLIES: the most stones of a book position (the first player's moves at 0, 2, ... PLIES stones).
# Rebuild afterwards (`cargo build --release`): the book is compiled into the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
exec ./target/release/boardbot book --game cx 6 7 4 --plies "${PLIES:-10}" --threads "${THREADS:-2}" \
    --hash "${HASH_MB:-8192}" --out "${OUT:-book/cx-6x7x4.book}"
