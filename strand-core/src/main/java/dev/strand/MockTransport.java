package dev.strand;

import dev.strand.spi.Transport;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A transport that answers every request by calling a function: test code that uses a
 * {@link Client} without a network, as httpx's {@code MockTransport} does. Everything above the
 * transport (base URL, redirects, cookies, auth, hooks, decompression) runs for real.
 *
 * {@snippet :
 * MockTransport mock = MockTransport.of(request ->
 *     Response.builder(200).json("{\"ok\": true}").build());
 * try (Client client = Client.builder().transport(mock).build()) {
 *   assert client.get("https://api.example/ping").status() == 200;
 *   assert mock.requests().size() == 1;
 * }
 * }
 *
 * <p>A handler may throw an {@link HttpException} (for example a {@link ReadTimeoutException}) to
 * simulate a failure; any other exception becomes a {@link TransportException}.
 */
public final class MockTransport implements Transport {
  private final Function<Request, Response> handler;
  private final List<Request> requests = new CopyOnWriteArrayList<>();

  private MockTransport(Function<Request, Response> handler) {
    this.handler = Objects.requireNonNull(handler, "handler");
  }

  /** A transport that answers with {@code handler}'s response. */
  public static MockTransport of(Function<Request, Response> handler) {
    return new MockTransport(handler);
  }

  @Override
  public CompletableFuture<StreamingResponse> send(Request request) {
    requests.add(request);
    try {
      Response response = handler.apply(request);
      if (response == null) {
        throw new IllegalStateException("MockTransport handler returned null for " + request);
      }
      return CompletableFuture.completedFuture(StreamingResponse.of(response.toBuilder().request(request).build()));
    } catch (HttpException e) {
      return CompletableFuture.failedFuture(e);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(
          new TransportException("MockTransport handler failed: " + e, request, e));
    }
  }

  /** Every request this transport received, in order (as sent, after the client's policies). */
  public List<Request> requests() {
    return List.copyOf(requests);
  }

  @Override
  public ClientStats stats() {
    return new ClientStats("mock", "none", 0, Map.of());
  }

  @Override
  public void close() {}
}
