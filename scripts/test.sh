#!/usr/bin/env bash
# The test command: installs what the tests need that cargo does not build, then runs every test
# with cargo-nextest (`cargo nextest run --cargo-profile fast-release --no-fail-fast`): each test
# in a process of its own, four at once across the test binaries, the longest first
# (.config/nextest.toml); the search tests need an optimised build, and the profile is the
# release one without whole-program optimisation, so that the test binaries build in minutes
# (docs/testing.md). Extra arguments go to nextest (`scripts/test.sh --test serve`,
# `scripts/test.sh -E 'test(browser_)'`). The library has no doc tests (nextest runs none).
#
# What the tests need besides the Rust toolchain, each made or checked here:
# - Debian's chromium (tests/serve.rs plays the page of `boardbot serve` in it, headless):
#   `apt-get install chromium`, if /usr/bin/chromium (or $BOARDBOT_CHROMIUM) is missing;
# - a JDK 17 or later, `javac` and `java` (tests/java_bridges.rs, tests/mkagent.rs):
#   `apt-get install default-jdk-headless`, if javac is missing;
# - cargo-nextest (`cargo nextest`): `cargo install cargo-nextest --locked`, if missing (minutes
#   of build; the Rust machines of this project have it);
# - a Python with dask.distributed (tests/shards.rs runs scripts/dask-shards-test.py): a venv
#   made once in the target folder, TARGET/daskenv (`apt-get install python3-venv` if venv is
#   missing), unless $BOARDBOT_PYTHON names one.
# apt-get runs as root, or through sudo. No test is skipped for a missing tool: it fails and says
# what to install.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '%s: %s (%s UTC)\n' "scripts/test.sh" "$*" "$(date -u +%T)" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
missing=()
[ -x "${BOARDBOT_CHROMIUM:-/usr/bin/chromium}" ] || missing+=(chromium)
command -v javac >/dev/null && command -v java >/dev/null || missing+=(default-jdk-headless)
if [ -z "${BOARDBOT_PYTHON:-}" ] && ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    missing+=(python3-venv)
fi
if [ ${#missing[@]} -gt 0 ]; then
    step "installing ${missing[*]} (apt-get)"
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi
if ! cargo nextest --version >/dev/null 2>&1; then
    step "installing cargo-nextest (cargo install)"
    cargo install cargo-nextest --locked
fi
[ -x "${BOARDBOT_CHROMIUM:-/usr/bin/chromium}" ] || { step "no chromium at ${BOARDBOT_CHROMIUM:-/usr/bin/chromium}"; exit 1; }
command -v javac >/dev/null && command -v java >/dev/null || { step "no javac and java on the PATH"; exit 1; }
if [ -z "${BOARDBOT_PYTHON:-}" ]; then
    venv=${CARGO_TARGET_DIR:-target}/daskenv
    if ! [ -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import dask.distributed' 2>/dev/null; then
        step "making the Python venv with dask.distributed in $venv"
        python3 -m venv "$venv"
        "$venv/bin/pip" install -q "dask[distributed]"
    fi
    BOARDBOT_PYTHON=$(cd "$venv" && pwd)/bin/python
    export BOARDBOT_PYTHON
fi
# No test needs the checkers 5-piece endgame database; without this a fresh checkout's first
# checkers engine would spend minutes of a core building it beside the other tests (the tests
# that check its build set their own environment).
export BOARDBOT_CHECKERS_PIECES=4
# --no-fail-fast: a failing test does not hide the results of the tests after it.
step "cargo nextest run --cargo-profile fast-release --no-fail-fast $*"
exec cargo nextest run --cargo-profile fast-release --no-fail-fast "$@"
