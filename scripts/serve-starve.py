#!/usr/bin/env python3
# usage: python3 scripts/serve-starve.py BIN CLIENTS SECONDS [serve options]  (issue 57 item 3)
# Item 3 probe: N clients play mnk 100 100 5 against the server; one probe session (mnk 7 7 5)
# asks every 0.1 s for: its state, a refused move, the games' list, a bad-JSON request, a new 7x7
# game in its session. Prints the slowest of each by the server's time (Server-Timing).
import http.client, json, os, random, subprocess, sys, threading, time, multiprocessing
from collections import defaultdict
bin_ = sys.argv[1]; n = int(sys.argv[2]); dur = float(sys.argv[3]); extra = sys.argv[4:]
srv = subprocess.Popen([bin_, "serve", "--addr", "127.0.0.1:0", *extra], stdout=subprocess.PIPE, text=True)
addr = srv.stdout.readline().strip().removeprefix("listening on http://")
host, port = addr.rsplit(":", 1); port = int(port)
H = {"Content-Type": "application/json", "Host": addr}
def req(conn, m, p, body=None, raw=None):
    data = raw if raw is not None else (json.dumps(body) if body is not None else None)
    conn.request(m, p, body=data, headers=H); r = conn.getresponse(); b = r.read()
    t = r.getheader("server-timing") or "dur=nan"
    return r.status, (json.loads(b) if b and b[:1] in b"{[" else None), float(t.split("dur=")[1])
stop = time.monotonic() + dur
def client(i):
    os.nice(10)
    rng = random.Random(i); c = http.client.HTTPConnection(host, port, timeout=300); sess = None
    while time.monotonic() < stop:
        body = {"game": "mnk 100 100 5", "time": 0.2, "level": "max", "you": rng.choice(["first", "second"])}
        if sess: body["session"] = sess
        s, st, _ = req(c, "POST", "/api/new", body)
        if s == 200: sess = st["session"]
        if s != 200: time.sleep(0.2); continue
        for _ in range(10):
            if time.monotonic() >= stop or st["status"] != "your_turn": break
            s, st2, _ = req(c, "POST", "/api/move", {"session": st["session"], "move": rng.choice(st["view"]["moves"])["text"]})
            if s != 200: break
            st = st2
ps = [multiprocessing.Process(target=client, args=(i,)) for i in range(n)]
for p in ps: p.start()
c = http.client.HTTPConnection(host, port, timeout=300)
s, st, _ = req(c, "POST", "/api/new", {"game": "mnk 7 7 5", "time": 0.1})
sid = st["session"]
worst = defaultdict(float); cnt = defaultdict(int)
time.sleep(2)
while time.monotonic() < stop:
    for k, m, p, b, raw in [("state 7x7", "GET", f"/api/state?session={sid}", None, None),
                            ("refused move 7x7", "POST", "/api/move", {"session": sid, "move": "zz"}, None),
                            ("games", "GET", "/api/games", None, None),
                            ("bad json", "POST", "/api/move", None, "{nope"),
                            ("new 7x7 same session", "POST", "/api/new", {"game": "mnk 7 7 5", "time": 0.1, "session": sid}, None)]:
        _, _, ms = req(c, m, p, b, raw); worst[k] = max(worst[k], ms); cnt[k] += 1
    time.sleep(0.1)
for p in ps: p.join()
srv.terminate(); srv.wait()
for k in worst: print(f"{k}: worst {worst[k]:.1f} ms over {cnt[k]}")
