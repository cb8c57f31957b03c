package dev.strand.internal.coding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdCompressCtx;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.spi.ResponseBody;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Decoding gzip, deflate (zlib and raw) and zstd, whole and chunk by chunk. */
class DecodingResponseBodyTest {
  private static final Request REQUEST = Request.get("http://h/");
  private static final byte[] TEXT = ("strand decodes this line again and again; " .repeat(500)
      + "and ends here.").getBytes(StandardCharsets.UTF_8);

  static byte[] gzip(byte[] data) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(data);
    }
    return out.toByteArray();
  }

  static byte[] deflate(byte[] data, boolean raw) {
    Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, raw);
    d.setInput(data);
    d.finish();
    byte[] buf = new byte[data.length + 1024];
    int n = d.deflate(buf);
    d.end();
    return Arrays.copyOf(buf, n);
  }

  /** A body that hands out its bytes in chunks of {@code size}, recording whether it was closed. */
  static final class ChunkedBody implements ResponseBody {
    final Deque<byte[]> chunks = new ArrayDeque<>();
    final byte[] all;
    boolean closed;

    ChunkedBody(byte[] data, int size) {
      all = data;
      for (int i = 0; i < data.length; i += size) {
        chunks.add(Arrays.copyOfRange(data, i, Math.min(data.length, i + size)));
      }
    }

    @Override
    public long contentLength() {
      return all.length;
    }

    @Override
    public CompletableFuture<byte[]> readAll(long maxBytes) {
      chunks.clear();
      return all.length > maxBytes
          ? CompletableFuture.failedFuture(new ProtocolException("too large", null))
          : CompletableFuture.completedFuture(all);
    }

    @Override
    public byte[] readChunk() {
      return chunks.poll();
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  private static byte[] readChunks(ResponseBody body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] c; (c = body.readChunk()) != null; ) {
      assertTrue(c.length > 0, "no empty chunks");
      out.writeBytes(c);
    }
    assertNull(body.readChunk(), "stays at the end");
    return out.toByteArray();
  }

  private static byte[] encode(String coding, byte[] data) throws IOException {
    return switch (coding) {
      case "gzip" -> gzip(data);
      case "deflate" -> deflate(data, false);
      case "raw-deflate" -> deflate(data, true);
      case "zstd" -> {
        try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
          yield ctx.setChecksum(true).compress(data); // without a checksum, corruption can go unnoticed
        }
      }
      default -> throw new IllegalArgumentException(coding);
    };
  }

  private static String header(String coding) {
    return coding.equals("raw-deflate") ? "deflate" : coding;
  }

  @ParameterizedTest
  @ValueSource(strings = {"gzip", "deflate", "raw-deflate", "zstd"})
  void readAllDecodes(String coding) throws IOException {
    ResponseBody body = new DecodingResponseBody(new ChunkedBody(encode(coding, TEXT), 100),
        new String[] {header(coding)}, REQUEST);
    assertArrayEquals(TEXT, body.readAll(Long.MAX_VALUE).join());
    assertEquals(-1, body.contentLength());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 7, 10, 11, 64, 4096, 1 << 20})
  void chunksSplitAnywhereDecode(int chunkSize) throws IOException {
    for (String coding : new String[] {"gzip", "deflate", "raw-deflate", "zstd"}) {
      ChunkedBody raw = new ChunkedBody(encode(coding, TEXT), chunkSize);
      ResponseBody body = new DecodingResponseBody(raw, new String[] {header(coding)}, REQUEST);
      assertArrayEquals(TEXT, readChunks(body), coding + " in chunks of " + chunkSize);
      assertTrue(raw.chunks.isEmpty(), "the raw body is read to its end, so the connection is reused");
    }
  }

  @Test
  void concatenatedGzipMembersDecodeToTheirConcatenation() throws IOException {
    byte[] a = "first member, ".getBytes(StandardCharsets.UTF_8);
    byte[] b = "second member".getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream both = new ByteArrayOutputStream();
    both.writeBytes(gzip(a));
    both.writeBytes(gzip(b));
    ResponseBody body = new DecodingResponseBody(new ChunkedBody(both.toByteArray(), 5), new String[] {"gzip"}, REQUEST);
    assertEquals("first member, second member", new String(readChunks(body), StandardCharsets.UTF_8));
  }

  @Test
  void gzipHeaderWithNameAndCommentIsSkipped() throws IOException {
    byte[] plain = gzip(TEXT);
    // FLG = FNAME | FCOMMENT, then "name\0comment\0" after the 10-byte header.
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(plain, 0, 3);
    out.write(8 | 16);
    out.write(plain, 4, 6);
    out.writeBytes("name\0comment\0".getBytes(StandardCharsets.US_ASCII));
    out.write(plain, 10, plain.length - 10);
    ResponseBody body = new DecodingResponseBody(new ChunkedBody(out.toByteArray(), 3), new String[] {"gzip"}, REQUEST);
    assertArrayEquals(TEXT, readChunks(body));
  }

  @Test
  void layeredCodingsDecodeInReverse() throws IOException {
    byte[] twice = gzip(deflate(TEXT, false)); // Content-Encoding: deflate, gzip
    ResponseBody body = new DecodingResponseBody(new ChunkedBody(twice, 50), new String[] {"deflate", "gzip"}, REQUEST);
    assertArrayEquals(TEXT, body.readAll(Long.MAX_VALUE).join());
  }

  @ParameterizedTest
  @ValueSource(strings = {"gzip", "deflate", "zstd"})
  void emptyBodyIsEmpty(String coding) {
    assertArrayEquals(new byte[0], new DecodingResponseBody(new ChunkedBody(new byte[0], 1), new String[] {coding},
        REQUEST).readAll(100).join());
    assertNull(new DecodingResponseBody(new ChunkedBody(new byte[0], 1), new String[] {coding}, REQUEST).readChunk());
  }

  @ParameterizedTest
  @ValueSource(strings = {"gzip", "deflate", "zstd"})
  void corruptDataFailsWithProtocolException(String coding) throws IOException {
    byte[] bad = encode(coding, TEXT);
    for (int i = bad.length / 3; i < bad.length * 2 / 3; i++) {
      bad[i] ^= 0x5a;
    }
    ChunkedBody raw = new ChunkedBody(bad, 64);
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> readChunks(new DecodingResponseBody(raw, new String[] {coding}, REQUEST)));
    assertTrue(e.getMessage().contains(coding), e.getMessage());
    assertTrue(raw.closed, "a corrupt stream's connection is discarded");
    CompletionException async = assertThrows(CompletionException.class,
        () -> new DecodingResponseBody(new ChunkedBody(bad, 64), new String[] {coding}, REQUEST).readAll(1 << 20).join());
    assertInstanceOf(ProtocolException.class, async.getCause());
  }

  @ParameterizedTest
  @ValueSource(strings = {"gzip", "deflate", "zstd"})
  void truncatedDataFailsWithProtocolException(String coding) throws IOException {
    byte[] full = encode(coding, TEXT);
    byte[] cut = Arrays.copyOf(full, full.length - 6);
    assertThrows(ProtocolException.class,
        () -> readChunks(new DecodingResponseBody(new ChunkedBody(cut, 100), new String[] {coding}, REQUEST)));
  }

  @Test
  void notGzipAtAllFails() {
    byte[] text = "plain text, not gzip".getBytes(StandardCharsets.UTF_8);
    CompletionException e = assertThrows(CompletionException.class,
        () -> new DecodingResponseBody(new ChunkedBody(text, 4), new String[] {"gzip"}, REQUEST).readAll(1000).join());
    assertInstanceOf(ProtocolException.class, e.getCause());
  }

  @Test
  void decodedSizeLimitStopsABomb() throws IOException {
    byte[] bomb = gzip(new byte[10 << 20]); // 10 MiB of zeros, about 10 KiB compressed
    CompletionException e = assertThrows(CompletionException.class,
        () -> new DecodingResponseBody(new ChunkedBody(bomb, 1000), new String[] {"gzip"}, REQUEST).readAll(1 << 20).join());
    ProtocolException p = assertInstanceOf(ProtocolException.class, e.getCause());
    assertTrue(p.getMessage().contains("limit"), p.getMessage());
  }

  @Test
  void encodingHeaderParsing() {
    assertArrayEquals(new String[] {"gzip"}, ContentEncodings.codings("GZIP"));
    assertArrayEquals(new String[] {"gzip"}, ContentEncodings.codings("x-gzip"));
    assertArrayEquals(new String[] {"deflate", "gzip"}, ContentEncodings.codings("deflate, identity ,gzip"));
    assertArrayEquals(new String[0], ContentEncodings.codings("identity"));
    assertArrayEquals(new String[] {"br", "gzip"}, ContentEncodings.codings("br, gzip"));
    assertNull(ContentEncodings.codings("gzip, compress"));
    assertTrue(ContentEncodings.zstdAvailable(), "zstd-jni is on the test class path");
    assertTrue(ContentEncodings.brotliAvailable(), "brotli4j is on the test class path");
    assertEquals("gzip, deflate, br, zstd", ContentEncodings.ACCEPT_ENCODING);
    assertNull(ContentEncodings.undecodable("identity"));
    assertEquals("compress is a coding this client does not decode", ContentEncodings.undecodable("gzip, compress"));
  }
}
