package dev.strand;

import dev.strand.testkit.tls.TestPki;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** One {@link TestPki} per test JVM for the end-to-end TLS tests (generating one takes seconds). Read-only. */
final class SharedTestPki {
  private SharedTestPki() {}

  private static final class Holder {
    static final TestPki PKI = generate();

    private static TestPki generate() {
      try {
        Path dir = Files.createTempDirectory("strand-e2e-pki");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir)));
        return TestPki.generate(dir);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static void delete(Path dir) {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException ignored) {
        // a temp directory left behind is harmless
      }
    }
  }

  static TestPki get() {
    return Holder.PKI;
  }

  /** Trusts only the test CA. */
  static Tls trustTestCa(Tls.Engine engine) {
    return Tls.builder().trustSystem(false).trustPem(get().ca().cert()).engine(engine).build();
  }
}
