/**
 * For transport implementers: the seam between the client's policy and the wire. A {@link
 * dev.strand.spi.Transport} sends a request and delivers its response head, built with {@link
 * dev.strand.spi.StreamingResponses} over a {@link dev.strand.spi.ResponseBody} that reads the rest on
 * demand.
 *
 * <p>Users do not need this package to send requests: they choose a transport in {@code dev.strand}
 * ({@link dev.strand.NettyTransport}, or {@link dev.strand.MockTransport} for tests) and read responses
 * through {@link dev.strand.Response} and {@link dev.strand.StreamingResponse}.
 */
package dev.strand.spi;
