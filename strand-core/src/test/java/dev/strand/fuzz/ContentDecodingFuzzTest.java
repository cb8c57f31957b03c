package dev.strand.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.Response;
import dev.strand.StreamingResponse;
import dev.strand.internal.coding.ContentEncodings;
import dev.strand.spi.StreamingResponses;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Compressed bodies (gzip, deflate, brotli, zstd) as a response's Content-Encoding delivers them. Whole bodies
 * decode within the size limit or fail with a Strand exception, however far the data would expand (a
 * decompression bomb); streamed bodies never hand out more than one read's worth at a time.
 */
class ContentDecodingFuzzTest {
  private static final long LIMIT = 256 * 1024;
  private static final Request REQUEST = Request.builder("GET", "http://example.test/z").build();

  @FuzzTest
  void gzip(byte[] body) {
    decode("gzip", body);
  }

  @FuzzTest
  void deflate(byte[] body) {
    decode("deflate", body);
  }

  @FuzzTest
  void brotli(byte[] body) {
    decode("br", body);
  }

  @FuzzTest
  void zstd(byte[] body) {
    decode("zstd", body);
  }

  private static void decode(String coding, byte[] body) {
    try {
      byte[] all = StreamingResponses.body(decoded(coding, body)).readAll(LIMIT).join();
      if (all.length > LIMIT) {
        throw new AssertionError(all.length + " decoded bytes past the limit of " + LIMIT);
      }
    } catch (RuntimeException e) {
      Fuzzing.strandOnly(e);
    }
    long total = 0;
    byte[] buf = new byte[8192];
    try (InputStream in = decoded(coding, body).body()) {
      int n;
      while (total <= LIMIT && (n = in.read(buf)) >= 0) {
        total += n;
      }
    } catch (IOException e) {
      // a body stream reports a Strand exception as the cause of an IOException, or as itself
      if (!(e.getCause() instanceof HttpException) && !(e instanceof java.io.InterruptedIOException)) {
        Fuzzing.strandOnly(e);
      }
    } catch (UncheckedIOException e) {
      Fuzzing.strandOnly(e.getCause() != null ? e.getCause() : e);
    } catch (RuntimeException e) {
      Fuzzing.strandOnly(e);
    }
  }

  private static StreamingResponse decoded(String coding, byte[] body) {
    StreamingResponse raw = StreamingResponse.of(
        Response.builder(200).header("Content-Encoding", coding).body(body).request(REQUEST).build());
    return ContentEncodings.decode(raw, REQUEST);
  }
}
