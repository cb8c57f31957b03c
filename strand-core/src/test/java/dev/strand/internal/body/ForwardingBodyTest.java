package dev.strand.internal.body;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Headers;
import dev.strand.ProtocolException;
import dev.strand.spi.ResponseBody;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** Both ways of reading a body reach a view's hooks alike, and a hook decides what the reader sees. */
class ForwardingBodyTest {
  @Test
  void readingChunkByChunkShowsEachPieceThenTheEnd() {
    Recorder view = new Recorder(new Source("ab", "cd"));
    assertArrayEquals(bytes("ab"), view.readChunk());
    assertArrayEquals(bytes("cd"), view.readChunk());
    assertNull(view.readChunk());
    view.close();
    assertEquals(List.of("read ab", "read cd", "ended", "closed"), view.seen);
  }

  @Test
  void readingAllAtOnceShowsTheWholeBodyAsOnePieceThenTheEnd() {
    Recorder view = new Recorder(new Source("ab", "cd"));
    assertArrayEquals(bytes("abcd"), view.readAll(100).join());
    assertEquals(List.of("read abcd", "ended"), view.seen);
  }

  @Test
  void closingEarlyClosesTheSourceAndShowsNoEnd() {
    Source source = new Source("ab", "cd");
    Recorder view = new Recorder(source);
    view.readChunk();
    view.close();
    assertTrue(source.closed);
    assertEquals(List.of("read ab", "closed"), view.seen);
  }

  @Test
  void aFailureReachesTheReaderAsTheViewChoosesOnBothPaths() {
    ProtocolException wire = new ProtocolException("cut short", null);
    IllegalStateException replaced = new IllegalStateException("the view's own");
    Recorder chunked = new Recorder(new Source(wire), replaced);
    assertSame(replaced, assertThrows(IllegalStateException.class, chunked::readChunk));
    Recorder whole = new Recorder(new Source(wire), replaced);
    CompletionException e = assertThrows(CompletionException.class, () -> whole.readAll(100).join());
    assertSame(replaced, e.getCause());
    assertEquals(List.of("failed cut short"), chunked.seen);
    assertEquals(List.of("failed cut short"), whole.seen);
  }

  @Test
  void aHookThatThrowsFailsTheRead() {
    IllegalStateException late = new IllegalStateException("too late");
    ForwardingBody view = new ForwardingBody(new Source("ab")) {
      @Override
      protected void read(byte[] piece) {
        throw late;
      }
    };
    assertSame(late, assertThrows(IllegalStateException.class, view::readChunk));
    ForwardingBody whole = new ForwardingBody(new Source("ab")) {
      @Override
      protected void ended() {
        throw late;
      }
    };
    assertSame(late, assertThrows(CompletionException.class, () -> whole.readAll(100).join()).getCause());
  }

  @Test
  void lengthAndTrailersAreTheSources() {
    Source source = new Source("ab");
    Recorder view = new Recorder(source);
    assertEquals(2, view.contentLength());
    assertEquals("v", view.trailers().first("t"));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** Writes down each hook as it is called; replaces a failure when given one to replace it with. */
  private static final class Recorder extends ForwardingBody {
    final List<String> seen = new ArrayList<>();
    private final RuntimeException replacement;

    Recorder(ResponseBody body) {
      this(body, null);
    }

    Recorder(ResponseBody body, RuntimeException replacement) {
      super(body);
      this.replacement = replacement;
    }

    @Override
    protected void read(byte[] piece) {
      seen.add("read " + new String(piece, StandardCharsets.US_ASCII));
    }

    @Override
    protected void ended() {
      seen.add("ended");
    }

    @Override
    protected RuntimeException failed(RuntimeException failure) {
      seen.add("failed " + failure.getMessage());
      return replacement != null ? replacement : failure;
    }

    @Override
    protected void closed() {
      seen.add("closed");
    }
  }

  /** A body of the given pieces, or one whose every read fails. */
  private static final class Source implements ResponseBody {
    private final Deque<byte[]> pieces = new ArrayDeque<>();
    private final RuntimeException failure;
    private final long length;
    boolean closed;

    Source(String... pieces) {
      long total = 0;
      for (String p : pieces) {
        this.pieces.add(bytes(p));
        total += p.length();
      }
      this.failure = null;
      this.length = total;
    }

    Source(RuntimeException failure) {
      this.failure = failure;
      this.length = -1;
    }

    @Override
    public long contentLength() {
      return length;
    }

    @Override
    public CompletableFuture<byte[]> readAll(long maxBytes) {
      if (failure != null) {
        return CompletableFuture.failedFuture(failure);
      }
      StringBuilder all = new StringBuilder();
      for (byte[] p : pieces) {
        all.append(new String(p, StandardCharsets.US_ASCII));
      }
      pieces.clear();
      return CompletableFuture.completedFuture(bytes(all.toString()));
    }

    @Override
    public byte[] readChunk() {
      if (failure != null) {
        throw failure;
      }
      return pieces.poll();
    }

    @Override
    public Headers trailers() {
      return Headers.of("t", "v");
    }

    @Override
    public void close() {
      closed = true;
    }
  }
}
