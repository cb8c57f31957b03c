package dev.strand.hostile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.strand.Client;
import dev.strand.HttpException;
import dev.strand.Limits;
import dev.strand.Response;
import dev.strand.Timeout;
import dev.strand.testkit.CapturingLeakDetector;
import dev.strand.testkit.NettyLeakDetectorExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The HTTP/1.1 response path against generated responses: Content-Length, chunked (random chunk sizes,
 * extensions, trailers, hex spelling) and close-delimited bodies, optional interim 100, header names in
 * either case, loose whitespace, sometimes a stray response after a whole one, written in random pieces and sometimes cut
 * short. Whatever arrives, a call delivers exactly
 * the body the framing defines or fails with an {@link HttpException}, within the read timeout, and a
 * connection that failed is never used again.
 */
class Http1ResponsePropertiesTest {
  private static final Timeout TIMEOUT = Timeout.of(Duration.ofSeconds(2));
  /** Past the read timeout: a call that has not ended by then hangs. */
  private static final long HANG_MILLIS = 4_000;

  @BeforeContainer
  static void leakCapture() {
    CapturingLeakDetector.install();
  }

  @AfterContainer
  static void noLeaks() {
    NettyLeakDetectorExtension.assertNoLeaks();
  }

  @Property(tries = 200)
  void bodyIsWhatTheFramingSaysOrATypedFailure(@ForAll("responses") ResponseWire wire) throws Exception {
    try (SplitResponseServer server = new SplitResponseServer(wire);
        Client client = Client.builder().timeout(TIMEOUT).limits(Limits.ofConnections(1)).build()) {
      // The second call waits in the pool (one connection): it is handed the connection the moment the
      // first response ends, which is when bytes left over from that response could be taken for its answer.
      CompletableFuture<Response> firstCall = client.async().get(server.url("/prop"));
      CompletableFuture<Response> afterCall = client.async().get(server.url("/after"));
      Ended first = ended(firstCall);
      Ended after = ended(afterCall);
      // The report shows the mix actually tried: framings against delivered bodies and typed failures.
      Statistics.label("outcome").collect(wire.framing(),
          wire.cutAt() < 0 ? "whole" : wire.cut() < wire.headLength() ? "cut in head" : "cut in body",
          wire.strays() ? "+stray" : "",
          first.response != null ? "delivered" : first.failure.getClass().getSimpleName());
      boolean complete = wire.cutAt() < 0;
      boolean prefixIsAResponse = wire.framing() == ResponseWire.Framing.CLOSE_DELIMITED
          && wire.cut() >= wire.headLength();
      if (first.response != null) {
        Response r = first.response;
        assertTrue(complete || prefixIsAResponse, "a cut response was delivered: " + r);
        assertEquals(wire.status(), r.status());
        byte[] expected = complete ? wire.body()
            : java.util.Arrays.copyOf(wire.body(), wire.cut() - wire.headLength());
        assertArrayEquals(expected, r.bytes(), "body of " + r);
        if (wire.trailerValue() != null) {
          assertEquals(List.of(wire.trailerValue()), r.trailers().all(ResponseWire.TRAILER_NAME), r.toString());
        }
      } else {
        assertTrue(!complete, "a complete, valid response failed: " + first.failure);
        assertTrue(!prefixIsAResponse, "a close-delimited body ended by the close failed: " + first.failure);
      }
      assertEquals(SplitResponseServer.AFTER_BODY, after.response == null ? after.failure.toString()
          : after.response.text(), "the call after (a stray response must not answer it)");
      List<SplitResponseServer.Seen> seen = server.seen();
      assertEquals(2, seen.size(), seen.toString());
      if (first.failure != null || wire.serverCloses()) {
        assertNotEquals(seen.get(0).connection(), seen.get(1).connection(), "reused after " + first.failure);
      }
    }
  }

  /** A call's response, or its typed failure; anything else, or no end before the hang bound, fails the try. */
  private record Ended(Response response, HttpException failure) {}

  private static Ended ended(CompletableFuture<Response> call) throws InterruptedException {
    try {
      return new Ended(call.get(HANG_MILLIS, TimeUnit.MILLISECONDS), null);
    } catch (TimeoutException e) {
      return fail("no outcome within " + HANG_MILLIS + " ms (read timeout " + TIMEOUT.read() + ")");
    } catch (ExecutionException | CompletionException e) {
      if (e.getCause() instanceof HttpException h) {
        return new Ended(null, h);
      }
      throw new AssertionError("not an HttpException", e.getCause());
    }
  }

  @Provide
  Arbitrary<ResponseWire> responses() {
    Arbitrary<ResponseWire.Framing> framing = Arbitraries.of(ResponseWire.Framing.class);
    Arbitrary<Integer> status = Arbitraries.of(200, 201, 203, 206, 299, 400, 404, 418, 500, 503);
    // Sizes spread evenly: jqwik's default favours tiny arrays, and a cut would then nearly always fall in the head.
    Arbitrary<byte[]> body = Arbitraries.bytes().array(byte[].class).ofMaxSize(3000)
        .withSizeDistribution(RandomDistribution.uniform());
    Arbitrary<List<Integer>> chunkSizes = Arbitraries.integers().between(1, 700).list().ofMinSize(1).ofMaxSize(8);
    Arbitrary<Integer> flags = Arbitraries.integers().between(0, 255);
    Arbitrary<List<Integer>> splits = Arbitraries.integers().between(0, 100_000).list().ofMaxSize(10);
    Arbitrary<Double> cutAt = Arbitraries.frequencyOf(
        Tuple.of(2, Arbitraries.just(-1.0)),
        Tuple.of(1, Arbitraries.doubles().between(0, 0.999).ofScale(3)));
    return Combinators.combine(framing, status, body, chunkSizes, flags, splits, cutAt).as(ResponseWire::new);
  }
}
