package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Credentials in URLs and credential headers never reach {@code toString()} or exception messages. */
@ExtendWith(NettyLeakDetectorExtension.class)
class SecretsInMessagesTest {
  private static final String SECRET = "s3cr3t-pw";

  @Test
  void aRequestPrintsItsUrlWithoutUserInformation() {
    Request r = Request.get("http://alice:" + SECRET + "@127.0.0.1:8080/a?b=c");
    assertEquals("GET http://***@127.0.0.1:8080/a?b=c", r.toString());
    assertEquals("alice:" + SECRET, r.url().getUserInfo(), "the URL itself keeps them, for whoever sends it");
  }

  @Test
  void headersPrintCredentialFieldsRedacted() {
    Headers h = Headers.of("Authorization", "Bearer " + SECRET, "Cookie", "sid=" + SECRET,
        "Proxy-Authorization", "Basic " + SECRET, "Set-Cookie", "sid=" + SECRET, "Accept", "text/plain");
    String text = h.toString();
    assertFalse(text.contains(SECRET), text);
    assertTrue(text.contains("Accept: text/plain"), text);
    assertTrue(text.contains("Authorization: <redacted>"), text);
  }

  @Test
  void aFailedCallNamesTheUrlWithoutItsPassword() throws IOException {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = s.getLocalPort();
    }
    try (Client client = Client.builder().timeout(Timeout.of(Duration.ofSeconds(2))).build()) {
      ConnectException e = assertThrows(ConnectException.class,
          () -> client.get("http://alice:" + SECRET + "@127.0.0.1:" + closedPort + "/x"));
      assertFalse(e.getMessage().contains(SECRET), e.getMessage());
      assertFalse(e.toString().contains(SECRET), e.toString());
      assertTrue(e.getMessage().contains("127.0.0.1:" + closedPort), e.getMessage());
    }
  }

  @Test
  void anInvalidUrlIsRefusedWithoutEchoingItsPassword() {
    InvalidUrlException e = assertThrows(InvalidUrlException.class,
        () -> Request.get("http://alice:" + SECRET + "@127.0.0.1:99999/"));
    assertFalse(e.getMessage().contains(SECRET), e.getMessage());
    assertFalse(e.url().contains(SECRET), e.url());
    assertTrue(e.getMessage().contains("port 99999"), e.getMessage());
  }
}
