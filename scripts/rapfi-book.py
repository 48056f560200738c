#!/usr/bin/env python3
"""Makes an opening book of free-style gomoku on 15x15 (`mnk 15 15 5`, src/game/mnk/book.rs's
format) from Rapfi's searches, for one colour or both.

From the empty board, for the colour the book plays: where that colour is to move, Rapfi's move
at `--nodes`; where the other colour is, the replies worth preparing for: Rapfi's move at
`--reply-nodes` and at `--nodes`, and boardbot's own move in `--boardbot-ms` (the strong replies
of two engines, one of each symmetric kind), each followed on; in positions of fewer than
`--plies` stones, level by level. Positions are taken once whatever the order of their stones
and in any of the board's 8 images (a move read back is turned to the position's image). It resumes: positions OUT already holds are not searched again (their moves,
and the replies prepared for, are read from it), and each new line is appended at once.

Usage: scripts/rapfi-book.py [--rapfi PATH] [--boardbot PATH] [--nodes N] [--reply-nodes N,...]
                             [--boardbot-ms MS,...] [--wide W] [--plies P] [--near-below S]
                             [--again] [--colour first|second|both] OUT
  --rapfi        the engine (default $RAPFI or /work/rapfi/pbrain-rapfi; scripts/rapfi.sh builds it)
  --boardbot     the boardbot whose replies are prepared for (default target/release/boardbot)
  --nodes        Rapfi's budget for the book's moves (default 1,000,000: about 1 s)
  --reply-nodes  Rapfi's smaller budgets for the replies (default 30,000,100,000,300,000)
  --boardbot-ms  boardbot's times for its replies (default 300,1000)
  --wide         below this many stones the replies of every budget and time; beyond it only
                 Rapfi's at the first budget and at --nodes, and boardbot's at the first time
                 (default 6)
  --plies        book positions have fewer stones than this (default 12)
  --near-below   in positions of fewer than S stones, every free cell within 2 of a stone is a
                 reply to prepare too (default 0: none; 2 prepares every near answer to the first
                 stone)
  --again        the positions of fewer than --wide stones that OUT prepared already are asked
                 again of every engine, and the new kinds of replies added (a book widened with
                 more budgets, --reply-nodes, or --near-below)
"""
import argparse
import contextlib
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rapfi_pbrain import Rapfi  # noqa: E402

N = 15


def image(t, r, c):
    m = N - 1
    return [(r, c), (r, m - c), (m - r, c), (m - r, m - c), (c, r), (c, m - r), (m - c, r), (m - c, m - r)][t]


def cell(text):
    r, c = text.split(",")
    return int(r), int(c)


# The symmetry that undoes each of image()'s.
INVERSE = [0, 1, 2, 3, 4, 6, 5, 7]


def oriented(moves):
    """The position's stones (by colour) in the least of its 8 images (the same for every order
    of the moves and every image), and the symmetry that takes the position there."""
    stones = [(cell(m), i % 2) for i, m in enumerate(moves)]
    return min((tuple(sorted((image(t, r, c), side) for (r, c), side in stones)), t) for t in range(8))


def key(moves):
    return oriented(moves)[0]


def to_key(moves, mv):
    """Move `mv` of the position `moves` in its key's orientation."""
    r, c = image(oriented(moves)[1], *cell(mv))
    return f"{r},{c}"


def from_key(moves, mv):
    """Move `mv` in the orientation of the key of `moves`, back in the position's own."""
    r, c = image(INVERSE[oriented(moves)[1]], *cell(mv))
    return f"{r},{c}"


def finished(moves):
    """Whether the last move made five in a row (or more) for its colour."""
    if not moves:
        return False
    mine = {cell(m) for m in moves[::-2]}
    r, c = cell(moves[-1])
    for dr, dc in [(0, 1), (1, 0), (1, 1), (1, -1)]:
        run = 1
        for s in (1, -1):
            k = 1
            while (r + s * k * dr, c + s * k * dc) in mine:
                run, k = run + 1, k + 1
        if run >= 5:
            return True
    return False


def near(moves):
    """The free cells within 2 rows and columns of a stone of `moves`."""
    taken = {cell(m) for m in moves}
    cells = {(r + dr, c + dc) for r, c in taken for dr in range(-2, 3) for dc in range(-2, 3)}
    return [f"{r},{c}" for r, c in sorted(cells - taken) if 0 <= r < N and 0 <= c < N]


class Boardbot:
    """boardbot over its own protocol: its move in a position, in `ms` milliseconds."""

    def __init__(self, path, ms):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.ms = ms

    def ask(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        return self.p.stdout.readline().strip()

    def move(self, moves):
        for line in [f"init mnk 15 15 5 {'first' if len(moves) % 2 == 0 else 'second'} {self.ms / 1000}",
                     "position " + " ".join(moves)]:
            if self.ask(line) != "ok":
                raise SystemExit(f"boardbot refused '{line}'")
        reply = self.ask("go")
        if len(reply.split()) != 2:
            raise SystemExit(f"boardbot answered '{reply}' to go after {' '.join(moves)}")
        return ",".join(reply.split())

    def close(self):
        self.ask("quit")
        self.p.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rapfi", default=os.environ.get("RAPFI", "/work/rapfi/pbrain-rapfi"))
    ap.add_argument("--boardbot", default="target/release/boardbot")
    ap.add_argument("--nodes", type=int, default=1_000_000)
    ap.add_argument("--reply-nodes", default="30000,100000,300000")
    ap.add_argument("--boardbot-ms", default="300,1000")
    ap.add_argument("--wide", type=int, default=6)
    ap.add_argument("--plies", type=int, default=12)
    ap.add_argument("--near-below", type=int, default=0)
    ap.add_argument("--again", action="store_true")
    ap.add_argument("--colour", choices=["first", "second", "both"], default="both")
    ap.add_argument("out")
    a = ap.parse_args()
    reply_nodes = [int(n) for n in a.reply_nodes.split(",")]
    bot_ms = [int(n) for n in a.boardbot_ms.split(",")]

    # The book's moves and the replies prepared for, by position (the replies are comment lines
    # of the book: `# replies MOVES : REPLY...`).
    known, prepared = {}, {}
    if os.path.exists(a.out):
        for line in open(a.out):
            if line.startswith("# replies ") and " : " in line:
                moves, found = line[len("# replies "):].split(" : ")
                moves = moves.split()
                prepared[key(moves)] = [to_key(moves, mv) for mv in found.split()]
            line = line.split("#")[0].strip()
            if "=>" in line:
                moves, reply = line.split("=>")
                known[key(moves.split())] = to_key(moves.split(), reply.strip())
    with contextlib.ExitStack() as engines:
        best = engines.enter_context(Rapfi(a.rapfi, a.nodes))
        quick = [engines.enter_context(Rapfi(a.rapfi, n)) for n in reply_nodes]
        bots = [Boardbot(a.boardbot, ms) for ms in bot_ms]
        with open(a.out, "a") as out:
            grow(a, out, known, prepared, best, quick, bots)
        for b in bots:
            b.close()


def grow(a, out, known, prepared, best, quick, bots):
    """Writes to `out` the book's lines that `known` lacks (see the module's text)."""

    def book_move(moves):
        k = key(moves)
        if k not in known:
            value, mv = best.search(moves)
            known[k] = to_key(moves, mv)
            out.write(f"{' '.join(moves)} => {mv}  # Rapfi {value}\n")
            out.flush()
        return from_key(moves, known[k])

    def replies(moves):
        """The opponent's replies to prepare for, one of each symmetric kind: those prepared
        before; the engines' where the position is new (or asked again): below `--wide` stones
        every engine's, beyond it Rapfi's at the first and the largest budget and boardbot's at
        its first time; below `--near-below` stones every near cell. A line of replies is
        written where the position is new or gained a kind."""
        k = key(moves)
        wide = len(moves) < a.wide
        found = []
        if k not in prepared or (a.again and wide):
            engines = (quick if wide else quick[:1]) + [best]
            found = [r.search(moves)[1] for r in engines] + [b.move(moves) for b in (bots if wide else bots[:1])]
        if len(moves) < a.near_below:
            found += near(moves)
        kept = [from_key(moves, mv) for mv in prepared.get(k, [])]
        new = False
        for mv in found:
            if all(key(moves + [mv]) != key(moves + [r]) for r in kept):
                kept.append(mv)
                new = True
        if new or k not in prepared:
            out.write(f"# replies {' '.join(moves)} : {' '.join(kept)}\n")
            out.flush()
            prepared[k] = [to_key(moves, mv) for mv in kept]
        return kept

    # Level by level (breadth first), so that a book stopped early is complete to a depth.
    for colour in {"first": [0], "second": [1], "both": [0, 1]}[a.colour]:
        seen = set()
        level = [[]]
        while level:
            following = []
            for moves in level:
                if len(moves) >= a.plies or key(moves) in seen or finished(moves):
                    continue
                seen.add(key(moves))
                if len(moves) % 2 == colour:
                    following.append(moves + [book_move(moves)])
                elif len(moves) + 1 < a.plies:
                    found = replies(moves)
                    print(f"{len(moves):2} stones, {' '.join(moves)}: replies {' '.join(found)}", file=sys.stderr, flush=True)
                    following.extend(moves + [r] for r in found)
            level = following


if __name__ == "__main__":
    main()
