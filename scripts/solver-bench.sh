#!/usr/bin/env bash
# The Connect-4 solver benchmark (issue 4): boardbot's exact solver beside the crate
# connect-four-ai (opening book off) and Pons' reference figures, on shared/connect4/.
#
# usage: [OUT=FILE] [SETS=a,b] [LIMIT=N] [MODES=strong,weak] [HASH_MB=64] [REPEAT=1] [CFA=0] [CONNECT4_DIR=DIR]
#        [EMPTY=1 [EMPTY_SHAPE=rows,cols,x]] scripts/solver-bench.sh
# The environment goes through to the bench (benches/solver.rs documents each variable). The
# table goes to stdout, and also to FILE when OUT is set; the exit status is the bench's (1 on a
# wrong score).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${OUT:-}" ]; then
    cargo bench -q --bench solver | tee "$OUT"
else
    cargo bench -q --bench solver
fi
