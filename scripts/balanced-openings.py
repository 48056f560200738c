#!/usr/bin/env python3
"""Balanced openings for free-style gomoku matches (`boardbot match --openings FILE`): random
four-stone positions near the centre that boardbot's own search scores close to even.

From random openings (`match --opening 4`) the first player wins most games on 15x15, so most
game pairs of an SPRT end 1-1 and tell nothing (figures: docs/results/gomoku.md). From openings
the search calls even, more pairs are decided and the test ends sooner.

Each candidate: four distinct cells drawn uniformly from the central rows and columns LO..HI,
the players in turn (first, second, first, second); `boardbot analyze ... --algorithm full
--depth DEPTH` scores it for the side to move (the first player); it is printed, one a line in
the protocol's move text, when |score| <= LIMIT. A win or loss found is never printed.

Usage: scripts/balanced-openings.py SEED CANDIDATES [DEPTH LIMIT LO HI] > FILE
  defaults: DEPTH 6, LIMIT 150, LO 4, HI 10 (a 15x15 board)
Environment: BIN (default target/release/boardbot).
docs/results/gomoku-15x15-balanced.txt: SEED 12, 716 candidates (209 openings), the defaults, the build of
82b9d47 (a later build's search may score the candidates differently).
"""
import os
import random
import re
import subprocess
import sys


def main():
    if len(sys.argv) not in (3, 7):
        sys.exit(__doc__)
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    depth, limit, lo, hi = (int(x) for x in sys.argv[3:7]) if len(sys.argv) == 7 else (6, 150, 4, 10)
    binary = os.environ.get("BIN", "target/release/boardbot")
    rng = random.Random(seed)
    for _ in range(count):
        cells = set()
        while len(cells) < 4:
            cells.add((rng.randint(lo, hi), rng.randint(lo, hi)))
        moves = " ".join(f"{r},{c}" for r, c in cells)
        args = [binary, "analyze", "mnk", "15", "15", "5", "--position", moves, "--algorithm", "full"]
        out = subprocess.run(args + ["--depth", str(depth)], capture_output=True, text=True, check=True).stdout
        lines = [l for l in out.splitlines() if l.startswith("full") and "evaluation" in l]
        score = re.search(r"evaluation ([+-]?\d+),", lines[-1]) if lines else None
        if score and abs(int(score.group(1))) <= limit:
            print(moves, flush=True)


if __name__ == "__main__":
    main()
