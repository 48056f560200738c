#!/usr/bin/env bash
# Compiles the Java bridges (scripts/java/boardbot/) against the stand-in course referees
# (scripts/java/standins/) and plays the bridges there against trivial players: mnk 7x7x5 and
# Connect-4 (cx 6x7x4), both colours, with the release binary as the engine.
#
# usage: scripts/java/build-and-play.sh [TIMEOUT]     (seconds per move, default 1)
set -euo pipefail
cd "$(dirname "$0")/../.."
TIMEOUT=${1:-1}
[ -x target/release/boardbot ] || cargo build --release
command -v javac >/dev/null || { echo "javac not found: install a JDK (17 or later)" >&2; exit 1; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
javac -d "$OUT" $(find scripts/java -name '*.java')
export BOARDBOT_CMD="$PWD/target/release/boardbot"
echo "== mnk 7 7 5: boardbot.MNKBridge vs mnkgame.FirstFreePlayer"
java -cp "$OUT" mnkgame.MNKReferee 7 7 5 boardbot.MNKBridge mnkgame.FirstFreePlayer -t "$TIMEOUT" -r 2
echo "== cx 6 7 4: boardbot.CXBridge vs connectx.FirstColumnPlayer"
java -cp "$OUT" connectx.CXReferee 6 7 4 boardbot.CXBridge connectx.FirstColumnPlayer -t "$TIMEOUT" -r 2
