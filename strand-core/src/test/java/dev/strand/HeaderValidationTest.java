package dev.strand;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Header injection is refused before any byte is sent, with a message naming the field. */
class HeaderValidationTest {
  private final MockTransport mock = MockTransport.of(r -> Response.builder(200).build());
  private final Client client = Client.builder().transport(mock).build();

  @AfterEach
  void nothingWasSent() {
    client.close();
    assertTrue(mock.requests().isEmpty(), "the transport saw a request");
  }

  private static void assertMentions(IllegalArgumentException e, String what) {
    assertTrue(e.getMessage().contains(what), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"a\r\nX-Injected: 1", "a\nb", "a\rb", "nul\0"})
  void valueWithLineBreaksIsRefused(String value) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> client.send(Request.builder("GET", "http://h/").header("X-Field", value).build()));
    assertMentions(e, "X-Field");
  }

  @ParameterizedTest
  @ValueSource(strings = {"X Field", "X-Field\r\n", "X:Field", "", "Ünicode"})
  void invalidNameIsRefused(String name) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> client.send(Request.builder("GET", "http://h/").header(name, "v").build()));
    assertMentions(e, "header name");
  }

  @ParameterizedTest
  @ValueSource(strings = {"GET /evil", "GE\r\nT", "", "P(ST"})
  void nonTokenMethodIsRefused(String method) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> client.send(Request.builder(method, "http://h/").build()));
    assertMentions(e, "method");
  }

  @Test
  void bodyContentTypeWithLineBreakIsRefused() {
    RequestBody evil = new RequestBody() {
      @Override
      public String contentType() {
        return "text/plain\r\nX-Injected: 1";
      }

      @Override
      public long contentLength() {
        return 0;
      }

      @Override
      public InputStream openStream() {
        return InputStream.nullInputStream();
      }
    };
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> client.send(Request.builder("POST", "http://h/").body(evil).build()));
    assertMentions(e, "Content-Type");
    assertThrows(IllegalArgumentException.class,
        () -> Futures.await(client.async().send(Request.builder("POST", "http://h/").body(evil).build()), null));
  }

  @Test
  void defaultHeaderAndUserAgentAreCheckedWhenTheClientIsBuilt() {
    assertThrows(IllegalArgumentException.class, () -> Client.builder().header("X-A", "1\r\n2"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Client.builder().transport(mock).userAgent("ua\r\nX: 1").build());
    assertMentions(e, "User-Agent");
  }
}
