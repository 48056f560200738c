#!/usr/bin/env bash
# boardbot inside the real Manchester Kalah referee (tests/data/kalah/ManKalah.jar) against the
# agents of github:crisbodnar/KalahAI (commit 93bdec9), in both seats: one game each way per agent.
# The results table of docs/results/kalah.md.
#
# usage: scripts/kalah-referee.sh CLOCK AGENTS_DIR [AGENT ...]
#   CLOCK: boardbot's thinking time for the whole game, in seconds (the referee's own limit is
#          an hour for each agent);
#   AGENTS_DIR: a folder with the repository's agents (test_agents/*.jar and Group1.jar; not part
#          of this repository: `git archive` the fetched repository into it); MKRefAgent.jar is
#          taken from tests/data/kalah when not there;
#   AGENT: jar names without .jar (default: MKRefAgent JimmyPlayer Group2Agent error404 Group1).
# Environment: BOARDBOT_BIN (default target/release/boardbot), HASH (MiB, default 1024), OUT (the
# folder of the games' logs, default target/kalah-referee), JOBS (games at a time, default 1).
# Each game's referee output and boardbot's log (RUST_LOG=info) are kept in OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
clock=${1:?usage: scripts/kalah-referee.sh CLOCK AGENTS_DIR [AGENT ...]}
agents_dir=$(cd "${2:?usage: scripts/kalah-referee.sh CLOCK AGENTS_DIR [AGENT ...]}" && pwd)
shift 2
agents=("$@")
[ ${#agents[@]} -gt 0 ] || agents=(MKRefAgent JimmyPlayer Group2Agent error404 Group1)
bin=$(realpath "${BOARDBOT_BIN:-target/release/boardbot}")
out=${OUT:-target/kalah-referee}
mkdir -p "$out"
out=$(realpath "$out")
jobs=${JOBS:-1}
referee=$(realpath tests/data/kalah/ManKalah.jar)

# game AGENT SEAT: one game, boardbot in SEAT (South or North); prints its result line.
game() {
    local agent=$1 seat=$2 jar
    jar="$agents_dir/$agent.jar"
    [ -f "$jar" ] || jar=$(realpath "tests/data/kalah/$agent.jar")
    local name="$agent-$seat-$clock"
    local bot="$bin --protocol mkagent --clock $clock --hash ${HASH:-1024} --log $out/$name.log"
    local other="java -jar $jar"
    local start=$SECONDS
    if [ "$seat" = South ]; then
        RUST_LOG=info java -jar "$referee" "$bot" "$other" >"$out/$name.out" 2>"$out/$name.err" || true
    else
        RUST_LOG=info java -jar "$referee" "$other" "$bot" >"$out/$name.out" 2>"$out/$name.err" || true
    fi
    # The last board: North's store first on its top line, South's store last on its bottom line.
    local stores north south ours theirs verdict used errors
    stores=$(grep -B3 -E '^(WINNER|DRAW)' "$out/$name.err" | grep -- '--' | tr -s ' ' | head -2 | tr '\n' ' ' || true)
    north=$(awk '{print $1}' <<<"$stores")
    south=$(awk '{print $NF}' <<<"$stores")
    # Seats at the end: after a swap, the agent that started South sits North.
    local swapped=no
    grep -q '^Move: Swap' "$out/$name.err" && swapped=yes
    local our_seat=$seat
    if [ $swapped = yes ]; then
        if [ "$seat" = South ]; then our_seat=North; else our_seat=South; fi
    fi
    if [ "$our_seat" = South ]; then ours=$south theirs=$north; else ours=$north theirs=$south; fi
    errors=$(grep -E '^Error|ABORTED' "$out/$name.err" | tr '\n' ' ' || true)
    if [ -n "$errors" ]; then
        verdict="error: $errors"
    elif [ -z "$ours" ]; then
        verdict="no result"
    elif [ "$ours" -gt "$theirs" ]; then
        verdict="won $ours-$theirs"
    elif [ "$ours" -lt "$theirs" ]; then
        verdict="lost $ours-$theirs"
    else
        verdict="drew $ours-$theirs"
    fi
    used=$(grep -o 'thinking time used: [0-9.]* s' "$out/$name.log" | grep -o '[0-9.]*' | head -1 || true)
    local theirs_ms
    theirs_ms=$(grep -F "(java -jar $jar)" "$out/$name.err" | grep -o '[0-9]* milliseconds per move' | head -1 || true)
    printf '| %s | %s | %s | %s | swap: %s | %s s | %s | %s s |\n' "$agent" "$seat" "$clock" "$verdict" \
        "$swapped" "${used:-?}" "${theirs_ms:-?}" "$((SECONDS - start))"
}

uptime
echo "| opponent | boardbot's seat | clock (s) | result (boardbot first) | swap | boardbot's thinking | opponent's time a move | wall |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
running=0
for agent in "${agents[@]}"; do
    for seat in South North; do
        game "$agent" "$seat" &
        running=$((running + 1))
        if [ $running -ge "$jobs" ]; then
            wait -n
            running=$((running - 1))
        fi
    done
done
wait
uptime
