package dev.strand.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.Limits;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.Timeout;
import dev.strand.VersionPolicy;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import dev.strand.testkit.TestServerExtension;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The request side of hygiene: a streamed body that is longer or shorter than the length it declared
 * is refused with a message saying so, on HTTP/1.1 and HTTP/2, and its connection is not used again
 * (the server saw a request it cannot frame).
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class RequestBodyLengthTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.of(() -> TestServer.builder().http2(true).build());

  @ParameterizedTest(name = "{0}: {1} bytes declared as {2}")
  @CsvSource({
      "HTTP_1_1, 200000, 100000, longer than its Content-Length of 100000",
      "HTTP_1_1, 100000, 200000, ended after 100000 bytes but its Content-Length is 200000",
      "HTTP_2_PRIOR_KNOWLEDGE, 200000, 100000, longer than its Content-Length of 100000",
      "HTTP_2_PRIOR_KNOWLEDGE, 100000, 200000, ended after 100000 bytes but its Content-Length is 200000"})
  void aBodyOfTheWrongLengthIsRefused(VersionPolicy version, int actual, long declared, String message) {
    try (Client client = Client.builder().version(version).limits(Limits.ofConnections(1))
        .timeout(Timeout.of(Duration.ofSeconds(5))).build()) {
      Request bad = Request.builder("POST", server.url("/sink"))
          .body(RequestBody.ofInputStream(new ByteArrayInputStream(new byte[actual]), declared, "application/octet-stream"))
          .build();
      ProtocolException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
          () -> assertThrows(ProtocolException.class, () -> client.send(bad)));
      assertTrue(e.getMessage().contains(message), e.getMessage());
      PoolCheck.settled(client);
      assertEquals(200, client.get(server.url("/small")).status(), "the next call gets a sound connection");
    }
  }
}
