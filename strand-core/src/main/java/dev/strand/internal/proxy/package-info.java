/**
 * Proxies: which one a target goes through ({@link dev.strand.internal.proxy.ProxyRouter}: fixed routes
 * and {@code no_proxy} lists, a {@link java.net.ProxySelector}, the user's TLS and authenticator laid
 * over either), the proxy servers themselves, and the {@code CONNECT} handler that answers {@code 407}s
 * ({@link dev.strand.internal.proxy.HttpTunnelHandler}) and its forwarded-request twin.
 *
 * <p>Used by {@code dev.strand.Proxy} and by the engine's dialling ({@code internal.connect}) and
 * transport ({@code internal.netty}); it knows Netty's proxy handlers but nothing of the engine, the
 * pool's exchanges or the protocols ({@code LayeringTest}).
 */
package dev.strand.internal.proxy;
