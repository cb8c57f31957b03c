package dev.strand.internal.tls;

import dev.strand.Tls;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.time.Duration;
import java.util.List;

/**
 * A built client TLS context: what {@link TlsContexts#get} returns and caches.
 *
 * @param sslContext the Netty context; thread-safe, shared by all connections of this configuration
 * @param engine {@code "jdk"} or {@code "openssl"}, for {@code ClientStats.tlsEngine}
 * @param tls the configuration it was built from
 * @param alpn the protocols offered via ALPN, most preferred first (may be empty)
 */
public record TlsContext(SslContext sslContext, String engine, Tls tls, List<String> alpn) {
  public TlsContext {
    alpn = List.copyOf(alpn);
  }

  /**
   * A handler for one connection to {@code host:port}: SNI for host names (never for IP
   * literals), host-name verification against DNS or IP subject alternative names (unless the
   * configuration is {@link Tls#insecure()}), and a handshake bounded by
   * {@link Tls#handshakeTimeout()}, or {@code connectTimeout} when that is unset ({@code null} for
   * neither means no bound).
   *
   * @param host the origin's host as in the URL; IPv6 literals may keep their brackets
   */
  public SslHandler newHandler(ByteBufAllocator alloc, String host, int port, Duration connectTimeout) {
    // The JDK engine caches a session only under a known port (OpenSSL's cache is off in the context).
    int sessionPort = tls.sessionResumption() ? port : -1;
    SslHandler handler = TlsContexts.newHandler(sslContext, alloc, host, sessionPort, tls.verify());
    Duration timeout = tls.handshakeTimeout() != null ? tls.handshakeTimeout() : connectTimeout;
    handler.setHandshakeTimeoutMillis(timeout == null ? 0 : Math.max(1, timeout.toMillis()));
    return handler;
  }
}
