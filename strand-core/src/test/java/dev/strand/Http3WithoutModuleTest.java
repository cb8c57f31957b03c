package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Without strand-http3 on the class path (as in strand-core's own tests), asking for HTTP/3 says what to add. */
class Http3WithoutModuleTest {
  @Test
  void buildingAnHttp3ClientNamesTheMissingArtifact() {
    for (VersionPolicy v : new VersionPolicy[] {VersionPolicy.HTTP_3_ONLY, VersionPolicy.HTTP_3_ALT_SVC}) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> Client.builder().version(v).build());
      assertTrue(e.getMessage().contains("dev.strand:strand-http3"), e.getMessage());
      assertTrue(e.getMessage().contains(v.name()), e.getMessage());
    }
  }

  @Test
  void otherPoliciesNeedNoQuicClasses() {
    try (Client client = Client.builder().version(VersionPolicy.HTTP_2).build()) {
      assertEquals(ClientStats.EMPTY.open(), client.stats().open());
    }
    // Core's own code cannot need QUIC: its module descriptor does not require Netty's QUIC modules, so any
    // such reference would not compile. (QUIC classes are on this test class path anyway, through the
    // testkit's HTTP/3 server.)
  }
}
