"""A WebSocket peer for Strand's tests, independent of Netty: aiohttp (Debian's python3-aiohttp).

    python3 aiohttp_ws.py PORT

Listens on 127.0.0.1:PORT:
  /echo                     echoes text and binary messages; accepts permessage-deflate; selects "chat"
                            when offered; messages up to 64 MiB
  /close?code=C&reason=R    closes at once from the server side with C (default 1000) and R
  /reject                   403 instead of 101
  /last-close               (plain HTTP) the code of the last Close a client sent to /echo
"""
import sys

from aiohttp import WSMsgType, web

LAST_CLOSE = {}  # what /last-close reports


async def echo(request):
    ws = web.WebSocketResponse(protocols=("chat",), compress=True, max_msg_size=64 * 1024 * 1024)
    await ws.prepare(request)
    async for msg in ws:
        if msg.type == WSMsgType.TEXT:
            await ws.send_str(msg.data)
        elif msg.type == WSMsgType.BINARY:
            await ws.send_bytes(msg.data)
    LAST_CLOSE["code"] = str(ws.close_code)
    return ws


async def last_close(request):
    return web.Response(text=LAST_CLOSE.get("code", "none"))


async def close(request):
    ws = web.WebSocketResponse()
    await ws.prepare(request)
    code = int(request.query.get("code", "1000"))
    await ws.close(code=code, message=request.query.get("reason", "").encode())
    return ws


async def reject(request):
    return web.Response(status=403, text="no WebSocket for you\n")


def main():
    app = web.Application()
    app.add_routes([web.get("/echo", echo), web.get("/close", close), web.get("/reject", reject),
                    web.get("/last-close", last_close)])
    web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None, handle_signals=True)


if __name__ == "__main__":
    main()
