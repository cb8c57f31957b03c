"""The seeds' Python clients as references for strand-bench: the same closed loop as the Java children.

--client aiohttp: a fresh ClientSession(TCPConnector(limit=N)) per level, N asyncio lanes.
--client httpx:   a fresh AsyncClient(limits=Limits(max_connections=N)) per level, N asyncio lanes.
--client requests: a fresh Session with HTTPAdapter(pool_maxsize=N) per level, N threads (requests is blocking).
Each lane sends its next GET as soon as the previous body is read; warm-up, then timed batches cut from the
running load. Prints one "RESULT <json>" line per level (the bench's Cell fields) on stdout, "PROGRESS ..."
lines on stderr. Only the client named is imported.
"""
import argparse
import asyncio
import json
import sys
import threading
import time
import urllib.request


def stats(base, field):
    """A number from the testkit server's /stats: "accepted" connections, the requests it has "held", or its
    process's CPU time so far ("cpuNanos")."""
    if not base:
        return -1
    try:
        req = urllib.request.Request(base.rstrip("/") + "/stats", headers={"Connection": "close"})
        with urllib.request.urlopen(req, timeout=2) as r:
            return int(json.loads(r.read())[field])
    except Exception:
        return -1


def rss():
    """This process's resident set, bytes (0 where there is no /proc)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def resident():
    """The resident set after a full collection, as the Java children read theirs after a full GC."""
    import gc
    gc.collect()
    return rss()


def progress(msg):
    print("PROGRESS " + msg, file=sys.stderr, flush=True)


def percentile(sorted_values, p):
    if not sorted_values:
        return None
    i = min(len(sorted_values) - 1, max(0, int(round(p / 100.0 * len(sorted_values) + 0.5)) - 1))
    return sorted_values[i]


class Load:
    """What the lanes of one level count; the lanes only add, the batches only read."""

    def __init__(self, a):
        self.a = a
        self.ok = 0
        self.err = 0
        self.first = None
        self.stop = False
        self.lat = None
        self.lock = threading.Lock()
        self.rss_idle = resident() if a.memory else None
        self.rss_held = None
        self.at_server = -1
        self.server_cpu = None

    def record(self, t0, status, length, error):
        good = error is None and status == 200 and length == self.a.expect_bytes
        with self.lock:
            if not good and self.first is None:
                self.first = error or "status %d, body length %d" % (status, length)
            if good:
                self.ok += 1
                if self.lat is not None:
                    self.lat.append(time.perf_counter() - t0)
            else:
                self.err += 1

    def batches(self, conc, warm):
        """Warm-up, then the timed batches: yields each wait, for the caller to sleep in its lanes' world."""
        a = self.a
        progress("%s %s c=%d warm-up %.1fs" % (a.client, a.scenario, conc, warm))
        yield warm
        self.lat = []
        rps = []
        server_cpu0 = stats(a.stats_url, "cpuNanos")
        cpu0 = time.process_time()
        ok_total = err_total = 0
        for b in range(1, a.batches + 1):
            progress("%s %s c=%d batch %d/%d" % (a.client, a.scenario, conc, b, a.batches))
            ok0, err0, t0 = self.ok, self.err, time.perf_counter()
            yield a.duration
            dt = time.perf_counter() - t0
            ok_total += self.ok - ok0
            err_total += self.err - err0
            rps.append((self.ok - ok0) / dt)
        self.cpu = time.process_time() - cpu0
        server_cpu1 = stats(a.stats_url, "cpuNanos")
        n = ok_total + err_total
        self.server_cpu = ((server_cpu1 - server_cpu0) / 1000.0 / n
                           if server_cpu0 >= 0 and server_cpu1 >= server_cpu0 and n > 0 else None)
        if a.memory:
            # After the timed batches, with every lane's request still in flight.
            self.at_server = stats(a.stats_url, "held")
            self.rss_held = resident() - self.rss_idle
        self.rps, self.ok_total, self.err_total = rps, ok_total, err_total
        self.stop = True


def describe(e):
    return "%s: %s" % (type(e).__name__, e)


async def async_level(a, conc, warm):
    load = Load(a)
    if a.client == "aiohttp":
        import aiohttp
        session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=conc),
                                        timeout=aiohttp.ClientTimeout(total=None, sock_connect=30, sock_read=30))

        async def get():
            async with session.get(a.url) as r:
                return r.status, len(await r.read())
    else:
        import httpx
        session = httpx.AsyncClient(limits=httpx.Limits(max_connections=conc, max_keepalive_connections=conc),
                                    timeout=httpx.Timeout(30.0))

        async def get():
            r = await session.get(a.url)
            return r.status_code, len(r.content)

    async def lane():
        while not load.stop:
            t0 = time.perf_counter()
            try:
                status, length = await get()
                load.record(t0, status, length, None)
            except Exception as e:  # noqa: BLE001 - every failure is counted and reported
                load.record(t0, 0, 0, describe(e))

    tasks = [asyncio.ensure_future(lane()) for _ in range(conc)]
    try:
        for seconds in load.batches(conc, warm):
            await asyncio.sleep(seconds)
        await asyncio.wait(tasks, timeout=35)
    finally:
        if a.client == "aiohttp":
            await session.close()
        else:
            await session.aclose()
    return load


def thread_level(a, conc, warm):
    import requests
    load = Load(a)
    session = requests.Session()
    adapter = requests.adapters.HTTPAdapter(pool_connections=1, pool_maxsize=conc, pool_block=True)
    session.mount("http://", adapter)
    session.mount("https://", adapter)

    def lane():
        while not load.stop:
            t0 = time.perf_counter()
            try:
                r = session.get(a.url, timeout=30)
                load.record(t0, r.status_code, len(r.content), None)
            except Exception as e:  # noqa: BLE001
                load.record(t0, 0, 0, describe(e))

    threads = [threading.Thread(target=lane, daemon=True) for _ in range(conc)]
    for t in threads:
        t.start()
    try:
        for seconds in load.batches(conc, warm):
            time.sleep(seconds)
        deadline = time.monotonic() + 35
        for t in threads:
            t.join(max(0.0, deadline - time.monotonic()))
    finally:
        session.close()
    return load


def level(a, conc, warm):
    load = thread_level(a, conc, warm) if a.client == "requests" else asyncio.run(async_level(a, conc, warm))
    return (load.rps, load.ok_total, load.err_total, load.err, load.first, (load.cpu, load.server_cpu),
            sorted(load.lat), (load.rss_held, load.at_server))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--client", choices=["aiohttp", "httpx", "requests"], default="aiohttp")
    p.add_argument("--url", required=True)
    p.add_argument("--scenario", required=True)
    p.add_argument("--levels", required=True)
    p.add_argument("--expect-bytes", type=int, required=True)
    p.add_argument("--warmup", type=float, default=10)
    p.add_argument("--rewarm", type=float, default=2)
    p.add_argument("--duration", type=float, default=5)
    p.add_argument("--batches", type=int, default=5)
    p.add_argument("--stats-url", default=None)
    p.add_argument("--memory", action="store_true", help="report the resident set's growth per level")
    a = p.parse_args()
    first = True
    for conc in [int(x) for x in a.levels.split(",")]:
        before = stats(a.stats_url, "accepted")
        try:
            rps, ok, err_timed, err_all, first_err, (cpu, server_cpu), lat, held = level(
                a, conc, a.warmup if first else a.rewarm)
        except Exception as e:  # noqa: BLE001
            rps, ok, err_timed, err_all, first_err, (cpu, server_cpu), lat, held = (
                [], 0, 0, 0, "%s: %s" % (type(e).__name__, e), (0, None), [], None)
        first = False
        after = stats(a.stats_url, "accepted")
        # Each /stats read is an accepted connection: the one that ends the level, the two of the server's CPU
        # time around the timed batches, and the memory's count of the requests the server held, when there was one.
        reads = 3 + (1 if a.memory else 0)
        conns = after - before - reads if before >= 0 and after >= 0 else None
        srt = sorted(rps)
        n = len(srt)
        if ok == 0 or n == 0:
            cell = {"client": a.client, "kind": "reference", "scenario": a.scenario, "concurrency": conc,
                    "status": "failed", "error": first_err or "no successful response", "batchRps": [],
                    "rps": None, "rpsMin": None, "rpsMax": None, "requests": 0, "errors": err_all,
                    "cpuUsPerRequest": None, "serverCpuUsPerRequest": None, "p50Ms": None, "p99Ms": None,
                    "connections": conns}
        else:
            median = srt[n // 2] if n % 2 else (srt[n // 2 - 1] + srt[n // 2]) / 2
            p50 = percentile(lat, 50)
            p99 = percentile(lat, 99)
            cell = {"client": a.client, "kind": "reference", "scenario": a.scenario, "concurrency": conc,
                    "status": "ok" if err_all == 0 else "errors", "error": first_err if err_all else None,
                    "batchRps": rps, "rps": median, "rpsMin": srt[0], "rpsMax": srt[-1], "requests": ok,
                    "errors": err_all, "cpuUsPerRequest": cpu * 1e6 / (ok + err_timed),
                    "serverCpuUsPerRequest": server_cpu,
                    "p50Ms": p50 * 1000 if p50 is not None else None,
                    "p99Ms": p99 * 1000 if p99 is not None else None, "connections": conns}
            if held is not None and held[0] is not None:
                cell["memory"] = {"inFlight": conc, "atServer": max(0, held[1]), "heapBytes": -1, "directBytes": -1,
                                  "rssBytes": held[0]}
        print("RESULT " + json.dumps(cell), flush=True)


if __name__ == "__main__":
    main()
