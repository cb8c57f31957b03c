package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.spi.ResponseBody;
import dev.strand.spi.StreamingResponses;
import dev.strand.spi.Transport;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Request and response hooks: when they run, in which order, and what a throwing hook does. */
class HooksTest {
  /** A transport whose single response records whether its body was closed or read. */
  static final class OneResponseTransport implements Transport {
    final AtomicBoolean closed = new AtomicBoolean();
    final List<Request> requests = new CopyOnWriteArrayList<>();

    @Override
    public CompletableFuture<StreamingResponse> send(Request request) {
      requests.add(request);
      ResponseBody body = new ResponseBody() {
        @Override
        public long contentLength() {
          return 2;
        }

        @Override
        public CompletableFuture<byte[]> readAll(long maxBytes) {
          return CompletableFuture.completedFuture(new byte[] {'o', 'k'});
        }

        @Override
        public byte[] readChunk() {
          return null;
        }

        @Override
        public void close() {
          closed.set(true);
        }
      };
      return CompletableFuture.completedFuture(StreamingResponses.of(request, 200, null,
          Headers.of("Content-Encoding", "gzip", "X-Raw", "1"), Version.HTTP_1_1, body));
    }

    @Override
    public void close() {}
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> void sneakyThrow(Throwable e) throws E {
    throw (E) e;
  }

  @Test
  void hooksRunInOrderAroundEachHopAndSeeTheWireView() {
    List<String> events = new CopyOnWriteArrayList<>();
    MockTransport mock = MockTransport.of(r -> {
      events.add("transport " + r.url().getPath());
      return r.url().getPath().equals("/a")
          ? Response.builder(302).header("Location", "/b").build()
          : Response.builder(200).header("Set-Cookie", "x=1").build();
    });
    try (Client client = Client.builder().transport(mock).followRedirects(true).auth(Auth.bearer("t"))
        .onRequest(r -> events.add("req1 " + r.url().getPath() + " auth=" + r.headers().contains("Authorization")))
        .onRequest(r -> events.add("req2 " + r.url().getPath()))
        .onResponse(h -> events.add("resp1 " + h.status()))
        .onResponse(h -> events.add("resp2 " + h.status()))
        .build()) {
      client.get("http://h/a");
    }
    assertEquals(List.of(
        "req1 /a auth=true", "req2 /a", "transport /a", "resp1 302", "resp2 302",
        "req1 /b auth=true", "req2 /b", "transport /b", "resp1 200", "resp2 200"), events);
  }

  @Test
  void responseHooksSeeTheHeadBeforeDecoding() {
    OneResponseTransport transport = new OneResponseTransport();
    List<String> seen = new CopyOnWriteArrayList<>();
    try (Client client = Client.builder().transport(transport)
        .onResponse(h -> seen.add(h.headers().first("Content-Encoding"))).build()) {
      StreamingResponse r = client.stream(Request.get("http://h/"));
      r.close();
      assertEquals(List.of("gzip"), seen);
    }
  }

  @Test
  void throwingRequestHookFailsTheCallBeforeAnythingIsSent() {
    MockTransport mock = MockTransport.of(r -> Response.builder(200).build());
    IllegalStateException boom = new IllegalStateException("no requests today");
    try (Client client = Client.builder().transport(mock).onRequest(r -> {
      throw boom;
    }).build()) {
      assertSame(boom, assertThrows(IllegalStateException.class, () -> client.get("http://h/")));
    }
    assertTrue(mock.requests().isEmpty());
  }

  @Test
  void throwingResponseHookClosesTheResponseAndFailsWithItsException() {
    OneResponseTransport transport = new OneResponseTransport();
    IllegalStateException boom = new IllegalStateException("bad response");
    try (Client client = Client.builder().transport(transport).onResponse(h -> {
      throw boom;
    }).build()) {
      assertSame(boom, assertThrows(IllegalStateException.class, () -> client.get("http://h/")));
      assertTrue(transport.closed.get(), "the response was not closed, so its connection leaks");
      transport.closed.set(false);
      CompletableFuture<Response> async = client.async().send(Request.get("http://h/"));
      assertSame(boom, assertThrows(java.util.concurrent.ExecutionException.class, async::get).getCause());
      assertTrue(transport.closed.get());
    }
  }

  @Test
  void checkedExceptionFromAHookIsWrappedNamingTheHook() {
    OneResponseTransport transport = new OneResponseTransport();
    IOException checked = new IOException("disk full");
    try (Client client = Client.builder().transport(transport).onResponse(h -> sneakyThrow(checked)).build()) {
      TransportException e = assertThrows(TransportException.class, () -> client.get("http://h/"));
      assertSame(checked, e.getCause());
      assertTrue(e.getMessage().contains("response hook #1"), e.getMessage());
      assertEquals("http://h/", e.request().url().toString());
      assertTrue(transport.closed.get());
    }
    try (Client client = Client.builder().transport(transport).onRequest(r -> sneakyThrow(checked)).build()) {
      TransportException e = assertThrows(TransportException.class, () -> client.get("http://h/"));
      assertInstanceOf(IOException.class, e.getCause());
      assertTrue(e.getMessage().contains("request hook #1"), e.getMessage());
    }
  }
}
