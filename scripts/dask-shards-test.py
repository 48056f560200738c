#!/usr/bin/env python3
"""Tests scripts/dask-shards.py on a local Dask cluster of 2 workers (tests/shards.rs runs it).

1. A node-limited match in 6 shards, one worker killed (SIGKILL) while it plays a shard: the
   run completes, the killed shard is played again elsewhere, and the merged file holds every
   game of the match exactly once, the same games as the match played whole.
2. An SPRT in 20 shards: the driver stops the remaining shards once the merged LLR reaches a
   bound, and the verdict is the one `boardbot merge` gives on the shards merged.

    python3 scripts/dask-shards-test.py --binary target/release/boardbot [--workdir DIR]

Prints the figures (seconds, shards, games) and PASS lines; exits 1 on a failure.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
driver = __import__("dask-shards")

from dask.distributed import Client, LocalCluster  # noqa: E402

MATCH = ["match", "--game", "mnk", "5", "5", "4", "--rounds", "12", "--timeout", "20",
         "--engine1", "self --nodes 600 --hash 8", "--engine2", "self --nodes 200 --hash 8",
         "--seed", "3", "--opening", "2"]
SPRT = ["match", "--game", "mnk", "4", "4", "3", "--rounds", "40", "--timeout", "20", "--sprt", "0", "200",
        "--engine1", "self --nodes 300 --hash 8", "--engine2", "random", "--seed", "5"]


def check(ok, what):
    if not ok:
        print(f"FAIL {what}")
        sys.exit(1)


def games(path):
    """The game records of a results file, without the reply times."""
    out = []
    with open(path) as f:
        for line in f:
            record = json.loads(line)
            if "game" in record:
                record["game"].pop("replies", None)
                out.append(record["game"])
    return out


def killer(client, killed, finished):
    """Kills (SIGKILL) the first worker seen playing a shard; records its address, the shard's key
    and its process id."""
    while not finished.is_set():
        busy = [(w, keys) for w, keys in client.processing().items() if keys]
        if busy:
            worker, keys = busy[0]
            time.sleep(0.3)  # into the shard: the binary written, the match started
            pid = client.run(os.getpid, workers=[worker])[worker]
            os.kill(pid, signal.SIGKILL)
            killed.update(worker=worker, key=str(keys[0]), pid=pid, at=time.time())
            return
        time.sleep(0.02)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--workdir", default="dask-shards-test")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    started = time.time()
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None, silence_logs=50)
    client = Client(cluster)
    print(f"local cluster of {len(client.scheduler_info()['workers'])} workers in {time.time() - started:.1f} s")

    # 1. The match whole, then in shards with a worker killed.
    whole = os.path.join(args.workdir, "whole.jsonl")
    argv_whole = [a.format(boardbot=binary) for a in MATCH]
    t = time.time()
    subprocess.run([binary, *argv_whole, "--quiet", "--results", whole], check=True, stdout=subprocess.DEVNULL)
    print(f"match whole, one process: {len(games(whole))} games in {time.time() - t:.1f} s")
    killed, finished = {}, threading.Event()
    thread = threading.Thread(target=killer, args=(client, killed, finished))
    thread.start()
    summary = driver.run_shards(client, binary, MATCH, 6, os.path.join(args.workdir, "match"))
    finished.set()
    thread.join()
    figures = summary["figures"]
    print(f"match in 6 shards on 2 workers: {summary['seconds']:.1f} s; worker {killed.get('worker')} "
          f"(pid {killed.get('pid')}) killed while it played {killed.get('key')}")
    check(bool(killed), "a worker was killed mid-run")
    shard = summary["keys"].get(killed["key"])
    print(f"the killed worker's shard {shard}/6 was played again on {summary['workers'].get(shard)}")
    check(shard is not None and summary["workers"][shard] != killed["worker"], "the killed shard played again elsewhere")
    merged = os.path.join(args.workdir, "merged.jsonl")
    driver.merge(binary, summary["files"], ["--out", merged])
    check(figures["numbers"] == list(range(1, 25)), f"every game once: {figures['numbers']}")
    check(figures["duplicates"] == 0 and figures["left_out"] == 0, f"no duplicate, none left out: {figures}")
    check(games(merged) == games(whole), "the merged games are the match's played whole")
    print(f"PASS match: every game counted once (24 of 24, 0 duplicates), the same games as the match played "
          f"whole; pentanomial {figures['pentanomial']}")

    # 2. An SPRT stopped early.
    summary = driver.run_shards(client, binary, SPRT, 20, os.path.join(args.workdir, "sprt"))
    figures = summary["figures"]
    print(f"sprt in 20 shards: {summary['seconds']:.1f} s; shards merged {summary['merged']}, "
          f"stopped {summary['stopped']}; verdict {figures['verdict']} after {figures['pairs']} pairs, "
          f"LLR {figures['llr']:.3f}")
    check(figures["verdict"] == "H1", f"H1 accepted: {figures}")
    check(len(summary["stopped"]) > 0, "shards stopped by the verdict")
    again = json.loads(driver.merge(binary, summary["files"], ["--json"]))
    check(again == figures, "the driver's verdict is merge's")
    numbers = figures["numbers"]
    check(len(numbers) == len(set(numbers)) == 2 * figures["pairs"], "each counted game once")
    print(f"PASS sprt: H1 after {figures['pairs']} pairs, {len(summary['stopped'])} of 20 shards stopped")
    client.close()
    cluster.close()


if __name__ == "__main__":
    main()
