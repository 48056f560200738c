#!/usr/bin/env bash
# Rapfi on the gomoku position suite (issue 60): how many positions it solves at a time per
# position, counted as `boardbot suite` counts boardbot's (src/suite.rs): the move played is one
# of the position's answers, or, for a win, Rapfi's evaluation announces a forced win (+M).
#
# Each position goes to one Rapfi process over the pbrain protocol: `INFO timeout_turn MS+RESERVE`
# (Rapfi keeps RESERVE ms, `turn_time_reserved` of the config.toml of scripts/rapfi.sh, so it
# thinks MS), `BOARD` with the stones in the order played (x = column, y = row; 1 = the side
# to move's), `DONE`; the hash is cleared between positions (`YXHASHCLEAR`), as boardbot starts
# each with a fresh table.
#
# usage: scripts/rapfi-suite.sh SUITE [MS] [RESERVE] [--verbose]   (defaults 1000 and 100)
# RAPFI (environment): the engine, default /work/rapfi/pbrain-rapfi (built by scripts/rapfi.sh).
set -euo pipefail
SUITE=${1:?usage: scripts/rapfi-suite.sh SUITE [MS] [RESERVE] [--verbose]}
MS=${2:-1000}
RESERVE=${3:-100}
VERBOSE=${4:-}
RAPFI=${RAPFI:-/work/rapfi/pbrain-rapfi}
[[ -x $RAPFI ]] || { echo "rapfi-suite.sh: no engine $RAPFI (build it: scripts/rapfi.sh)" >&2; exit 1; }
[[ -f $SUITE ]] || { echo "rapfi-suite.sh: no suite file $SUITE" >&2; exit 1; }
SUITE=$(cd "$(dirname "$SUITE")" && pwd)/$(basename "$SUITE")
echo "uptime: $(uptime)"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# From an empty folder: Rapfi reads ./config.toml before the one beside its executable.
cd "$dir"
exec python3 - "$SUITE" "$MS" "$RESERVE" "$RAPFI" "$VERBOSE" <<'EOF'
import re, subprocess, sys
suite, ms, reserve, exe, verbose = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5] == "--verbose"
p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

def send(s):
    p.stdin.write(s + "\n")
    p.stdin.flush()

def read():
    ev = None
    while True:
        line = p.stdout.readline()
        if not line:
            sys.exit("rapfi ended")
        line = line.strip()
        if line.startswith(("MESSAGE", "DEBUG")):
            m = re.search(r"Eval (\S+)", line)
            if m:
                ev = m.group(1)
            continue
        if line.startswith(("ERROR", "UNKNOWN")):
            sys.exit("rapfi: " + line)
        return line, ev

send("START 15")
read()
send("INFO timeout_match 0")
send(f"INFO timeout_turn {ms + reserve}")
by_class, solved, by_move, by_eval, total = {}, 0, 0, 0, 0
for n, raw in enumerate(open(suite), 1):
    t = raw.strip()
    if not t or t.startswith("#"):
        continue
    label, cls, side, moves, answers, _ = [f.strip() for f in t.split("|")]
    moves = moves.split()
    send("YXHASHCLEAR")
    send("BOARD")
    me = len(moves) % 2
    for i, mv in enumerate(moves):
        r, c = mv.split(",")
        send(f"{c},{r},{1 if i % 2 == me else 2}")
    send("DONE")
    reply, ev = read()
    x, y = reply.split(",")
    played = f"{y},{x}"
    in_set = played in answers.split()
    won = label == "win" and ev is not None and ev.startswith("+M")
    ok = in_set or won
    key = f"{label} {cls}"
    a, b = by_class.get(key, (0, 0))
    by_class[key] = (a + ok, b + 1)
    solved += ok
    by_move += in_set
    by_eval += won and not in_set
    total += 1
    if verbose:
        print(f"line {n:>4} {label:<6} {cls:<6} played {played:<6} eval {ev} {'solved' if ok else 'missed'}")
send("END")
for k in sorted(by_class):
    print(f"{k:<14} solved {by_class[k][0]:>4} of {by_class[k][1]:>4}")
print(f"solved {solved} of {total} ({by_move} by a move of the answers, {by_eval} more by +M), {ms} ms a position")
EOF
