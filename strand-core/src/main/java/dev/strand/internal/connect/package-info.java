/**
 * Opening connections: names resolved and every address raced with Happy Eyeballs
 * ({@link dev.strand.internal.connect.AddressRace}), proxies and tunnels, TLS and ALPN, and the protocol
 * agreed, before a framing takes the channel over. Knows the framings it sets up; sees the engine only
 * through {@link dev.strand.internal.connect.ConnectContext} ({@code LayeringTest}).
 */
package dev.strand.internal.connect;
