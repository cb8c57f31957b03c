package dev.strand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Blocking and asynchronous calls are one path: the same mock gives the same results and failures. */
class SyncAsyncParityTest {
  enum Style {
    SYNC {
      @Override
      Response send(Client client, Request request) {
        return client.send(request);
      }

      @Override
      byte[] stream(Client client, Request request) throws IOException {
        try (StreamingResponse r = client.stream(request)) {
          return r.body().readAllBytes();
        }
      }
    },
    ASYNC {
      @Override
      Response send(Client client, Request request) throws Exception {
        try {
          return client.async().send(request).get();
        } catch (ExecutionException e) {
          throw (Exception) e.getCause();
        }
      }

      @Override
      byte[] stream(Client client, Request request) throws Exception {
        try (StreamingResponse r = client.async().stream(request).get()) {
          return r.readAll().bytes();
        }
      }
    };

    abstract Response send(Client client, Request request) throws Exception;

    abstract byte[] stream(Client client, Request request) throws Exception;
  }

  private static final ReadTimeoutException TIMEOUT = new ReadTimeoutException("slow", null);

  private static final Function<Request, Response> SERVER = r -> switch (r.url().getPath()) {
    case "/start" -> Response.builder(302).header("Location", "/login").build();
    case "/login" -> Response.builder(303).header("Location", "/data").header("Set-Cookie", "s=1").build();
    case "/data" -> Response.builder(200).header("Content-Encoding", "gzip")
        .body(gzip("cookie " + r.headers().first("Cookie"))).build();
    case "/slow" -> throw TIMEOUT;
    default -> Response.builder(404).body("nothing at " + r.url().getPath()).build();
  };

  private static byte[] gzip(String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(text.getBytes());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return out.toByteArray();
  }

  private static Client client() {
    return Client.builder().transport(MockTransport.of(SERVER)).baseUrl("http://h").followRedirects(true).build();
  }

  @ParameterizedTest
  @EnumSource(Style.class)
  void sameResponse(Style style) throws Exception {
    try (Client client = client()) {
      Response r = style.send(client, Request.get("/start"));
      assertEquals(200, r.status());
      assertEquals("cookie s=1", r.text());
      assertEquals("http://h/data", r.request().url().toString());
      assertEquals(2, r.history().size());
      assertEquals(404, style.send(client, Request.get("/missing")).status());
    }
  }

  @ParameterizedTest
  @EnumSource(Style.class)
  void sameStream(Style style) throws Exception {
    try (Client client = client()) {
      assertArrayEquals("cookie s=1".getBytes(), style.stream(client, Request.get("/start")));
    }
  }

  @ParameterizedTest
  @EnumSource(Style.class)
  void sameFailureUnwrapped(Style style) {
    try (Client client = client()) {
      assertSame(TIMEOUT, assertThrows(ReadTimeoutException.class, () -> style.send(client, Request.get("/slow"))));
      assertThrows(InvalidUrlException.class, () -> style.send(
          Client.builder().transport(MockTransport.of(SERVER)).build(), Request.get("/relative")));
    }
  }
}
