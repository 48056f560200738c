#!/usr/bin/env bash
# A newcomer's first hour, replayed: clones the repository (its committed HEAD) into a fresh
# folder and runs the README's two commands there as a bare machine would, timing each step:
#   1. `cargo run --release`, fed a few protocol lines on a pipe;
#   2. `scripts/test.sh` (installs what the tests need, then `cargo nextest run --cargo-profile
#      fast-release`).
# The machine's own state is kept out: an empty HOME (so no ~/.cache/boardbot), a fresh
# CARGO_HOME (cargo downloads every crate again; the toolchain comes from RUSTUP_HOME), a fresh
# target/ (no venv, no build), no BOARDBOT_* or CARGO_TARGET_DIR variables, and a PATH of the
# system's folders and cargo's only. Chromium and the JDK cannot be hidden where they are Debian
# packages in /usr/bin (tests/serve.rs also runs /usr/bin/chromium by its path): the report says
# whether they were there before scripts/test.sh ran.
#
# Usage: scripts/fresh-clone.sh [REPO [WORKDIR]]   (REPO: this checkout; WORKDIR: a new temp dir)
# Prints the report (also in WORKDIR/report.txt); the steps' whole output is in WORKDIR/*.log.
set -uo pipefail
repo=${1:-$(cd "$(dirname "$0")/.." && pwd)}
work=${2:-$(mktemp -d /tmp/boardbot-fresh.XXXXXX)}
mkdir -p "$work/home"
report=$work/report.txt
say() { printf '%s\n' "$*" | tee -a "$report"; }
cargo_bin=$(dirname "$(command -v cargo)")
rustup_home=${RUSTUP_HOME:-$HOME/.rustup}
# Only what a bare machine has, plus the machine's package-index settings (pip's certificate
# and mirror settings, proxies), which are not the user's state.
keep=()
while IFS='=' read -r name _; do
    case $name in PIP_* | http_proxy | https_proxy | HTTP_PROXY | HTTPS_PROXY | no_proxy | NO_PROXY) keep+=("$name=${!name}") ;; esac
done < <(env)
bare() {
    env -i HOME="$work/home" USER="${USER:-root}" LANG=C.UTF-8 TERM=dumb \
        PATH="$cargo_bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
        RUSTUP_HOME="$rustup_home" CARGO_HOME="$work/home/.cargo" "${keep[@]}" "$@"
}
# Runs step NAME (a bash line in the clone), timing it; its output goes to WORKDIR/NAME.log.
step() {
    local name=$1 line=$2 begin end rc
    begin=$(date +%s%N)
    (cd "$work/boardbot" && bare bash -c "$line") >"$work/$name.log" 2>&1
    rc=$?
    end=$(date +%s%N)
    local ms=$(((end - begin) / 1000000))
    say "$(printf '%-6s exit %3d  %5d.%01d s  %s' "$name" "$rc" $((ms / 1000)) $((ms % 1000 / 100)) "$line")"
    return $rc
}
say "fresh clone of $repo at $(git -C "$repo" rev-parse --short HEAD), in $work, $(date -u '+%F %T') UTC"
say "machine: $(nproc) cores; uptime: $(uptime)"
say "before: chromium $(command -v chromium || echo absent), javac $(command -v javac || echo absent), java $(command -v java || echo absent)"
say "toolchain: $(bare cargo --version 2>&1), $(bare rustc --version 2>&1)"
mkdir -p "$work/boardbot"
step clone "git clone -q '$repo' . && git log --oneline -1"
say "  cloned: $(cat "$work/clone.log")"
step run "printf 'init cx 6 7 4 false 1\nmove 3\nquit\n' | cargo run --release" && say "  protocol replies: $(grep -v '^ *\(Compiling\|Finished\|Running\|Downloaded\|Downloading\|Updating\|Locking\|Adding\)' "$work/run.log" | tr '\n' ' ')"
step test "scripts/test.sh"
say "  nextest: $(grep -E '^ *Summary \[' "$work/test.log" | tail -1 | sed 's/^ *//')"
say "  release build: $(grep -o 'Finished `release` profile.* in .*' "$work/run.log" | tail -1)"
say "  test build: $(grep -o 'Finished `fast-release` profile.* in .*' "$work/test.log" | tail -1)"
say "  test.sh's steps: $(grep '^scripts/test.sh: ' "$work/test.log" | tr '\n' ';')"
say "after: uptime: $(uptime); HOME holds: $(cd "$work/home" && ls -A | tr '\n' ' ')"
