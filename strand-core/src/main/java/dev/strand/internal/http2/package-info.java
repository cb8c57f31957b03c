/**
 * HTTP/2 framing for the exchange driver: a connection's settings, streams and flow control
 * (windows auto-tuned from measured round trips by {@link dev.strand.internal.http2.WindowTuner}), a
 * request's frames and a stream's response. Knows the exchange driver and the pool, not how
 * connections are opened nor the engine above it ({@code LayeringTest}).
 */
package dev.strand.internal.http2;
