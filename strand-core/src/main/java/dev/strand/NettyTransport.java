package dev.strand;

import dev.strand.internal.netty.NettyEngine;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The default transport: HTTP/1.1 on Netty, native epoll when available (else NIO), with a
 * per-origin connection pool whose acquire, release and hand-off cost O(1) whatever its size.
 *
 * <p>{@link Client.Builder#build()} creates one from the builder's {@link Limits}; build one yourself
 * to share it between clients or to tune it.
 *
 * {@snippet :
 * NettyTransport transport = NettyTransport.builder().limits(Limits.ofConnections(500)).build();
 * }
 */
public final class NettyTransport implements Transport {
  private final NettyEngine engine;

  private NettyTransport(Builder b) {
    this.engine = new NettyEngine(b.limits, b.ioThreads, b.maxHeaderSize, b.preferNative);
  }

  /** A transport with default limits. */
  public static NettyTransport create() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public CompletableFuture<StreamingResponse> send(Request request) {
    return engine.send(request);
  }

  @Override
  public ClientStats stats() {
    return engine.stats();
  }

  @Override
  public void close() {
    engine.close();
  }

  /** Settings of a {@link NettyTransport}. */
  public static final class Builder {
    private Limits limits = Limits.DEFAULT;
    private int ioThreads = Math.max(1, Runtime.getRuntime().availableProcessors());
    private int maxHeaderSize = 64 * 1024;
    private boolean preferNative = true;

    private Builder() {}

    public Builder limits(Limits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /** Event-loop threads (default: the number of processors). */
    public Builder ioThreads(int ioThreads) {
      if (ioThreads < 1) {
        throw new IllegalArgumentException("ioThreads must be >= 1: " + ioThreads);
      }
      this.ioThreads = ioThreads;
      return this;
    }

    /** Largest response header section accepted, in bytes (default 64 KiB); larger fails with ProtocolException. */
    public Builder maxHeaderSize(int bytes) {
      if (bytes < 1024) {
        throw new IllegalArgumentException("maxHeaderSize must be >= 1024: " + bytes);
      }
      this.maxHeaderSize = bytes;
      return this;
    }

    /** Use native epoll when available (default true); false forces NIO. */
    public Builder preferNative(boolean preferNative) {
      this.preferNative = preferNative;
      return this;
    }

    public NettyTransport build() {
      return new NettyTransport(this);
    }
  }
}
