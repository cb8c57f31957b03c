package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Application and network interceptors: where they sit in the chain, what they may do, and their failures. */
@ExtendWith(NettyLeakDetectorExtension.class)
class InterceptorTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @Test
  void anInterceptorRewritesTheRequest() {
    Interceptor token = chain -> chain.proceed(chain.request().toBuilder().setHeader("Authorization", "Bearer t0k").build());
    try (Client client = Client.builder().interceptor(token).build()) {
      assertEquals(200, client.get(server.url("/bearer")).status());
      assertEquals(200, client.async().get(server.url("/bearer")).join().status(), "the async call runs the same chain");
    }
  }

  @Test
  void anInterceptorReplacesTheResponseAndClosesTheOneItDrops() throws InterruptedException {
    Interceptor replace = chain -> chain.proceed(chain.request()).thenApply(r -> {
      r.close();
      return StreamingResponse.of(Response.builder(299).body("replaced").request(r.request()).build());
    });
    try (Client client = Client.builder().interceptor(replace).build()) {
      Response r = client.get(server.url("/big"));
      assertEquals(299, r.status());
      assertEquals("replaced", r.text());
      EventStreamTest.eventually(() -> client.stats().inUse() == 0, client.stats());
    }
  }

  @Test
  void anInterceptorAnswersWithoutTheNetwork() {
    MockTransport mock = MockTransport.of(r -> Response.builder(200).build());
    Interceptor cache = chain -> CompletableFuture.completedFuture(
        StreamingResponse.of(Response.builder(200).body("from cache").request(chain.request()).build()));
    try (Client client = Client.builder().transport(mock).interceptor(cache).build()) {
      assertEquals("from cache", client.get("http://127.0.0.1/x").text());
      assertEquals(0, mock.requests().size());
    }
  }

  @Test
  void anInterceptorMayProceedTwice() {
    AtomicInteger n = new AtomicInteger();
    MockTransport mock = MockTransport.of(r -> Response.builder(n.incrementAndGet() == 1 ? 401 : 200).build());
    Interceptor refreshOn401 = chain -> chain.proceed(chain.request()).thenCompose(r -> {
      if (r.status() != 401) {
        return CompletableFuture.completedFuture(r);
      }
      r.close();
      return chain.proceed(chain.request().toBuilder().setHeader("Authorization", "Bearer fresh").build());
    });
    try (Client client = Client.builder().transport(mock).interceptor(refreshOn401).build()) {
      assertEquals(200, client.get("http://127.0.0.1/x").status());
      assertEquals("Bearer fresh", mock.requests().get(1).headers().first("Authorization"));
    }
  }

  @Test
  void applicationInterceptorsSeeTheFinalResponseNetworkInterceptorsEachHop() {
    List<String> app = new CopyOnWriteArrayList<>();
    List<String> network = new CopyOnWriteArrayList<>();
    try (Client client = Client.builder().followRedirects(true)
        .interceptor(chain -> chain.proceed(chain.request()).thenApply(r -> {
          app.add(r.status() + " " + r.headers().first("Content-Encoding"));
          return r;
        }))
        .networkInterceptor(chain -> chain.proceed(chain.request()).thenApply(r -> {
          network.add(r.status() + " " + chain.request().url().getPath() + " " + r.headers().first("Content-Encoding"));
          return r;
        }))
        .build()) {
      assertEquals(200, client.get(server.url("/redirect-to?url=/gzip")).status());
    }
    assertEquals(List.of("200 null"), app, "once, decoded");
    assertEquals(List.of("302 /redirect-to null", "200 /gzip gzip"), network, "each hop, as on the wire");
  }

  @Test
  void networkInterceptorsSeeEachRetryAndItsAttemptNumber() {
    AtomicInteger n = new AtomicInteger();
    MockTransport mock = MockTransport.of(r -> Response.builder(n.incrementAndGet() < 3 ? 503 : 200).build());
    List<Integer> attempts = new CopyOnWriteArrayList<>();
    List<Integer> appAttempts = new CopyOnWriteArrayList<>();
    RetryPolicy retry = RetryPolicy.builder().backoff(Duration.ofMillis(1), Duration.ofMillis(5)).build();
    try (Client client = Client.builder().transport(mock).retry(retry)
        .interceptor(chain -> {
          appAttempts.add(chain.attempt());
          return chain.proceed(chain.request());
        })
        .networkInterceptor(chain -> {
          attempts.add(chain.attempt());
          return chain.proceed(chain.request());
        }).build()) {
      assertEquals(200, client.get("http://127.0.0.1/x").status());
    }
    assertEquals(List.of(1, 2, 3), attempts);
    assertEquals(List.of(1), appAttempts);
  }

  @Test
  void theFirstAddedIsOutermost() {
    List<String> order = new CopyOnWriteArrayList<>();
    MockTransport mock = MockTransport.of(r -> Response.builder(200).build());
    try (Client client = Client.builder().transport(mock)
        .interceptor(named("a1", order)).interceptor(named("a2", order))
        .networkInterceptor(named("n1", order)).networkInterceptor(named("n2", order))
        .onRequest(r -> order.add("hook"))
        .build()) {
      client.get("http://127.0.0.1/x");
    }
    assertEquals(List.of("a1", "a2", "n1", "n2", "hook"), order);
  }

  private static Interceptor named(String name, List<String> order) {
    return chain -> {
      order.add(name);
      return chain.proceed(chain.request());
    };
  }

  @Test
  void anInterceptorsExceptionFailsTheCallAsItIs() {
    IllegalStateException boom = new IllegalStateException("boom");
    try (Client client = Client.builder().transport(MockTransport.of(r -> Response.builder(200).build()))
        .interceptor(chain -> {
          throw boom;
        }).build()) {
      assertSame(boom, assertThrows(IllegalStateException.class, () -> client.get("http://127.0.0.1/x")));
      assertSame(boom, assertThrows(CompletionException.class, () -> client.async().get("http://127.0.0.1/x").join())
          .getCause());
    }
  }

  @Test
  void anInterceptorReturningNullIsNamed() {
    Interceptor broken = new Interceptor() {
      @Override
      public CompletableFuture<StreamingResponse> intercept(Chain chain) {
        return null;
      }

      @Override
      public String toString() {
        return "BrokenInterceptor";
      }
    };
    try (Client client = Client.builder().transport(MockTransport.of(r -> Response.builder(200).build()))
        .interceptor(broken).build()) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> client.get("http://127.0.0.1/x"));
      assertTrue(e.getMessage().contains("BrokenInterceptor"), e.getMessage());
    }
  }
}
