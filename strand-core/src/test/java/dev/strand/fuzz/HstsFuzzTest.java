package dev.strand.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strand.internal.client.ClientFuzzEntryPoints;
import dev.strand.internal.client.HstsStore;
import java.net.URI;

/** HSTS files (curl's format) and Strict-Transport-Security values: a store that upgrades, or ignores. */
class HstsFuzzTest {
  private static final long NOW = 1_760_000_000_000L;

  @FuzzTest
  void hstsFile(byte[] file) {
    HstsStore store = ClientFuzzEntryPoints.hstsFile(Fuzzing.utf8(file).lines().toList());
    store.upgrade(URI.create("http://example.test/"), NOW);
    store.upgrade(URI.create("http://a.b.example.test:8080/x"), NOW);
  }

  @FuzzTest
  void strictTransportSecurity(byte[] value) {
    HstsStore store = HstsStore.inMemory();
    store.record(URI.create("https://example.test/"), Fuzzing.latin1(value), NOW);
    URI up = store.upgrade(URI.create("http://sub.example.test/"), NOW);
    if (up != null && !up.getScheme().equals("https")) {
      throw new AssertionError("upgraded to " + up);
    }
  }
}
