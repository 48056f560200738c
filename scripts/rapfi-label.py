#!/usr/bin/env python3
"""Labels gomoku positions with Rapfi's search, for `boardbot tune --score-share 1`.

Reads boardbot self-play files (`boardbot selfplay`) and match logs (`boardbot match --log`) of
free-style gomoku (mnk 15 15 5), takes every distinct position of their games (a log's game gives
each position before one of its moves; games lost by a forfeit are left out), asks Rapfi for its
evaluation of each at a node budget (Gomocup `INFO MAX_NODE`, the position given by `BOARD`, the
side to move's stones as 1), and writes a self-play file whose SCORE is Rapfi's evaluation in
boardbot's units: Rapfi predicts 1 / (1 + exp(-v / 200)) (its ScalingFactor), boardbot's tune
1 / (1 + 10^(-K e / 400)), so e = 2 v / (K ln 10) gives the same prediction at K (take the K that
`boardbot tune` prints for the game results; a mate found is written as +-2000, a prediction of
1 or 0). RESULT stays the game's result.

Usage: scripts/rapfi-label.py [--rapfi PATH] [--nodes N] [--k K] [--jobs J] OUT FILE...
  --rapfi  the engine (default $RAPFI or /work/rapfi/pbrain-rapfi; scripts/rapfi.sh builds it)
  --nodes  Rapfi's node budget a position (default 10000: depth 11-13, about 10 ms)
  --k      boardbot's scale K for the conversion (default 6.4)
  --jobs   Rapfi processes at once, each labelling a share of the positions (default 2)
"""
import argparse
import math
import os
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rapfi_pbrain import Rapfi  # noqa: E402

MATE = 2000


def records(paths):
    """(game, 'K/N', result, moves) of every position, the games of file i numbered from i * 1e8."""
    for fi, path in enumerate(paths):
        with open(path) as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                fields = line.rstrip("\n").split("\t")
                if len(fields) == 5:  # self-play: GAME K/N RESULT SCORE POSITION
                    game, kn, result, _, position = fields
                    if not position.startswith("moves"):
                        sys.exit(f"{path}: only 'moves ...' positions are read")
                    yield fi * 100_000_000 + int(game), kn, result, position.split()[1:]
                elif len(fields) == 7:  # match log: NUMBER BOARD FIRST SECOND RESULT REASON MOVES
                    if fields[1].split() != ["mnk", "15", "15", "5"]:
                        sys.exit(f"{path}: a game of {fields[1]}, not mnk 15 15 5")
                    if "forfeit" in fields[5]:
                        continue
                    moves = fields[6].split()
                    for i in range(len(moves)):
                        yield fi * 100_000_000 + int(fields[0]), f"{i + 1}/{len(moves)}", fields[4], moves[:i]
                else:
                    sys.exit(f"{path}: neither a self-play record nor a match log line: {line[:60]}")


def label(rapfi, nodes, k, todo, out):
    """Writes out's records for the positions todo, one Rapfi process answering in turn."""
    with Rapfi(rapfi, nodes) as engine, open(out, "w") as o:
        for game, kn, result, moves in todo:
            value, _ = engine.search(moves)
            if value is None:  # answered without a search: nothing to learn
                continue
            if "M" in value:
                score = MATE if value[0] != "-" else -MATE
            else:
                score = round(int(value) * 2 / (k * math.log(10)))
            o.write(f"{game}\t{kn}\t{result}\t{score}\t{' '.join(['moves', *moves])}\n")


def main():
    a = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("--rapfi", default=os.environ.get("RAPFI", "/work/rapfi/pbrain-rapfi"))
    a.add_argument("--nodes", type=int, default=10000)
    a.add_argument("--k", type=float, default=6.4)
    a.add_argument("--jobs", type=int, default=2)
    a.add_argument("out")
    a.add_argument("files", nargs="+")
    args = a.parse_args()
    if not os.access(args.rapfi, os.X_OK):
        sys.exit(f"no Rapfi at {args.rapfi}: build it with scripts/rapfi.sh")
    seen, todo = set(), []
    for game, kn, result, moves in records(args.files):
        key = " ".join(moves)
        if key not in seen:
            seen.add(key)
            todo.append((game, kn, result, moves))
    print(f"{len(todo)} distinct positions, {args.jobs} Rapfi processes at {args.nodes} nodes", file=sys.stderr)
    parts = [f"{args.out}.part{j}" for j in range(args.jobs)]
    with ThreadPoolExecutor(args.jobs) as pool:
        for f in [pool.submit(label, args.rapfi, args.nodes, args.k, todo[j :: args.jobs], parts[j]) for j in range(args.jobs)]:
            f.result()
    with open(args.out, "w") as o:
        o.write(f"# boardbot selfplay: SCORE is Rapfi's evaluation at {args.nodes} nodes, side to move's view, "
                f"in boardbot's units at K {args.k} (scripts/rapfi-label.py)\n# game mnk 15 15 5\n")
        for part in parts:
            with open(part) as f:
                o.write(f.read())
            os.remove(part)


if __name__ == "__main__":
    main()
