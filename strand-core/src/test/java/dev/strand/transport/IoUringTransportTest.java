package dev.strand.transport;

import static dev.strand.transport.TransportFixture.fetch;
import static dev.strand.transport.TransportFixture.get;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.ConnectException;
import dev.strand.NettyTransport;
import dev.strand.Response;
import dev.strand.Version;
import dev.strand.VersionPolicy;
import dev.strand.internal.connect.EventLoops;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServer;
import dev.strand.testkit.TestServerExtension;
import io.netty.channel.uring.IoUring;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -Dstrand.io=io_uring}: io_uring where the kernel has it, epoll where it does not, and requests
 * round-trip on whichever runs. The io_uring jars are on this module's test path, so only the kernel decides here.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class IoUringTransportTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.of(() -> TestServer.builder().http2(true).build());

  /** What {@code strand.io=io_uring} must give on this machine, and why when it is not io_uring. */
  private static final String EXPECTED = IoUring.isAvailable() ? "io_uring" : "epoll";
  private static final String WHY = IoUring.isAvailable() ? "io_uring is available"
      : "io_uring is unavailable: " + IoUring.unavailabilityCause();

  @AfterEach
  void clearProperty() {
    System.clearProperty(EventLoops.PROPERTY);
  }

  @Test
  void ioUringWhenTheKernelHasItElseEpoll() throws Exception {
    System.setProperty(EventLoops.PROPERTY, "io_uring");
    try (NettyTransport t = TransportFixture.transport(4)) {
      assertEquals(EXPECTED, t.stats().transport(), WHY);
      for (int i = 0; i < 10; i++) {
        Response r = fetch(t, get(server.get(), "/small"));
        assertEquals(200, r.status());
        assertArrayEquals(Payloads.SMALL, r.bytes());
      }
      assertArrayEquals(Payloads.BIG, fetch(t, get(server.get(), "/big")).bytes());
      assertArrayEquals(Payloads.bytes(100000), fetch(t, get(server.get(), "/chunked/100000")).bytes());
      assertEquals(1, t.stats().connectionsOpened(), "kept alive on " + t.stats().transport());
    }
  }

  @Test
  void h2cOverTheRequestedTransport() {
    System.setProperty(EventLoops.PROPERTY, "io_uring");
    try (Client client = Client.builder().version(VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE).build()) {
      Response r = client.get(server.get().url("/small"));
      assertEquals(Version.HTTP_2, r.version());
      assertArrayEquals(Payloads.SMALL, r.bytes());
      assertEquals(EXPECTED, client.stats().transport(), WHY);
    }
  }

  /** The Unix-domain channel comes from the same transport as the loops (Netty will not mix them), with its address type. */
  @Test
  void aMissingUnixSocketFailsTheSameWay(@TempDir Path dir) {
    System.setProperty(EventLoops.PROPERTY, "io_uring");
    Path missing = dir.resolve("nobody.sock");
    try (Client client = Client.builder().unixSocket(missing).build()) {
      assertEquals(EXPECTED, client.stats().transport(), WHY);
      ConnectException e = assertThrows(ConnectException.class, () -> client.get("http://localhost/"));
      assertTrue(e.getMessage().contains("unix socket " + missing), e.getMessage());
    }
  }

  @Test
  void preferNativeFalseStillMeansNio() throws Exception {
    System.setProperty(EventLoops.PROPERTY, "io_uring");
    try (NettyTransport t = NettyTransport.builder().preferNative(false).ioThreads(1).build()) {
      assertEquals("nio", t.stats().transport());
      assertArrayEquals(Payloads.SMALL, fetch(t, get(server.get(), "/small")).bytes());
    }
  }

  @Test
  void epollAndNioByName() {
    System.setProperty(EventLoops.PROPERTY, "nio");
    try (NettyTransport t = NettyTransport.builder().ioThreads(1).build()) {
      assertEquals("nio", t.stats().transport());
    }
    System.setProperty(EventLoops.PROPERTY, "epoll");
    try (NettyTransport t = NettyTransport.builder().ioThreads(1).build()) {
      assertEquals("epoll", t.stats().transport());
    }
  }

  @Test
  void aMisspelledTransportIsRejected() {
    System.setProperty(EventLoops.PROPERTY, "iouring");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NettyTransport.builder().build());
    assertTrue(e.getMessage().contains("io_uring, epoll or nio"), e.getMessage());
  }
}
