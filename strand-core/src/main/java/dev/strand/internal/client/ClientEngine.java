package dev.strand.internal.client;

import dev.strand.ClientStats;
import dev.strand.Request;
import dev.strand.Response;
import dev.strand.StreamingResponse;
import java.util.concurrent.CompletableFuture;

/** The one request path behind {@code Client}: sync calls wait for these futures. */
public final class ClientEngine {
  private final ClientConfig config;

  public ClientEngine(ClientConfig config) {
    this.config = config;
  }

  public CompletableFuture<Response> send(Request request) {
    throw new UnsupportedOperationException("TODO");
  }

  public CompletableFuture<StreamingResponse> stream(Request request) {
    throw new UnsupportedOperationException("TODO");
  }

  public ClientStats stats() {
    return config.transport().stats();
  }

  public void close() {
    config.transport().close();
  }
}
