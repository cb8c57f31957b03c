package dev.strand.internal.netty;

import dev.strand.ClientStats;
import dev.strand.Limits;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import java.util.concurrent.CompletableFuture;

/** HTTP/1.1 over Netty with a per-origin pool. */
public final class NettyEngine {
  public NettyEngine(Limits limits, int ioThreads, int maxHeaderSize, boolean preferNative) {}

  public CompletableFuture<StreamingResponse> send(Request request) {
    throw new UnsupportedOperationException("TODO");
  }

  public ClientStats stats() {
    return ClientStats.EMPTY;
  }

  public void close() {}
}
