#!/usr/bin/env python3
"""A server-sent events peer for Strand's tests, on aiohttp (Debian python3-aiohttp). Started by bin/test.

GET /events?count=N (3): `retry: 1500`, then N events `id: i / event: update / data: {"n": i} / data: end of i`,
20 ms apart, with a `: ping` comment before each, numbered from 1, or from K+1 after `Last-Event-ID: K`
(echoed as the response header x-last-event-id). Lines end with CRLF, as some servers send them.
"""
import argparse
import asyncio

from aiohttp import web


async def events(request: web.Request) -> web.StreamResponse:
    count = int(request.query.get("count", "3"))
    last = request.headers.get("Last-Event-ID", "")
    start = int(last) + 1 if last.isdigit() else 1
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache",
                                           "x-last-event-id": last})
    await response.prepare(request)
    await response.write(b"retry: 1500\r\n\r\n")
    for n in range(start, start + count):
        await asyncio.sleep(0.02)
        block = f': ping\r\nid: {n}\r\nevent: update\r\ndata: {{"n": {n}}}\r\ndata: end of {n}\r\n\r\n'
        await response.write(block.encode("utf-8"))
    await response.write_eof()
    return response


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    app = web.Application()
    app.router.add_get("/events", events)
    web.run_app(app, host="127.0.0.1", port=args.port, print=None, access_log=None)


if __name__ == "__main__":
    main()
