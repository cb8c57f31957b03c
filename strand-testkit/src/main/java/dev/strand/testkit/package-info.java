/**
 * A loopback HTTP/1.1 and HTTP/2 test server ({@link dev.strand.testkit.TestServer}), cleartext or TLS, the bytes
 * it sends
 * ({@link dev.strand.testkit.Payloads}), and a JUnit extension that fails tests on Netty buffer leaks
 * ({@link dev.strand.testkit.NettyLeakDetectorExtension}).
 *
 * <h2>Endpoints</h2>
 * Every endpoint accepts any method (a request body is read and ignored unless stated) and HEAD (same headers,
 * no body). Responses carry Content-Length or chunked encoding; connections stay open unless the request
 * asks otherwise; pipelined requests are answered in order. JSON uses Python's separators ({@code ", "},
 * {@code ": "}). "Pattern" means the {@link dev.strand.testkit.Payloads} byte sequence.
 * <table>
 * <caption>Endpoints</caption>
 * <tr><th>Path</th><th>Response</th></tr>
 * <tr><td>{@code /small}</td><td>200 application/json {@link dev.strand.testkit.Payloads#SMALL}
 *     (pre-encoded: the benchmark's hot path)</td></tr>
 * <tr><td>{@code /big}</td><td>200 application/octet-stream {@link dev.strand.testkit.Payloads#BIG}</td></tr>
 * <tr><td>{@code /bytes/N}</td><td>200, Content-Length N, N pattern bytes streamed with backpressure
 *     (N up to {@code Long.MAX_VALUE})</td></tr>
 * <tr><td>{@code /chunked/N}</td><td>200, N pattern bytes, chunked, chunks of 8 KiB</td></tr>
 * <tr><td>{@code /trailers/N}, {@code /trailers}</td><td>200, {@code trailer: x-checksum}, N (1024) pattern
 *     bytes chunked in 8 KiB pieces, then the trailer {@code x-checksum: <sha256 hex of the body>}
 *     (none for HEAD)</td></tr>
 * <tr><td>{@code /stream/N}</td><td>200 application/x-ndjson, chunked, one chunk per line
 *     {@code {"id": i, "message": "line i of N"}\n}</td></tr>
 * <tr><td>{@code /delay/MS}</td><td>as {@code /small}, after MS ms (a timer, not a sleep)</td></tr>
 * <tr><td>{@code /drip?bytes=N&delay=MS&interval=MS}</td><td>after {@code delay} (0): head with
 *     Content-Length N (10) and pattern byte 0, then one byte every {@code interval} (100) ms</td></tr>
 * <tr><td>{@code /alt-svc/PORT}</td><td>200 with {@code Alt-Svc: h3=":PORT"; ma=60}, for HTTP/3 upgrade tests
 * (see {@link dev.strand.testkit.Http3TestServer})</td></tr>
 * <tr><td>{@code /status/CODE}</td><td>CODE (100-599), standard reason, empty body; Content-Length: 0
 *     except on 1xx, 204 and 304</td></tr>
 * <tr><td>{@code /redirect/N}</td><td>302, Location {@code /redirect/N-1}; {@code /redirect/1} points to
 *     {@code /echo}</td></tr>
 * <tr><td>{@code /redirect-to?url=U&status=S}</td><td>S (302), Location U (decoded)</td></tr>
 * <tr><td>{@code /headers}</td><td>{@code {"headers": {"Name": ["v1", "v2"]}}}, names as first received,
 *     grouped case-insensitively, in arrival order</td></tr>
 * <tr><td>{@code /echo}</td><td>{@code {"method": "M", "path": "/echo", "query": "raw query or empty",
 *     "headers": {...}, "body": "UTF-8 text", "bodyLength": N}}; body aggregated up to 16 MiB, beyond
 *     that 413 and close</td></tr>
 * <tr><td>{@code /sink}</td><td>streams a body of any size: {@code {"bytes": N, "sha256": "hex"}};
 *     {@code Expect: 100-continue} gets 100 Continue, or 417 and close with {@code ?reject=1}</td></tr>
 * <tr><td>{@code /gzip}, {@code /deflate}</td><td>200 application/json, Content-Encoding gzip / deflate
 *     (zlib) of {@link dev.strand.testkit.Payloads#GZIP_JSON} / {@link dev.strand.testkit.Payloads#DEFLATE_JSON}
 *     ({@code {"gzipped": true, "lines": [...]}}, about 5 KiB)</td></tr>
 * <tr><td>{@code /cookies/set?k=v&...}</td><td>302 to {@code /cookies}, {@code Set-Cookie: k=v; Path=/}
 *     per pair</td></tr>
 * <tr><td>{@code /cookies}</td><td>{@code {"cookies": {"k": "v"}}} from the Cookie header</td></tr>
 * <tr><td>{@code /basic-auth/USER/PASS}</td><td>{@code {"authenticated": true, "user": "USER"}}, or 401
 *     {@code {"authenticated": false}} with {@code WWW-Authenticate: Basic realm="strand"}</td></tr>
 * <tr><td>{@code /bearer}</td><td>{@code {"authenticated": true, "token": "T"}}, or 401 with
 *     {@code WWW-Authenticate: Bearer}</td></tr>
 * <tr><td>{@code /sse?count=N&interval=MS}</td><td>200 text/event-stream, chunked: N (3) events
 *     {@code id: i / event: tick / data: tick i / data: second line}, one every MS (0) ms, numbered from 1, or
 *     from K+1 after a request header {@code Last-Event-ID: K} (echoed as {@code x-last-event-id}); the first
 *     carries {@code retry: 2500}, the others follow a {@code : keep-alive} comment</td></tr>
 * <tr><td>{@code /sse/split}</td><td>an event stream in awkward pieces 10 ms apart (a CR ending one piece and
 *     its LF starting the next, UTF-8 sequences cut in two)</td></tr>
 * <tr><td>{@code /sse/endless}</td><td>a tick every 50 ms until the client goes away</td></tr>
 * <tr><td>{@code /sse/gated?key=K}</td><td>tick 1, then tick 2 and the end only once
 *     {@code /sse/release?key=K} (200, or 404 if nothing waits on K) has arrived</td></tr>
 * <tr><td>{@code /sse/wrong-type}</td><td>200 text/plain with an event stream's bytes</td></tr>
 * <tr><td>{@code /never}</td><td>reads the request, never answers</td></tr>
 * <tr><td>{@code /stats}</td><td>{@code {"accepted": N, "open": M, "held": H, "cpuNanos": T}}: connections
 *     accepted and open, responses a {@code /delay} holds back, and the CPU time of the server's process so far
 *     (user and system, nanoseconds; -1 where the platform does not tell)</td></tr>
 * <tr><td>{@code /idempotent?header=NAME&delay=MS}</td><td>a write that honours idempotency keys: the key from
 *     header NAME ({@code Idempotency-Key}; an sf-string {@code "k"} or bare). The first request with a key takes
 *     effect: 201 {@code {"key": "k", "replayed": false}}; the same key and body again: 201 with
 *     {@code "replayed": true} and {@code idempotent-replayed: true}, no effect; the same key with another body:
 *     422; no key: 400. The answer leaves MS (0) ms after the write took effect. Counted in
 *     {@link dev.strand.testkit.TestServer#idempotency()}</td></tr>
 * <tr><td>{@code /idempotent/stats}</td><td>{@code {"requests": N, "effectiveWrites": W, "replays": R,
 *     "conflicts": C, "missingKeys": M, "inProgress": P}}</td></tr>
 * <tr><td>{@code /fault/NAME}</td><td>raw bytes, then close: {@code close-after-headers},
 *     {@code reset-mid-body} (TCP RST after 1 KiB of 100000), {@code wrong-length}, {@code bad-status-line},
 *     {@code bad-chunk}, {@code both-lengths}, {@code close} (no bytes), {@code huge-headers} (over 128 KiB)</td></tr>
 * <tr><td>{@code /ws/echo?fragment=N&deflate=1}</td><td>WebSocket (HTTP/1.1): echoes text and binary
 *     messages, in frames of N bytes if given; permessage-deflate if {@code deflate=1} and offered; selects the
 *     first subprotocol offered</td></tr>
 * <tr><td>{@code /ws/close?code=C&reason=R}</td><td>WebSocket that the server closes at once with C (1000) and R</td></tr>
 * <tr><td>{@code /ws/deaf}</td><td>WebSocket echo that never answers the client's Close</td></tr>
 * <tr><td>{@code /ws/invalid-utf8}</td><td>WebSocket that sends one text frame that is not UTF-8</td></tr>
 * <tr><td>{@code /ws/reject}</td><td>403 instead of 101</td></tr>
 * <tr><td>anything else</td><td>404 text/plain</td></tr>
 * </table>
 * Malformed requests get 400 and a close; an unsupported {@code Expect} gets 417 and a close.
 *
 * <h2>HTTP/2</h2>
 * With {@code http2(true)} every endpoint above is served on each stream as well (h2 by ALPN over TLS; h2c with
 * prior knowledge in cleartext, where connections without the preface get HTTP/1.1). Differences:
 * <ul>
 * <li>Streamed bodies are written within the client's flow-control windows and the stream's writability, so
 *     {@code /bytes/N} never queues more than a window; request bodies are consumed as they arrive, returning
 *     WINDOW_UPDATEs. The server advertises an initial stream window of 1 MiB, opens the connection window to
 *     8 MiB, and SETTINGS_MAX_CONCURRENT_STREAMS as configured (100 by default).
 * <li>"Close" means the stream: an answer given before the request body ended (413, 417) is followed by
 *     RST_STREAM(NO_ERROR), which asks the client to stop sending (RFC 9113 8.1).
 * <li>{@code /status/1xx} gets 400: an interim status cannot end an HTTP/2 stream.
 * <li>{@code /fault/NAME} takes its nearest HTTP/2 form, or 404 where HTTP/2 has none; see
 *     {@code FaultEndpoints}: {@code reset-mid-body} resets the stream (INTERNAL_ERROR) after 1 KiB;
 *     {@code close} and {@code close-after-headers} drop the TCP connection (no GOAWAY); {@code wrong-length}
 *     ends the stream 990 bytes short of its content-length; {@code bad-status-line} sends {@code :status abc};
 *     {@code huge-headers} sends 140 KiB of header fields; {@code bad-chunk} and {@code both-lengths} are 404.
 * <li>Endpoints that report request headers show the client's fields only: the conversion's
 *     {@code x-http2-*} fields are removed; {@code :authority} appears as {@code host}.
 * </ul>
 *
 * <h2>TLS</h2>
 * {@code tls(cert, key)} (PEM, PKCS#8 key) or {@code tls(SslContext)}; the JDK engine by default, OpenSSL
 * (netty-tcnative, optional) with {@code sslProvider("openssl")}; {@code requireClientAuth(ca)} for mutual TLS.
 * {@link dev.strand.testkit.tls.TestPki} makes the certificates.
 *
 * <h2>Hostile networks</h2>
 * {@link dev.strand.testkit.FaultProxy} relays TCP to a server and, with seeded probabilities, resets,
 * delays, truncates, appends stray bytes after complete responses, or closes early; it counts what it did.
 * {@link dev.strand.testkit.TestProxy} is the scripted HTTP (CONNECT) proxy.
 */
package dev.strand.testkit;
