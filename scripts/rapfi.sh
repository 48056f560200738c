#!/usr/bin/env bash
# Builds the gomoku engine Rapfi (https://github.com/dhbloo/rapfi, GPL-3.0; not part of this
# repository) as an opponent for boardbot's free-style gomoku matches (issue 33), which talk to
# it over the Gomocup (pbrain) protocol:
#  1. configures and builds Rapfi in Release with cmake, single-threaded (NO_MULTI_THREADING:
#     the multi-threaded build has a race that forfeits games) and without the command modules
#     (bench, selfplay, tuning, ...; this also makes a static executable). SIMD options
#     (USE_SSE/USE_AVX2/USE_AVX512/USE_BMI2/USE_VNNI) are left to Rapfi's own detection of the
#     host (so the binary may not run on an older CPU); they matter for the NNUE, which is not
#     used, and BMI2 only speeds up the pattern lookup (same results). Rapfi has no NO_NNUE: the
#     NNUE code is built but needs weight files, which are only in the Networks submodule, so
#     the git submodules (Networks, Trainer, Gomocalc) are not needed: everything the build
#     uses is under Rapfi/ (external/ libraries included), and no network access is needed;
#  2. installs the executable as OUT/pbrain-rapfi and writes OUT/config.toml beside it: one
#     thread, a 64 MB hash, 100 ms of each turn reserved for the communication, brief MESSAGE
#     lines, and Rapfi's built-in classical evaluation (the [model] pattern tables of
#     Rapfi/internalConfig.cpp, copied at build time from the source given; no [model.evaluator]
#     section, so no neural network). Rapfi would also run without any config.toml, on that same
#     built-in config, but with a 16 MB hash and 30 ms reserved per turn;
#  3. checks the engine with a short pbrain session (ABOUT, START 15, INFO, BEGIN, a few TURNs,
#     then a middle-game position given by BOARD), run from an empty working directory, and
#     prints Rapfi's MESSAGE lines (depth, nodes, speed) and its replies.
#
# How Rapfi finds config.toml (Rapfi/command/command.cpp, loadConfig): first ./config.toml in
# its working directory, then config.toml in the directory of its argv[0]; with neither it
# uses the built-in config silently. So give it by a path with a slash (as in
# `pbrain:/path/to/pbrain-rapfi`; boardbot passes that path as argv[0]) and do not run it
# from a directory holding some other config.toml, which would win. The config it loaded is
# named in its first line, `MESSAGE Load config from ...`. A manager's `INFO max_memory`
# (boardbot sends none) would replace the hash size of config.toml.
#
# Where the project looks for it: the built engine is kept outside the repository, by
# convention in /work/rapfi (`scripts/rapfi.sh /work/rapfi/src /work/rapfi`, the source a clone of
# github.com/dhbloo/rapfi in /work/rapfi/src), so /work/rapfi/pbrain-rapfi with its config.toml.
# scripts/rapfi-bench.sh takes its path as an argument; scripts/rapfi-suite.sh and
# scripts/gomoku-suite.py take it from RAPFI (default /work/rapfi/pbrain-rapfi); the matches of
# docs/results/gomoku.md name it as `pbrain:/work/rapfi/pbrain-rapfi`. Built so on 2026-11-28
# (Rapfi 3aedf3a, cmake 3.25.1 and g++ of Debian 12 from apt-get; RAPFI_JOBS=2: 111 s).
#
# Usage: scripts/rapfi.sh RAPFI_SRC OUT
#   RAPFI_SRC  a checkout of the Rapfi repository (the folder holding Rapfi/CMakeLists.txt),
#              e.g. git clone https://github.com/dhbloo/rapfi; no submodules needed
#   OUT        the folder for pbrain-rapfi and config.toml (created; the build is in OUT/build)
# Environment:
#   RAPFI_JOBS=1        parallel compile jobs (the compile runs under nice -n 10)
#   RAPFI_CMAKE_ARGS=   more cmake options, e.g. "-DUSE_AVX512=OFF" for a portable binary
#   RAPFI_CHECK=1       0 skips the pbrain session (step 3)
# Then, e.g.:
#   boardbot match --game mnk 15 15 5 --engine2 'pbrain:OUT/pbrain-rapfi' --rounds 1 --timeout 1
set -euo pipefail

usage() {
    sed -n '/^# Usage:/,/^#   boardbot match/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
die() {
    echo "rapfi.sh: $*" >&2
    exit 1
}

[[ $# -eq 2 ]] || usage
[[ -d $1 ]] || die "no Rapfi source folder '$1'"
SRC=$(cd "$1" && pwd)
mkdir -p "$2"
OUT=$(cd "$2" && pwd)
JOBS=${RAPFI_JOBS:-1}
CHECK=${RAPFI_CHECK:-1}
read -r -a EXTRA_CMAKE_ARGS <<<"${RAPFI_CMAKE_ARGS:-}"

# The CMake project is Rapfi/CMakeLists.txt of the repository (or the folder itself if given
# the Rapfi/ subfolder).
if [[ -f $SRC/Rapfi/CMakeLists.txt ]]; then
    PROJECT=$SRC/Rapfi
elif [[ -f $SRC/CMakeLists.txt && -f $SRC/internalConfig.cpp ]]; then
    PROJECT=$SRC
else
    die "'$SRC' holds no Rapfi/CMakeLists.txt"
fi
INTERNAL_CONFIG=$PROJECT/internalConfig.cpp
[[ -f $INTERNAL_CONFIG ]] || die "no $INTERNAL_CONFIG (the built-in config)"
command -v cmake >/dev/null || die "cmake is not installed (Debian: apt-get install cmake)"
command -v c++ >/dev/null || command -v g++ >/dev/null || command -v clang++ >/dev/null ||
    die "no C++ compiler"

REVISION=$(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo unknown)
BUILD=$OUT/build
EXE=$OUT/pbrain-rapfi
CONFIG=$OUT/config.toml

# ---- 1. build ---------------------------------------------------------------------------
echo "== building Rapfi $REVISION from $PROJECT in $BUILD (-j$JOBS)"
start=$SECONDS
nice -n 10 cmake -S "$PROJECT" -B "$BUILD" \
    -DCMAKE_BUILD_TYPE=Release -DNO_COMMAND_MODULES=ON -DNO_MULTI_THREADING=ON \
    ${EXTRA_CMAKE_ARGS[@]+"${EXTRA_CMAKE_ARGS[@]}"}
nice -n 10 cmake --build "$BUILD" -j "$JOBS"
echo "== build took $((SECONDS - start)) s"
[[ -x $BUILD/pbrain-rapfi ]] || die "the build made no $BUILD/pbrain-rapfi"

# ---- 2. install the executable and write config.toml ------------------------------------
install -m 755 "$BUILD/pbrain-rapfi" "$EXE"

# The built-in config is the raw string literal R"internalConfig( ... )internalConfig" of
# internalConfig.cpp; its [model] tables are the classical evaluation.
builtin=$(awk '/\)internalConfig"/ { inside = 0 } inside { print } /R"internalConfig\(/ { inside = 1 }' \
    "$INTERNAL_CONFIG")
grep -q '^\[model' <<<"$builtin" || die "found no [model] tables in $INTERNAL_CONFIG"
if grep -Eq '^\[(general|search)[].]' <<<"$builtin"; then
    die "the built-in config has its own [general] or [search] tables; merge them by hand"
fi
if grep -q '^\[model\.evaluator' <<<"$builtin"; then
    die "the built-in config sets a neural evaluator ([model.evaluator]); not the classical one"
fi

cat >"$CONFIG" <<EOF
# Rapfi config written by boardbot scripts/rapfi.sh on $(date -u +%Y-%m-%d) for Rapfi $REVISION.
# Rapfi reads ./config.toml of its working directory if there is one, else this file (the one
# beside the executable). Classical evaluation only (no [model.evaluator], so no network).

[general]
default_thread_num = 1          # one search thread (the build is single-threaded anyway)
default_tt_size_kb = 65536      # 64 MB hash (INFO max_memory from a manager would override it)
message_mode = "brief"          # one MESSAGE line a move: speed, depth, eval, nodes, time
reload_config_each_move = false
clear_hash_after_config_loaded = true

[search]
default_searcher = "alphabeta"

[search.timectl]
turn_time_reserved = 100        # ms of each turn kept for the communication with the manager

# ---- Rapfi's built-in config, from Rapfi/internalConfig.cpp: the classical evaluation ----
$builtin
EOF
echo "== wrote $EXE and $CONFIG"

[[ $CHECK == 0 ]] && exit 0

# ---- 3. a pbrain session ----------------------------------------------------------------
RUNDIR=$(mktemp -d)
ENGINE_PID=
cleanup() {
    if [[ -n $ENGINE_PID ]]; then kill "$ENGINE_PID" 2>/dev/null || true; fi
    rm -rf "$RUNDIR"
}
trap cleanup EXIT
# Started from an empty directory by its absolute path, as boardbot starts it: Rapfi must find
# config.toml beside the executable.
coproc RAPFI { cd "$RUNDIR" && exec "$EXE" 2>&1; }
ENGINE_PID=$RAPFI_PID
IN=${RAPFI[1]}
OUTFD=${RAPFI[0]}
CONFIG_SEEN=

send() {
    echo ">> $*"
    echo "$*" >&"$IN"
}

# Reads lines up to the next reply (any line but MESSAGE/DEBUG) into REPLY_LINE, printing the
# MESSAGE lines; fails on an ERROR or UNKNOWN line, or after $1 seconds without a reply.
reply() {
    local line
    while IFS= read -r -t "$1" line <&"$OUTFD"; do
        line=${line%$'\r'}
        case $line in
            "MESSAGE Load config from "*)
                CONFIG_SEEN=${line#MESSAGE Load config from }
                echo "   $line"
                ;;
            MESSAGE* | DEBUG*) echo "   $line" ;;
            ERROR* | UNKNOWN*) die "engine: $line" ;;
            *)
                REPLY_LINE=$line
                return 0
                ;;
        esac
    done
    die "no reply within $1 s"
}

now_ms() { date +%s%3N; }

declare -A TAKEN=()
SIZE=15

# Sends a move request ($@) and reads the engine's move, checking that it is a free cell.
move() {
    local t0 t1 x y
    send "$@"
    t0=$(now_ms)
    reply 10
    t1=$(now_ms)
    [[ $REPLY_LINE =~ ^([0-9]+),([0-9]+)$ ]] || die "expected a move x,y, got '$REPLY_LINE'"
    x=${BASH_REMATCH[1]}
    y=${BASH_REMATCH[2]}
    ((x < SIZE && y < SIZE)) || die "move $REPLY_LINE is off the board"
    [[ -z ${TAKEN[$x,$y]:-} ]] || die "move $REPLY_LINE is on an occupied cell"
    TAKEN[$x,$y]=1
    echo "<< $REPLY_LINE   ($((t1 - t0)) ms)"
}

# Our (the opponent's) move: the first free cell of a fixed list around the centre.
OPPONENT_MOVES=(8,8 6,8 8,6 6,6 7,8 8,7 6,7 7,6 9,9 5,5 9,5 5,9)
opponent() {
    local c
    for c in "${OPPONENT_MOVES[@]}"; do
        if [[ -z ${TAKEN[$c]:-} ]]; then
            TAKEN[$c]=1
            OPP=$c
            return 0
        fi
    done
    die "no free cell left in the opponent's list"
}

rss() { awk '/^VmRSS/ { print $2 / 1024 " MB" }' "/proc/$ENGINE_PID/status" 2>/dev/null || true; }

echo "== pbrain session with $EXE (working directory $RUNDIR)"
send ABOUT
reply 10
echo "<< $REPLY_LINE"
[[ $REPLY_LINE == *SINGLE_THREAD* ]] || die "the engine is not the single-threaded build"
[[ $CONFIG_SEEN == "$CONFIG" ]] ||
    die "the engine did not load $CONFIG (loaded: '${CONFIG_SEEN:-the built-in config}')"
send "START $SIZE"
reply 10
[[ $REPLY_LINE == OK ]] || die "expected OK to START, got '$REPLY_LINE'"
echo "<< OK   (resident memory $(rss), the hash included)"
send "INFO timeout_turn 1000"
send "INFO timeout_match 100000000"
send "INFO time_left 100000000"
send "INFO rule 0"
move BEGIN
for _ in 1 2 3 4; do
    opponent
    move TURN "$OPP"
done

# A middle-game position (11 stones of a game of Rapfi against itself; the engine's stones 1,
# the opponent's 2, in the order played; the engine, second player, to move, not yet lost):
# one second of search, whose MESSAGE lines show the depth, nodes and speed reached.
echo "== middle-game position, 1 s"
send "START $SIZE"
reply 10
[[ $REPLY_LINE == OK ]] || die "expected OK to START, got '$REPLY_LINE'"
echo "<< OK"
TAKEN=()
POSITION=(7,7,2 7,6,1 7,5,2 6,6,1 8,6,2 9,5,1 6,4,2 5,3,1 5,6,2 9,7,1 4,7,2)
send BOARD
for s in "${POSITION[@]}"; do
    send "$s"
    TAKEN[${s%,*}]=1
done
move DONE

send END
for _ in $(seq 50); do
    kill -0 "$ENGINE_PID" 2>/dev/null || break
    sleep 0.1
done
if kill -0 "$ENGINE_PID" 2>/dev/null; then
    kill "$ENGINE_PID"
    die "the engine did not exit after END"
fi
echo "== ok: $EXE works (config $CONFIG)"
