#!/usr/bin/env python3
"""Makes the won-and-defended position suite of free-style gomoku (15x15, five or more wins;
issue 60) from real games, each label checked by Rapfi and by boardbot's provers.

usage: scripts/gomoku-suite.py BOARDBOT OUT GAMELOG... [--plies N] [--max N] [--rapfi-ms MS]
           [--check-ms MS] [--proof-nodes N] [--move-nodes N] [--defend-only 1]
           [--exclude SUITE]

--defend-only 1 labels only defences (for a second pass over more plies); --exclude SUITE
leaves out the positions already in a suite file (they are not candidates).

GAMELOG: game logs of `boardbot match --log` (tab-separated; the last field the moves, ROW,COL);
the games of tests/data/gomoku-suite.txt are in tests/data/gomoku-suite-games/ (the commands
that played them: docs/results/gomoku.md).
RAPFI (environment): the pbrain engine, default /work/rapfi/pbrain-rapfi (scripts/rapfi.sh).

Steps (the suite file's format: src/suite.rs):
1. Candidates: the positions of the last N plies (default 16) of every game won by five in a
   row, each once (by its stones), the game not over and no five to make at once; at most MAX
   of them (default 1000), drawn at random with seed 1 when there are more.
2. boardbot's provers on each (`boardbot suite --probe`, PROOF_NODES nodes each): a VCF and a
   VCT (df-pn) of the side to move and of the opponent (as if it were to move), and the value
   by df-pn over the whole tree.
3. Rapfi (pbrain BOARD, RAPFI_MS to think, 1 thread, 64 MB hash, classical evaluation) on each:
   its move and its evaluation; `+M` (it announces a forced win for the side to move), `-M`
   (a forced loss) or a number.
4. The labels:
   - win: Rapfi announces +M, and boardbot does not disprove it (its value by df-pn over the
     whole tree is not 0 or -1). The class: `vcf` (boardbot proves a VCF), `vct` (it proves a
     VCT, no VCF), else `quiet` if Rapfi's move makes neither a four nor a three (a window of
     five free of enemy stones brought to three or four stones), else `deep`. The answers: Rapfi's
     move, the first moves of boardbot's VCF and VCT proofs, and every near cell making a four or
     a three after which df-pn over the whole tree proves the opponent lost (MOVE_NODES nodes).
     Dropped when the checks disagree: boardbot proves a win (VCF, VCT, value 1) and Rapfi does
     not announce one, or boardbot proves the position not won.
   - defend: the opponent has a VCT proved by boardbot (as if it were to move), the side to
     move has none, and Rapfi does not announce a result (neither +M nor -M). The class: `vcf`
     or `vct`, the opponent's threat. Every empty cell is a candidate: those after which
     boardbot proves a VCF or VCT for the opponent (MOVE_NODES nodes) are refuted; each one left
     is played and given to Rapfi (CHECK_MS, the opponent to move): refuted if it announces +M.
     The answers are the cells left. Dropped when the checks disagree (no cell left, or Rapfi's
     own move at step 3 refuted); not used when more than MAX_DEFENCES + 6 cells are left by
     the proofs (too many Rapfi checks) or more than MAX_DEFENCES by the checks (not "only"
     defences), or when the opponent has a four (one forced block).
   Everything else (Rapfi announces -M, no threat either way, ...) is not used.
The counts of each step, the dropped positions and why, go to stderr and to OUT's header.
"""
import os
import random
import re
import subprocess
import sys
import tempfile
import time

SIZE = 15
MAX_DEFENCES = 6


def args():
    a = sys.argv[1:]
    opts = {"--plies": 16, "--max": 1000, "--defend-only": 0, "--exclude": "", "--rapfi-ms": 1000, "--check-ms": 500, "--proof-nodes": 50000, "--move-nodes": 10000}
    pos = []
    i = 0
    while i < len(a):
        if a[i] in opts:
            opts[a[i]] = a[i + 1] if a[i] == "--exclude" else int(a[i + 1])
            i += 2
        else:
            pos.append(a[i])
            i += 1
    if len(pos) < 3:
        sys.exit(__doc__)
    return pos[0], pos[1], pos[2:], opts


def log(*m):
    print(*m, file=sys.stderr, flush=True)


def cell(t):
    r, c = t.split(",")
    return int(r), int(c)


def text(c):
    return f"{c[0]},{c[1]}"


def five_at_once(moves):
    """Whether the side to move after `moves` has a five to make at once (a win in one)."""
    board = {}
    for i, m in enumerate(moves):
        board[m] = i % 2
    me = len(moves) % 2
    for r in range(SIZE):
        for c in range(SIZE):
            if (r, c) in board:
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                n = 1
                for s in (1, -1):
                    rr, cc = r + s * dr, c + s * dc
                    while board.get((rr, cc)) == me:
                        n += 1
                        rr, cc = rr + s * dr, cc + s * dc
                if n >= 5:
                    return True
    return False


def candidates(logs, plies, exclude):
    seen = set()
    if exclude:
        for line in open(exclude):
            if line.strip() and not line.startswith("#"):
                pos = [cell(m) for m in line.split("|")[3].split()]
                seen.add((frozenset(pos[0::2]), frozenset(pos[1::2])))
    out = []
    for path in logs:
        for line in open(path):
            if line.startswith("#") or not line.strip():
                continue
            f = line.rstrip("\n").split("\t")
            if len(f) < 7 or f[5] != "win":
                continue
            moves = [cell(m) for m in f[6].split()]
            game = f"{os.path.basename(path)}#{f[0]}"
            for p in range(max(5, len(moves) - plies), len(moves)):
                pos = moves[:p]
                key = (frozenset(pos[0::2]), frozenset(pos[1::2]))
                if key in seen or five_at_once(pos):
                    continue
                seen.add(key)
                out.append((pos, f"{game} ply {p}"))
    return out


def probe(bb, positions, proof_nodes, move_nodes, moves):
    cmd = [bb, "suite", "--probe", "--proof-nodes", str(proof_nodes), "--move-nodes", str(move_nodes)]
    if moves:
        cmd.append("--moves")
    inp = "".join(" ".join(text(m) for m in p) + "\n" for p in positions)
    r = subprocess.run(cmd, input=inp, capture_output=True, text=True, check=True)
    out = []
    for line in r.stdout.splitlines():
        d = {}
        key = None
        for w in line.split():
            if "=" in w:
                key, v = w.split("=", 1)
                d[key] = [v] if v else []
            elif key:
                d[key].append(w)
        out.append(d)
    if len(out) != len(positions):
        sys.exit(f"probe gave {len(out)} lines for {len(positions)} positions: {r.stderr}")
    return out


class Rapfi:
    def __init__(self, exe):
        self.dir = tempfile.mkdtemp()
        self.p = subprocess.Popen([exe], cwd=self.dir, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("START 15")
        self.read()

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def read(self):
        evals = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("rapfi ended")
            line = line.strip()
            if line.startswith("MESSAGE") or line.startswith("DEBUG"):
                m = re.search(r"Eval (\S+)", line)
                if m:
                    evals.append(m.group(1))
                continue
            if line.startswith("ERROR") or line.startswith("UNKNOWN"):
                sys.exit("rapfi: " + line)
            return line, (evals[-1] if evals else None)

    def think(self, moves, ms):
        """Rapfi's move (row, col) and evaluation for the side to move after `moves`."""
        self.send(f"INFO timeout_turn {ms + 100}")
        self.send("INFO timeout_match 0")
        self.send("BOARD")
        me = len(moves) % 2
        for i, (r, c) in enumerate(moves):
            self.send(f"{c},{r},{1 if i % 2 == me else 2}")
        self.send("DONE")
        reply, ev = self.read()
        x, y = map(int, reply.split(","))
        return (y, x), ev


def mate(ev):
    if ev and ev.startswith("+M"):
        return 1
    if ev and ev.startswith("-M"):
        return -1
    return 0


def main():
    bb, out_path, logs, o = args()
    rapfi_exe = os.environ.get("RAPFI", "/work/rapfi/pbrain-rapfi")
    start = time.time()
    load = open("/proc/loadavg").read().split()[0]
    cands = candidates(logs, o["--plies"], o["--exclude"])
    if len(cands) > o["--max"]:
        random.seed(1)
        cands = random.sample(cands, o["--max"])
    log(f"{len(cands)} candidate positions from {len(logs)} logs")
    facts = probe(bb, [p for p, _ in cands], o["--proof-nodes"], o["--move-nodes"], False)
    log(f"probed ({time.time() - start:.0f} s)")
    rapfi = Rapfi(rapfi_exe)
    counts = {}

    def count(k):
        counts[k] = counts.get(k, 0) + 1

    wins, defends = [], []
    for (pos, src), f in zip(cands, facts):
        mv, ev = rapfi.think(pos, o["--rapfi-ms"])
        m = mate(ev)
        vcf = f["vcf"][0] != "none"
        vct = f["vct"][0].startswith("proved")
        value = f["value"][0]
        proved_win = vcf or vct or value == "1"
        if o["--defend-only"] and (m != 0 or proved_win):
            count("unused: not a defence (--defend-only)")
            continue
        if m == 1:
            if value in ("0", "-1"):
                count("dropped: Rapfi +M, df-pn proves no win")
                continue
            wins.append((pos, src, f, mv, ev))
        elif proved_win:
            count("dropped: boardbot proves a win, Rapfi announces none")
        elif m == 0 and f["ovct"][0].startswith("proved"):
            defends.append((pos, src, f, mv, ev))
        else:
            count("unused: Rapfi -M" if m == -1 else "unused: no forced win either way")
    log(f"rapfi done ({time.time() - start:.0f} s): {len(wins)} win and {len(defends)} defend candidates")

    lines = []
    # Wins: the answers.
    wf = probe(bb, [w[0] for w in wins], o["--proof-nodes"], o["--move-nodes"], True)
    for (pos, src, f, mv, ev), g in zip(wins, wf):
        kinds = dict(k.split(":") for k in g.get("kind", []))
        answers = {text(mv)}
        for key in ("vcf", "vct"):
            v = f[key][0]
            if "/" in v:
                answers.add(v.split(":")[-1].split("/")[0])
        answers.update(g.get("wins", []))
        if f["vcf"][0] != "none":
            cls = "vcf"
        elif f["vct"][0].startswith("proved"):
            cls = "vct"
        elif kinds.get(text(mv), "quiet") == "quiet":
            cls = "quiet"
        else:
            cls = "deep"
        checks = [f"rapfi {o['--rapfi-ms']}ms {ev}"]
        if f["vcf"][0] != "none":
            checks.append("vcf proved")
        if f["vct"][0].startswith("proved"):
            checks.append("vct proved")
        checks.append({"1": "df-pn value 1", "?": "df-pn unknown"}.get(f["value"][0], "df-pn " + f["value"][0]))
        side = "x" if len(pos) % 2 == 0 else "o"
        lines.append(("win", cls, side, pos, sorted(answers), f"{src}; " + ", ".join(checks)))
        count(f"win {cls}")
    # Defences: every move checked.
    df = probe(bb, [d[0] for d in defends], o["--proof-nodes"], o["--move-nodes"], True)
    for (pos, src, f, mv, ev), g in zip(defends, df):
        alive = [cell(c) for c in g.get("alive", [])]
        if f["ovcf"][0] != "none" and f["ovcf"][0].endswith("/1"):
            count("unused: the opponent has a four (one forced block)")
            continue
        if not alive:
            count("dropped: every move refuted by a proof, Rapfi announces no loss")
            continue
        if len(alive) > MAX_DEFENCES + 6:
            count("unused: too many moves left by the proofs")
            continue
        left = []
        for c in alive:
            _, ev2 = rapfi.think(pos + [c], o["--check-ms"])
            if mate(ev2) != 1:
                left.append(c)
        if not left:
            count("dropped: every move refuted, Rapfi announces no loss")
            continue
        if mv not in left:
            count("dropped: Rapfi's own move refuted")
            continue
        if len(left) > MAX_DEFENCES:
            count(f"unused: more than {MAX_DEFENCES} defences")
            continue
        cls = "vcf" if f["ovcf"][0] != "none" else "vct"
        side = "x" if len(pos) % 2 == 0 else "o"
        note = (f"{src}; rapfi {o['--rapfi-ms']}ms {ev}; {len(alive)} moves not refuted by a threat proof "
                f"({o['--move-nodes']} nodes), {len(alive) - len(left)} more by rapfi {o['--check-ms']}ms +M")
        lines.append(("defend", cls, side, pos, sorted(text(c) for c in left), note))
        count(f"defend {cls}")
    rapfi.send("END")
    elapsed = time.time() - start
    with open(out_path, "w") as w:
        w.write("# Won and defended positions of free-style gomoku, 15x15, five or more in a row wins.\n")
        w.write("# Format: src/suite.rs (LABEL | CLASS | TO_MOVE | MOVES | ANSWERS | NOTE); made by\n")
        w.write(f"# scripts/gomoku-suite.py {' '.join(os.path.basename(l) for l in logs)} "
                f"--plies {o['--plies']} --max {o['--max']} --rapfi-ms {o['--rapfi-ms']} --check-ms {o['--check-ms']} "
                f"--proof-nodes {o['--proof-nodes']} --move-nodes {o['--move-nodes']}"
                + (f" --defend-only 1 --exclude {os.path.basename(o['--exclude'])}" if o["--defend-only"] else "") + "\n")
        w.write(f"# in {elapsed:.0f} s, load average {load} at the start. Counts:\n")
        for k in sorted(counts):
            w.write(f"#   {k}: {counts[k]}\n")
        for label, cls, side, pos, ans, note in lines:
            w.write(f"{label} | {cls} | {side} | {' '.join(text(m) for m in pos)} | {' '.join(ans)} | {note}\n")
    for k in sorted(counts):
        log(f"{k}: {counts[k]}")
    log(f"wrote {len(lines)} positions to {out_path} in {elapsed:.0f} s")


if __name__ == "__main__":
    main()
