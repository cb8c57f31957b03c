package dev.strand.internal.connect;

import dev.strand.Tls;
import dev.strand.VersionPolicy;
import dev.strand.internal.tls.TlsContext;
import dev.strand.internal.tls.TlsContexts;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The TLS context of one engine and the ALPN protocols its version policy offers. A configured
 * {@link Tls} is built at once (so a bad file fails the builder); the default {@link Tls#system()}
 * is built on the first {@code https} request, on a virtual thread: reading the system CAs takes
 * seconds on a slow machine, which a client that only speaks {@code http} should not pay.
 */
public final class TlsSetup {
  private static final List<String> HTTP_1_1 = List.of("http/1.1");
  public final Tls tls;
  final List<String> alpn;
  private volatile TlsContext context;
  private CompletableFuture<TlsContext> building; // guarded by this
  /** The HTTP/1.1-only context for WebSockets, once built (only when {@link #alpn} offers more). */
  private volatile TlsContext http1Only;

  /**
   * @param configured the user's settings, or {@code null} for the system default (built lazily, as is
   *     {@link Tls#system()} named explicitly)
   * @throws IllegalArgumentException if {@code configured} names unusable files
   */
  public TlsSetup(Tls configured, VersionPolicy policy) {
    this.alpn = policy == VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE ? List.of("h2")
        : Protocols.offersH2(policy) ? List.of("h2", "http/1.1") // TCP beside (or instead of) QUIC too
        : HTTP_1_1;
    this.tls = configured != null ? configured : Tls.system();
    // The system store is read lazily even when named explicitly (~100 ms of a CLI call that may be
    // plain http); other settings are built now, so files they name are checked up front.
    if (tls != Tls.system()) {
      context = TlsContexts.get(configured, alpn);
    }
  }

  public boolean ready() {
    return context != null;
  }

  /** The built context; only after {@link #ready()} (or {@link #whenReady()} completed). */
  TlsContext context() {
    return context;
  }

  /** Builds the default context once, off the calling thread (which may be an event loop). */
  public synchronized CompletableFuture<TlsContext> whenReady() {
    if (context != null) {
      return CompletableFuture.completedFuture(context);
    }
    if (building == null) {
      CompletableFuture<TlsContext> f = new CompletableFuture<>();
      building = f;
      // A platform thread: building loads classes and native code, which pins a virtual thread to its
      // carrier, and then the build could wait behind other pinned virtual threads for a carrier.
      Thread.ofPlatform().daemon().name("strand-tls-init").start(() -> {
        try {
          TlsContext built = TlsContexts.get(tls, alpn);
          context = built;
          f.complete(built);
        } catch (RuntimeException | Error e) {
          synchronized (this) {
            building = null; // a later request tries again
          }
          f.completeExceptionally(e);
        }
      });
    }
    return building;
  }

  /** The HTTP/1.1-only context; only after {@link #whenHttp1Ready()} completed. */
  TlsContext http1Context() {
    return alpn.equals(HTTP_1_1) ? context : http1Only;
  }

  /**
   * The context for a connection that must speak HTTP/1.1 (a WebSocket's): this engine's own when it
   * offers only http/1.1, else the same settings with ALPN limited to http/1.1, built off the calling thread.
   */
  public CompletableFuture<TlsContext> whenHttp1Ready() {
    if (alpn.equals(HTTP_1_1)) {
      return whenReady();
    }
    TlsContext built = http1Only;
    if (built != null) {
      return CompletableFuture.completedFuture(built);
    }
    CompletableFuture<TlsContext> f = new CompletableFuture<>();
    Thread.ofPlatform().daemon().name("strand-tls-init").start(() -> { // as in whenReady
      try {
        TlsContext context = TlsContexts.get(tls, HTTP_1_1);
        http1Only = context;
        f.complete(context);
      } catch (RuntimeException | Error e) {
        f.completeExceptionally(e);
      }
    });
    return f;
  }

  /** {@code "jdk"} or {@code "openssl"} once a context exists, else {@code "none"}. */
  public String engineName() {
    TlsContext c = context;
    return c == null ? "none" : c.engine();
  }
}
