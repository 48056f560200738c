#!/usr/bin/env python3
"""The openings of a match's opening file whose game pairs were not all split 1-1: a set on which
an SPRT between two close builds learns more per pair.

A game pair split 1-1 (each engine won one game, or both drawn) tells an SPRT almost nothing
about which build is stronger; on free-style gomoku at 0.1 s a move two pairs in three end so,
mostly because whoever moves first in the opening wins. How often an opening's pairs split 1-1
is a property of the opening (and of the engines' level), so openings can be chosen by it from
earlier matches between near-equal builds: their result files (`boardbot match ... --results
FILE`, the same `--openings` file). An opening is kept when at least MIN_PAIRS of its pairs were
played and at most SHARE of them split 1-1; the kept openings are printed in the opening file's
order, one a line, as the file writes them. Both engines of a pair play the same opening with
each colour, so the choice favours neither build.

Usage: scripts/decisive-openings.py [--share SHARE] [--min-pairs N] OPENINGS RESULTS... > FILE
  --share      the largest share of 1-1 pairs kept (default 0.7)
  --min-pairs  the fewest pairs an opening needs to be judged (default 5)
Each RESULTS file must come from a match with OPENINGS as its --openings file (its header says
so; a file of other openings is an error).
"""
import argparse
import collections
import json
import os
import sys


def main():
    a = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("--share", type=float, default=0.7)
    a.add_argument("--min-pairs", type=int, default=5)
    a.add_argument("openings")
    a.add_argument("results", nargs="+")
    args = a.parse_args()
    with open(args.openings) as f:
        openings = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    pairs = collections.Counter()
    split = collections.Counter()
    for path in args.results:
        games = collections.defaultdict(list)
        with open(path) as f:
            for line in f:
                record = json.loads(line)
                if "match" in record:
                    named = record["match"].get("openings") or ""
                    if os.path.basename(named) != os.path.basename(args.openings):
                        sys.exit(f"{path}: a match on the openings '{named}', not {args.openings}")
                elif "game" in record:
                    g = record["game"]
                    games[(g["board"], g["round"])].append(g)
        for pair in games.values():
            if len(pair) != 2:
                continue
            opening = pair[0]["opening"]
            if not 1 <= opening <= len(openings):
                sys.exit(f"{path}: opening {opening} is not in {args.openings} ({len(openings)} openings)")
            pairs[opening] += 1
            split[opening] += sum(g["score"] for g in pair) == 1.0
    kept = [i for i in range(1, len(openings) + 1) if pairs[i] >= args.min_pairs and split[i] <= args.share * pairs[i]]
    for i in kept:
        print(openings[i - 1])
    total, ones = sum(pairs[i] for i in kept), sum(split[i] for i in kept)
    print(
        f"{len(kept)} of {len(openings)} openings kept; their pairs: {ones} of {total} split 1-1"
        f" (all: {sum(split.values())} of {sum(pairs.values())})",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
