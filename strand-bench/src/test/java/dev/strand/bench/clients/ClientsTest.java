package dev.strand.bench.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClientsTest {
  /** The io_uring variant asks its own JVM for io_uring and brings the jars only that JVM sees. */
  @Test
  void theIoUringVariantHasItsOwnJvmArgsAndJars() {
    Clients.Entry e = Clients.get("strand-iouring");
    assertEquals(List.of("-Dstrand.io=io_uring"), e.jvmArgs());
    assertEquals("lib-iouring", e.extraLib());
    assertFalse(Clients.javaClients().contains("strand-iouring"), "a variant, not a peer");
    assertNull(Clients.unsupported("strand-iouring", Wire.H3, false));
  }

  @Test
  void everyOtherClientRunsOnTheSharedClassPathWithNoExtraArgs() {
    Clients.Entry e = Clients.get("strand");
    assertEquals(List.of(), e.jvmArgs());
    assertNull(e.extraLib());
  }
}
