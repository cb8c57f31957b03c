/**
 * The engine on Netty: {@link dev.strand.internal.netty.NettyEngine} ties the pool, the dialer, the
 * HTTP/1.1 and HTTP/2 framings and the exchange driver into the transport behind
 * {@code dev.strand.NettyTransport}; HTTP/2 connection coalescing, the follow-ups that answer a proxy's
 * {@code 407} or a {@code 421} on a shared connection, and the optional HTTP/3 provider.
 *
 * <p>The top of the engine: it may use every other internal package; the public {@code NettyTransport}
 * uses it, and {@code strand-http3} plugs its QUIC connections in through
 * {@link dev.strand.internal.netty.Http3Provider}.
 */
package dev.strand.internal.netty;
