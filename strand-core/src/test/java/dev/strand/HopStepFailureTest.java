package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.spi.ResponseBody;
import dev.strand.spi.StreamingResponses;
import dev.strand.spi.Transport;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Cookies, decompression and hooks run as one group of steps around each hop. When a step fails on the way
 * back, after another step wrapped the response (decoding its body), the call fails with the step's exception
 * and the response the transport gave is closed, so its connection would be released.
 */
class HopStepFailureTest {
  /** A transport answering every request with a gzip body and a cookie, counting the bodies closed. */
  private static final class OneAnswer implements Transport {
    final AtomicInteger closed = new AtomicInteger();

    @Override
    public CompletableFuture<StreamingResponse> send(Request request) {
      byte[] gzip = gzip("{\"ok\":true}");
      ResponseBody body = new ResponseBody() {
        @Override
        public long contentLength() {
          return gzip.length;
        }

        @Override
        public CompletableFuture<byte[]> readAll(long maxBytes) {
          return CompletableFuture.completedFuture(gzip);
        }

        @Override
        public byte[] readChunk() {
          return null;
        }

        @Override
        public void close() {
          closed.incrementAndGet();
        }
      };
      Headers headers = Headers.of("Content-Encoding", "gzip", "Set-Cookie", "k=v; Path=/");
      return CompletableFuture.completedFuture(StreamingResponses.of(request, 200, null, headers, Version.HTTP_1_1, body));
    }

    @Override
    public void close() {}
  }

  /** A jar that refuses every response's cookies. */
  private static final class RefusingJar implements CookieJar {
    final IllegalStateException refusal = new IllegalStateException("jar is full");
    private final CookieJar jar = CookieJar.create();

    @Override
    public void saveFromResponse(URI url, List<String> setCookies) {
      throw refusal;
    }

    @Override
    public List<Cookie> loadForRequest(URI url) {
      return jar.loadForRequest(url);
    }

    @Override
    public List<Cookie> cookies() {
      return jar.cookies();
    }

    @Override
    public void add(Cookie cookie) {
      jar.add(cookie);
    }

    @Override
    public boolean remove(String name, String domain, String path) {
      return jar.remove(name, domain, path);
    }

    @Override
    public void clear() {
      jar.clear();
    }
  }

  @Test
  void aJarThatThrowsAfterTheBodyWasWrappedForDecodingClosesTheResponse() {
    OneAnswer transport = new OneAnswer();
    RefusingJar jar = new RefusingJar();
    try (Client client = Client.builder().transport(transport).cookieJar(jar).build()) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> client.get("http://example.test/"));
      assertSame(jar.refusal, e);
      assertEquals(1, transport.closed.get(), "the transport's response must be closed once");
    }
  }

  @Test
  void theSameStepsPassAResponseThroughDecodedWithItsCookieStored() {
    OneAnswer transport = new OneAnswer();
    CookieJar jar = CookieJar.create();
    try (Client client = Client.builder().transport(transport).cookieJar(jar).build()) {
      Response r = client.get("http://example.test/");
      assertEquals("{\"ok\":true}", r.text());
      assertTrue(r.headers().first("Content-Encoding") == null, "decoded");
      assertEquals("v", jar.cookies().get(0).value());
    }
  }

  private static byte[] gzip(String s) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
    return out.toByteArray();
  }
}
