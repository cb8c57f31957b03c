"""aiohttp reference for strand-bench: the same closed loop as the Java children.

Per level: a fresh ClientSession(TCPConnector(limit=N)), N lanes each awaiting its next GET as soon as the
previous one is read, warm-up, then timed batches cut from the running load. Prints one
"RESULT <json>" line per level (the bench's Cell fields) on stdout, "PROGRESS ..." lines on stderr.
"""
import argparse
import asyncio
import json
import sys
import time
import urllib.request

import aiohttp


def stats_accepted(base):
    if not base:
        return -1
    try:
        req = urllib.request.Request(base.rstrip("/") + "/stats", headers={"Connection": "close"})
        with urllib.request.urlopen(req, timeout=2) as r:
            return int(json.loads(r.read())["accepted"])
    except Exception:
        return -1


def progress(msg):
    print("PROGRESS " + msg, file=sys.stderr, flush=True)


def percentile(sorted_values, p):
    if not sorted_values:
        return None
    i = min(len(sorted_values) - 1, max(0, int(round(p / 100.0 * len(sorted_values) + 0.5)) - 1))
    return sorted_values[i]


async def level(a, conc, warm):
    state = {"ok": 0, "err": 0, "first": None, "stop": False, "lat": None}
    connector = aiohttp.TCPConnector(limit=conc)
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=30, sock_read=30)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        async def lane():
            while not state["stop"]:
                t0 = time.perf_counter()
                try:
                    async with session.get(a.url) as r:
                        body = await r.read()
                        good = r.status == 200 and len(body) == a.expect_bytes
                        if not good and state["first"] is None:
                            state["first"] = "status %d, body length %d" % (r.status, len(body))
                except Exception as e:  # noqa: BLE001 - every failure is counted and reported
                    good = False
                    if state["first"] is None:
                        state["first"] = "%s: %s" % (type(e).__name__, e)
                if good:
                    state["ok"] += 1
                    if state["lat"] is not None:
                        state["lat"].append(time.perf_counter() - t0)
                else:
                    state["err"] += 1

        tasks = [asyncio.ensure_future(lane()) for _ in range(conc)]
        progress("aiohttp %s c=%d warm-up %.1fs" % (a.scenario, conc, warm))
        await asyncio.sleep(warm)
        state["lat"] = []
        rps = []
        cpu0 = time.process_time()
        ok_total = err_total = 0
        for b in range(1, a.batches + 1):
            progress("aiohttp %s c=%d batch %d/%d" % (a.scenario, conc, b, a.batches))
            ok0, err0, t0 = state["ok"], state["err"], time.perf_counter()
            await asyncio.sleep(a.duration)
            dt = time.perf_counter() - t0
            ok_total += state["ok"] - ok0
            err_total += state["err"] - err0
            rps.append((state["ok"] - ok0) / dt)
        cpu = time.process_time() - cpu0
        lat = sorted(state["lat"])
        state["stop"] = True
        await asyncio.wait(tasks, timeout=35)
    return rps, ok_total, err_total, state["err"], state["first"], cpu, lat


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--url", required=True)
    p.add_argument("--scenario", required=True)
    p.add_argument("--levels", required=True)
    p.add_argument("--expect-bytes", type=int, required=True)
    p.add_argument("--warmup", type=float, default=10)
    p.add_argument("--rewarm", type=float, default=2)
    p.add_argument("--duration", type=float, default=5)
    p.add_argument("--batches", type=int, default=5)
    p.add_argument("--stats-url", default=None)
    a = p.parse_args()
    first = True
    for conc in [int(x) for x in a.levels.split(",")]:
        before = stats_accepted(a.stats_url)
        try:
            rps, ok, err_timed, err_all, first_err, cpu, lat = asyncio.run(level(a, conc, a.warmup if first else a.rewarm))
        except Exception as e:  # noqa: BLE001
            rps, ok, err_timed, err_all, first_err, cpu, lat = [], 0, 0, 0, "%s: %s" % (type(e).__name__, e), 0, []
        first = False
        after = stats_accepted(a.stats_url)
        conns = after - before - 1 if before >= 0 and after >= 0 else None
        srt = sorted(rps)
        n = len(srt)
        if ok == 0 or n == 0:
            cell = {"client": "aiohttp", "kind": "reference", "scenario": a.scenario, "concurrency": conc,
                    "status": "failed", "error": first_err or "no successful response", "batchRps": [],
                    "rps": None, "rpsMin": None, "rpsMax": None, "requests": 0, "errors": err_all,
                    "cpuUsPerRequest": None, "p50Ms": None, "p99Ms": None, "connections": conns}
        else:
            median = srt[n // 2] if n % 2 else (srt[n // 2 - 1] + srt[n // 2]) / 2
            p50 = percentile(lat, 50)
            p99 = percentile(lat, 99)
            cell = {"client": "aiohttp", "kind": "reference", "scenario": a.scenario, "concurrency": conc,
                    "status": "ok" if err_all == 0 else "errors", "error": first_err if err_all else None,
                    "batchRps": rps, "rps": median, "rpsMin": srt[0], "rpsMax": srt[-1], "requests": ok,
                    "errors": err_all, "cpuUsPerRequest": cpu * 1e6 / (ok + err_timed),
                    "p50Ms": p50 * 1000 if p50 is not None else None,
                    "p99Ms": p99 * 1000 if p99 is not None else None, "connections": conns}
        print("RESULT " + json.dumps(cell), flush=True)


if __name__ == "__main__":
    main()
