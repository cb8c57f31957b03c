package dev.strand.internal.tls;

import dev.strand.testkit.tls.TestPki;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** One {@link TestPki} per test JVM: generating it is the slow part of these tests. Read-only. */
final class SharedPki {
  private SharedPki() {}

  private static final class Holder {
    static final TestPki PKI = generate();

    private static TestPki generate() {
      try {
        Path dir = Files.createTempDirectory("strand-pki");
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
}
