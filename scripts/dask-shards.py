#!/usr/bin/env python3
"""Runs a boardbot match, SPRT or self-play run as shards on a Dask cluster (docs/scaling.md).

    python3 scripts/dask-shards.py --local 2 --shards 8 --out merged.jsonl -- \\
        match --game checkers english --openings {openings} --sprt 0 10 --rounds 5000 \\
        --engine1 "{boardbot}" --engine2 "{old} --nodes 20000" --timeout 5 \\
        --ship openings=my-openings.txt --ship old=./old/boardbot

The boardbot arguments follow `--`; `{boardbot}` is the binary shipped with --binary (the
`self`, `l1`, ... players are that binary too), `{NAME}` a file shipped with --ship NAME=PATH.
Every file goes to the workers as bytes through the scheduler (no shared file system): each
worker writes it once to its own temporary directory.

Each shard is one task: `boardbot match ... --shard I/N --results FILE` (or `selfplay ...
--shard I/N --out FILE`) on a worker, its file sent back whole when it ends. A task whose worker
dies is run again by the scheduler on another worker; a shard that fails (boardbot exits with an
error) is restarted up to --retries times. As shards end, the driver merges their files with
`boardbot merge --json` on this machine and prints the merged progress (games, pentanomial,
LLR); an SPRT stops every other shard (queued ones cancelled, running ones killed through a Dask
Event) as soon as the merged LLR reaches a bound. The counted games are those of the shards
merged at that moment (`boardbot merge` counts whole pairs, up to the pair of the verdict).

The cluster: --local N starts a LocalCluster of N one-thread workers; --scheduler ADDRESS joins
any running one (`dask scheduler` + `dask worker`, dask-jobqueue's SLURMCluster, dask-kubernetes'
KubeCluster: their `.scheduler_address`). `run_shards(client, ...)` is the same function
whatever the cluster object.
"""

import argparse
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from dask.distributed import Client, Event, LocalCluster, as_completed, get_worker


def local_copy(name, data):
    """Writes `data` once to this machine's temporary directory; returns its path."""
    digest = hashlib.sha256(data).hexdigest()[:16]
    folder = os.path.join(tempfile.gettempdir(), "boardbot-shipped")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{digest}-{name}")
    if not (os.path.exists(path) and os.path.getsize(path) == len(data)):
        part = f"{path}.{os.getpid()}.part"
        with open(part, "wb") as f:
            f.write(data)
        os.chmod(part, 0o755)
        os.replace(part, path)
    return path


def _die_with_parent():
    """In the child: killed when the worker that started it dies (Linux's PR_SET_PDEATHSIG)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)
    except OSError:
        pass


def play_shard(files, argv, kind, shard, count, stop_name):
    """One shard on a worker: returns its file's text, or None if told to stop first."""
    paths = {name: local_copy(name, data) for name, data in files.items()}
    out_dir = tempfile.mkdtemp(prefix="boardbot-shard-")
    out = os.path.join(out_dir, f"shard-{shard}-of-{count}")
    args = [paths["boardbot"]] + [a.format(**paths) for a in argv] + ["--shard", f"{shard}/{count}", "--quiet"]
    args += ["--results", out] if kind == "match" else ["--out", out]
    started = time.time()
    stop = Event(stop_name)
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=_die_with_parent)
    try:
        while proc.poll() is None:
            if stop.is_set():
                proc.kill()
                proc.wait()
                return {"shard": shard, "stopped": True}
            time.sleep(0.3)
        err = proc.stderr.read().decode(errors="replace")
        if proc.returncode != 0:
            raise RuntimeError(f"shard {shard}/{count}: boardbot exited {proc.returncode}: {err.strip()}")
        with open(out) as f:
            text = f.read()
        return {"shard": shard, "text": text, "seconds": time.time() - started, "worker": get_worker().address}
    finally:
        if proc.poll() is None:
            proc.kill()
        for name in os.listdir(out_dir):
            os.remove(os.path.join(out_dir, name))
        os.rmdir(out_dir)


def merge(binary, files, more):
    """`boardbot merge FILES MORE` on this machine; returns its stdout."""
    run = subprocess.run([binary, "merge", *files, *more], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"boardbot merge: {run.stderr.strip()}")
    return run.stdout


def run_shards(client, binary, argv, shards, workdir, ship=(), retries=2, log=print):
    """Runs `boardbot ARGV` as `shards` shards on the client's cluster; returns a summary dict:
    the merged figures (`merge --json` for a match), the shard files merged, the shards
    stopped by an SPRT's verdict, the restarts and the seconds taken."""
    kind = argv[0]
    if kind not in ("match", "selfplay"):
        raise ValueError("the boardbot command must be match or selfplay")
    sprt = kind == "match" and "--sprt" in argv
    with open(binary, "rb") as f:
        files = {"boardbot": f.read()}
    for name, path in ship:
        with open(path, "rb") as f:
            files[name] = f.read()
    os.makedirs(workdir, exist_ok=True)
    started = time.time()
    stop_name = f"boardbot-stop-{os.getpid()}-{started}"
    stop = Event(stop_name, client=client)
    # The bytes go once to every worker (and stay on the survivors if one dies).
    shipped = client.scatter(files, broadcast=True)
    submit = lambda i: client.submit(play_shard, shipped, argv, kind, i, shards, stop_name, pure=False)  # noqa: E731
    futures = {submit(i): i for i in range(1, shards + 1)}
    restarts = {i: 0 for i in futures.values()}
    done, stopped, figures, verdict, workers = {}, [], None, None, {}
    pending = as_completed(list(futures))
    for future in pending:
        shard = futures[future]
        if future.cancelled():
            stopped.append(shard)
            continue
        if future.status == "error":
            if verdict:
                stopped.append(shard)
                continue
            restarts[shard] += 1
            if restarts[shard] > retries:
                raise RuntimeError(f"shard {shard}/{shards} failed {restarts[shard]} times: {future.exception()}")
            log(f"[{time.time() - started:6.1f} s] shard {shard}/{shards} failed ({future.exception()}); restart {restarts[shard]}")
            again = submit(shard)
            futures[again] = shard
            pending.add(again)
            continue
        result = future.result()
        if result.get("stopped") or verdict:
            stopped.append(shard)
            continue
        path = os.path.join(workdir, f"shard-{shard}-of-{shards}.{'jsonl' if kind == 'match' else 'txt'}")
        with open(path, "w") as f:
            f.write(result["text"])
        done[shard] = path
        workers[shard] = result["worker"]
        paths = [done[i] for i in sorted(done)]
        if kind == "match":
            figures = json.loads(merge(binary, paths, ["--json"]))
            llr = "" if figures["llr"] is None else f", LLR {figures['llr']:.3f} ({figures['lower']:.3f}, {figures['upper']:.3f})"
            log(
                f"[{time.time() - started:6.1f} s] shard {shard}/{shards} done in {result['seconds']:.1f} s on {result['worker']}: "
                f"merged {len(done)} shards, {figures['games']} games counted of {figures['match_games']}, "
                f"pentanomial {figures['pentanomial']}{llr}"
            )
            if sprt and figures["verdict"]:
                verdict = figures["verdict"]
                stop.set()
                rest = [f for f, i in futures.items() if i not in done and not f.done()]
                client.cancel(rest)
                log(f"[{time.time() - started:6.1f} s] SPRT: {verdict} accepted; stopping the other shards")
        else:
            log(f"[{time.time() - started:6.1f} s] shard {shard}/{shards} done in {result['seconds']:.1f} s on {result['worker']}")
    paths = [done[i] for i in sorted(done)]
    summary = {"shards": shards, "merged": sorted(done), "stopped": sorted(stopped), "restarts": restarts,
               "seconds": time.time() - started, "files": paths, "workers": workers,
               "keys": {str(f.key): i for f, i in futures.items()}}
    if kind == "match":
        summary["figures"] = json.loads(merge(binary, paths, ["--json"]))
    return summary


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--local", type=int, metavar="N", help="a local cluster of N one-thread workers")
    where.add_argument("--scheduler", metavar="ADDRESS", help="a running cluster's scheduler, e.g. tcp://host:8786")
    parser.add_argument("--binary", required=True, help="the boardbot binary shipped to the workers")
    parser.add_argument("--ship", action="append", default=[], metavar="NAME=PATH",
                        help="another file for the workers, {NAME} in the arguments")
    parser.add_argument("--shards", type=int, required=True)
    parser.add_argument("--retries", type=int, default=2, help="restarts of a failed shard")
    parser.add_argument("--workdir", default="shards", help="where the shards' files are kept (default ./shards)")
    parser.add_argument("--out", help="the merged file (results or self-play)")
    parser.add_argument("argv", nargs=argparse.REMAINDER, help="-- then boardbot's match or selfplay arguments")
    args = parser.parse_args()
    argv = args.argv[1:] if args.argv[:1] == ["--"] else args.argv
    ship = [tuple(s.split("=", 1)) for s in args.ship]
    if args.local:
        cluster = LocalCluster(n_workers=args.local, threads_per_worker=1, dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(args.scheduler)
    summary = run_shards(client, args.binary, argv, args.shards, args.workdir, ship, args.retries)
    if summary["stopped"]:
        print(f"stopped by the SPRT's verdict: shards {summary['stopped']}")
    more = ["--out", args.out] if args.out else []
    sys.stdout.write(merge(args.binary, summary["files"], more) if argv[0] == "match" or args.out else "")
    client.close()


if __name__ == "__main__":
    main()
