package dev.strand.http3.internal;

import dev.strand.ConnectException;
import dev.strand.Request;
import dev.strand.Timeout;
import dev.strand.Tls;
import dev.strand.TlsException;
import dev.strand.internal.exchange.Exchange;
import dev.strand.internal.exchange.NettyConnection;
import dev.strand.internal.netty.NettyEngine;
import dev.strand.internal.pool.Connector;
import dev.strand.internal.pool.Origin;
import dev.strand.internal.pool.Waiter;
import dev.strand.internal.tls.TlsContexts;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.quic.Quic;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Opens QUIC connections for the engine's pool: builds the QUIC TLS context from the client's
 * {@link Tls} settings once (the same trust manager and client key as TCP, through
 * {@link TlsContexts}), resolves the host off the event loops, and hands the rest to
 * {@link Http3Connection#open}. Exactly one of {@link NettyEngine#http3Connected} or
 * {@link NettyEngine#http3Failed} follows each {@link #connect}.
 */
final class QuicConnector implements Connector<NettyConnection> {
  /** Streams assumed before a server's transport parameters are known. */
  static final int DEFAULT_STREAMS = 100;

  private final NettyEngine engine;
  private final Tls tls;
  private CompletableFuture<QuicSslContext> context; // guarded by this

  /** @throws IllegalArgumentException for TLS settings QUIC cannot use */
  QuicConnector(NettyEngine engine) {
    this.engine = engine;
    this.tls = engine.tlsSettings();
    if (tls.sslContext() != null) {
      throw new IllegalArgumentException("Tls.sslContext(...) cannot be used for HTTP/3: QUIC's TLS 1.3 runs in "
          + "BoringSSL, so give the trust and client key as files (trustPem, clientCertificate or clientPkcs12)");
    }
  }

  @Override
  public void connect(Origin quic, Waiter<NettyConnection> forWaiter) {
    Request request = forWaiter instanceof Exchange x ? x.request() : null;
    Duration limit = request != null && request.timeout() != null ? request.timeout().connect() : Timeout.DEFAULT.connect();
    sslContext().whenComplete((ctx, error) -> {
      if (error != null) {
        engine.http3Failed(quic, error instanceof TlsException t ? t : new TlsException(TlsException.Reason.OTHER,
            "cannot set up TLS for HTTP/3: " + error.getMessage() + suffix(request), request, error));
        return;
      }
      var target = engine.dialing().target(quic.socketHost(), quic.port()); // curl's --connect-to applies here too
      String host = target.host();
      int port = target.port();
      if (NetUtil.isValidIpV4Address(host) || NetUtil.isValidIpV6Address(host)) {
        Http3Connection.open(engine, quic, ctx, new InetSocketAddress(host, port), limit, request);
        return;
      }
      Thread.ofVirtual().name("strand-resolve").start(() -> {
        try {
          // QUIC takes the resolver's first address: no Happy Eyeballs over UDP (the TCP fallback covers it).
          InetAddress address = engine.dialing().dns().lookup(host).get(0);
          Http3Connection.open(engine, quic, ctx, new InetSocketAddress(address, port), limit, request);
        } catch (Exception e) {
          engine.http3Failed(quic, new ConnectException("cannot connect to " + host + ":" + port
              + " over QUIC: unknown host" + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")") + suffix(request),
              request, e));
        }
      });
    });
  }

  @Override
  public int expectedCapacity(Origin origin) {
    return DEFAULT_STREAMS;
  }

  /** The QUIC TLS context, built once on a virtual thread (the system trust store takes a while to read). */
  private synchronized CompletableFuture<QuicSslContext> sslContext() {
    if (context == null || context.isCompletedExceptionally()) {
      CompletableFuture<QuicSslContext> f = new CompletableFuture<>();
      context = f;
      Thread.ofVirtual().name("strand-quic-tls-init").start(() -> {
        try {
          f.complete(build(tls));
        } catch (Exception | Error e) {
          f.completeExceptionally(e);
        }
      });
    }
    return context;
  }

  private static QuicSslContext build(Tls tls) throws Exception {
    if (!Quic.isAvailable()) {
      throw new IllegalStateException("QUIC is not available on this platform (netty-codec-native-quic for it is "
          + "missing): " + Quic.unavailabilityCause(), Quic.unavailabilityCause());
    }
    QuicSslContextBuilder b = QuicSslContextBuilder.forClient()
        .trustManager(TlsContexts.trustManager(tls))
        .applicationProtocols(Http3.supportedApplicationProtocols())
        .endpointIdentificationAlgorithm(tls.verify() ? "HTTPS" : null);
    TlsContexts.ClientKey key = TlsContexts.clientKey(tls);
    if (key != null) {
      b.keyManager(key.key(), null, key.chain());
    }
    return b.build();
  }

  static String suffix(Request request) {
    return request == null ? "" : " (" + request + ")";
  }
}
