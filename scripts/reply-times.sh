#!/usr/bin/env bash
# The worst reply as a share of the time per move, for each game family, at several budgets,
# idle and beside two CPU hogs (docs/results/stalls.md, issue 39).
#
# The engine plays both sides with `go` (one process per game family and budget); each reply is
# timed from the write of `go` to the read of the reply line, as a referee would time it. A game
# that ends is started again. Two busy loops (`yes > /dev/null`) load both cores for the second
# half; they are started and ended by this script (by their process ids).
#
# usage: scripts/reply-times.sh [BIN]          (default: target/release/boardbot, built first)
# environment: BUDGETS (seconds, default "0.1 0.2 1"), REPLIES (per game and budget at 0.1 s;
# fewer at longer budgets, at least 8; default 60), LOAD ("idle hogs", or one of them),
# GAMES (";"-separated, default "mnk 15 15 5;cx 6 7 4;kalah 6 4;checkers english").
# Output: a Markdown table on stdout, `uptime` before and after each half.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-}
if [ -z "$BIN" ]; then
    cargo build --release -q
    BIN=target/release/boardbot
fi
BUDGETS=${BUDGETS:-"0.1 0.2 1"}
REPLIES=${REPLIES:-60}
LOAD=${LOAD:-"idle hogs"}
GAMES=${GAMES:-"mnk 15 15 5;cx 6 7 4;kalah 6 4;checkers english"}

hogs=()
stop_hogs() {
    for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
    hogs=()
}
trap stop_hogs EXIT

echo "| load | game | budget (s) | replies | median (ms) | worst (ms) | worst / budget |"
echo "|---|---|---|---|---|---|---|"
for load in $LOAD; do
    if [ "$load" = hogs ]; then
        for _ in 1 2; do
            yes > /dev/null &
            hogs+=($!)
        done
    fi
    echo "uptime before '$load': $(uptime)" >&2
    BIN="$BIN" BUDGETS="$BUDGETS" REPLIES="$REPLIES" GAMES="$GAMES" LOADNAME="$load" python3 - <<'EOF'
import os, subprocess, time, statistics

bin_, load = os.environ["BIN"], os.environ["LOADNAME"]
budgets = [float(b) for b in os.environ["BUDGETS"].split()]
replies = int(os.environ["REPLIES"])
games = [g.strip() for g in os.environ["GAMES"].split(";") if g.strip()]

for game in games:
    for budget in budgets:
        n = max(8, int(replies * 0.1 / budget))
        p = subprocess.Popen([bin_], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        def ask(line):
            p.stdin.write(line + "\n")
            p.stdin.flush()
            return p.stdout.readline().strip()
        assert ask("name").startswith("name")
        assert ask(f"init {game} true {budget}") == "ok"
        times = []
        while len(times) < n:
            t = time.monotonic()
            r = ask("go")
            d = time.monotonic() - t
            if r.startswith("error"):
                assert "over" in r, r
                assert ask(f"init {game} true {budget}") == "ok"
                continue
            times.append(d)
        p.stdin.close()
        p.wait(timeout=60)
        worst = max(times)
        print(f"| {load} | {game} | {budget} | {len(times)} | {statistics.median(times) * 1000:.1f} | "
              f"{worst * 1000:.1f} | {worst / budget:.3f} |", flush=True)
EOF
    echo "uptime after '$load': $(uptime)" >&2
    stop_hogs
done
