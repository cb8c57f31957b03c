package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLSession;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A second connection to an origin resumes the first one's TLS session, on both engines, and
 * {@link EventListener#tlsResumed} says so. The first connection is closed before the second: two
 * clients with equal {@link Tls} settings share one context, and so one session cache.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class TlsResumptionTest {
  static java.util.stream.Stream<Tls.Engine> engines() {
    return HttpsTest.engines();
  }

  /** Records, per handshake, whether it resumed. */
  static final class Handshakes implements EventListener {
    final List<Boolean> resumed = new CopyOnWriteArrayList<>();
    private volatile boolean pending;

    @Override
    public void tlsResumed(Call call, long nanos, SSLSession session) {
      pending = true;
    }

    @Override
    public void tlsEnd(Call call, long nanos, SSLSession session, String alpn) {
      resumed.add(pending);
      pending = false;
    }
  }

  static Response getOnNewClient(Tls tls, Handshakes events, String url) {
    try (Client client = Client.builder().tls(tls).eventListener(events).build()) {
      return client.get(url);
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void theSecondConnectionResumes(Tls.Engine engine) {
    try (TestServer server = HttpsTest.tlsServer(true)) {
      Tls tls = SharedTestPki.trustTestCa(engine);
      Handshakes events = new Handshakes();
      String url = "https://localhost:" + server.port() + "/small";
      assertEquals(200, getOnNewClient(tls, events, url).status());
      assertEquals(200, getOnNewClient(tls, events, url).status());
      assertEquals(List.of(false, true), events.resumed, "a full handshake, then a resumed one");
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void withResumptionOffEveryHandshakeIsFull(Tls.Engine engine) {
    try (TestServer server = HttpsTest.tlsServer(true)) {
      Tls tls = SharedTestPki.trustTestCa(engine).toBuilder().sessionResumption(false).build();
      Handshakes events = new Handshakes();
      String url = "https://localhost:" + server.port() + "/small";
      for (int i = 0; i < 3; i++) {
        assertEquals(200, getOnNewClient(tls, events, url).status());
      }
      assertEquals(List.of(false, false, false), events.resumed, "as curl's --no-sessionid");
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void anotherOriginDoesNotResume(Tls.Engine engine) {
    try (TestServer server = HttpsTest.tlsServer(true)) {
      Tls tls = SharedTestPki.trustTestCa(engine);
      Handshakes events = new Handshakes();
      assertEquals(200, getOnNewClient(tls, events, "https://localhost:" + server.port() + "/small").status());
      assertEquals(200, getOnNewClient(tls, events, "https://127.0.0.1:" + server.port() + "/small").status());
      assertFalse(events.resumed.get(1), "sessions are cached by host and port");
      assertTrue(events.resumed.size() == 2);
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void aResumedHandshakeStillPassesThePins(Tls.Engine engine) {
    try (TestServer server = HttpsTest.tlsServer(true)) {
      String pin = dev.strand.internal.tls.Pins.pinOf(SharedTestPki.get().server().certificate());
      Tls pinned = SharedTestPki.trustTestCa(engine).toBuilder().pin("localhost", pin).build();
      Handshakes events = new Handshakes();
      String url = "https://localhost:" + server.port() + "/small";
      assertEquals(200, getOnNewClient(pinned, events, url).status());
      assertEquals(200, getOnNewClient(pinned, events, url).status());
      assertEquals(List.of(false, true), events.resumed, "the pins were checked on the resumed session's chain");
    }
  }
}
