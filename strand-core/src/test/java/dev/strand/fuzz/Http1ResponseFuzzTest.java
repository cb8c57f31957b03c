package dev.strand.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strand.StreamingResponse;
import dev.strand.internal.http1.EmbeddedHttp1;
import dev.strand.spi.StreamingResponses;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/**
 * HTTP/1.1 responses through the connection's own decoder on an EmbeddedChannel: the status line and header
 * block, and (with a fixed chunked head) chunk framing, extensions and trailers. Once the server's bytes end
 * (the connection closes), the response and its body have settled: a value or a Strand exception. The first
 * input byte chooses how the bytes are split into reads.
 */
class Http1ResponseFuzzTest {
  private static final int MAX_HEADER_SIZE = 8 * 1024;
  private static final long MAX_BODY = 64 * 1024;
  private static final byte[] CHUNKED_HEAD =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
  /** One client for every input: an engine per input would start and stop an event loop each time. */
  private static final EmbeddedHttp1 CLIENT = new EmbeddedHttp1(MAX_HEADER_SIZE);

  @FuzzTest
  void responseHead(byte[] wire) {
    exchange(Fuzzing.pieces(wire), new byte[0][]);
  }

  @FuzzTest
  void chunkedBody(byte[] body) {
    exchange(new byte[][] {CHUNKED_HEAD}, Fuzzing.pieces(body));
  }

  private static void exchange(byte[][] first, byte[][] then) {
    EmbeddedHttp1 h = CLIENT;
    CompletableFuture<StreamingResponse> f = h.send(EmbeddedHttp1.request("GET", "/").build());
    for (byte[] piece : first) {
      receive(h, piece);
    }
    CompletableFuture<byte[]> body = null;
    if (f.isDone() && !f.isCompletedExceptionally()) {
      body = StreamingResponses.body(f.join()).readAll(MAX_BODY);
    }
    for (byte[] piece : then) {
      receive(h, piece);
    }
    // The server's bytes end: the connection closes, and the next input gets a new one from the pool.
    h.channel.close();
    h.channel.runPendingTasks();
    h.written(); // releases the request's bytes
    StreamingResponse r = Fuzzing.settled(f, "response head");
    if (r == null) {
      return;
    }
    if (body == null) {
      body = StreamingResponses.body(r).readAll(MAX_BODY);
      h.channel.runPendingTasks();
    }
    byte[] bytes = Fuzzing.settled(body, "response body");
    if (bytes != null && bytes.length > MAX_BODY) {
      throw new AssertionError("body of " + bytes.length + " bytes past the limit of " + MAX_BODY);
    }
    r.trailers();
    r.headers().toString();
  }

  /** One read from the server, unless the client has closed the connection already (it stops reading then). */
  private static void receive(EmbeddedHttp1 h, byte[] piece) {
    if (h.channel.isOpen()) {
      h.receive(piece);
    }
  }
}
