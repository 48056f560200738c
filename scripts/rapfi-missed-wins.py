#!/usr/bin/env python3
"""A suite of gomoku wins that boardbot's own search missed and Rapfi sees (issue 60).

Takes the positions of a self-play file (`boardbot selfplay`: its SCORE is boardbot's search
score, side to move's view) that a labelled file (scripts/rapfi-label.py of the same self-play
file) marks as a mate for the side to move while boardbot's score there was not a won one
(|score| < 1000), draws COUNT of them by SEED, asks Rapfi again for each (its move, at NODES)
and writes those where Rapfi still announces a mate for the side to move, as `boardbot suite`
lines (src/suite.rs): `win | rapfi | x/o | MOVES | RAPFI'S MOVE | NOTE`. Rapfi's move is one
winning first move by Rapfi's search, not proved and not necessarily the only one, so the suite
counts a position solved when boardbot plays that move or announces a mate (a lower bound of
the wins it finds).

Usage: scripts/rapfi-missed-wins.py [--rapfi PATH] [--nodes N] [--count C] [--seed S] LABELLED SELFPLAY > SUITE
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rapfi_pbrain import Rapfi  # noqa: E402


def main():
    a = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("--rapfi", default=os.environ.get("RAPFI", "/work/rapfi/pbrain-rapfi"))
    a.add_argument("--nodes", type=int, default=10000)
    a.add_argument("--count", type=int, default=300)
    a.add_argument("--seed", type=int, default=1)
    a.add_argument("labelled")
    a.add_argument("selfplay")
    args = a.parse_args()
    if not os.access(args.rapfi, os.X_OK):
        sys.exit(f"no Rapfi at {args.rapfi}: build it with scripts/rapfi.sh")
    own = {}
    with open(args.selfplay) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            game, kn, _, score, position = line.rstrip("\n").split("\t")
            if score != "-":
                own[position.strip()] = (game, kn, int(score))
    missed = []
    with open(args.labelled) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            _, _, _, label, position = line.rstrip("\n").split("\t")
            position = position.strip()
            if position in own and int(label) >= 2000 and abs(own[position][2]) < 1000:
                missed.append((position, *own[position]))
    missed.sort()
    print(f"{len(missed)} positions Rapfi marks won for the side to move and boardbot's search did not", file=sys.stderr)
    chosen = random.Random(args.seed).sample(missed, min(args.count, len(missed)))
    print(f"# Wins boardbot's own search missed: scripts/rapfi-missed-wins.py --nodes {args.nodes} "
          f"--count {args.count} --seed {args.seed} {os.path.basename(args.labelled)} "
          f"{os.path.basename(args.selfplay)}\n# Format: src/suite.rs. ANSWERS: Rapfi's move (not proved).")
    kept = 0
    with Rapfi(args.rapfi, args.nodes) as engine:
        for position, game, kn, score in chosen:
            moves = position.split()[1:]
            value, move = engine.search(moves)
            if value is None or not value.startswith("+M"):
                continue
            kept += 1
            side = "x" if len(moves) % 2 == 0 else "o"
            print(f"win | rapfi | {side} | {' '.join(moves)} | {move} | selfplay game {game} position {kn}; "
                  f"boardbot {score}; rapfi {args.nodes} nodes {value}")
    print(f"{kept} of {len(chosen)} kept (Rapfi announced the mate again)", file=sys.stderr)


if __name__ == "__main__":
    main()
