#!/usr/bin/env python3
# usage: python3 scripts/serve-burst.py BIN N [serve options]: N new mnk 7 7 5 sessions at once;
# prints the server's time over them (Server-Timing).
import http.client, json, subprocess, sys, time, multiprocessing
srv = subprocess.Popen([sys.argv[1], "serve", "--addr", "127.0.0.1:0", *sys.argv[3:]], stdout=subprocess.PIPE, text=True)
addr = srv.stdout.readline().strip().removeprefix("listening on http://"); host, port = addr.rsplit(":", 1)
def one(i):
    c = http.client.HTTPConnection(host, int(port), timeout=300)
    c.request("POST", "/api/new", body=json.dumps({"game": "mnk 7 7 5", "time": 0.05}), headers={"Content-Type": "application/json"})
    r = c.getresponse(); r.read(); return r.status, float(r.getheader("server-timing").split("dur=")[1])
with multiprocessing.Pool(int(sys.argv[2])) as p:
    res = p.map(one, range(int(sys.argv[2])))
srv.terminate()
ms = sorted(t for _, t in res)
print("statuses", sorted(set(s for s, _ in res)), "server's time ms: median", ms[len(ms)//2], "max", ms[-1])
