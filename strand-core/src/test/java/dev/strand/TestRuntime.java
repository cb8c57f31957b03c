package dev.strand;

import java.io.File;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Where this test JVM found its code. Surefire runs core's tests on the module path (core, Netty and core's optional
 * dependencies there, test-only libraries on the class path), so neither {@code java.class.path} nor
 * {@code jdk.module.path} alone lists it all.
 */
final class TestRuntime {
  private TestRuntime() {}

  /** Every module-path and class-path entry of this JVM, module path first. */
  static Stream<String> entries() {
    return Stream.of("jdk.module.path", "java.class.path")
        .map(System::getProperty)
        .filter(p -> p != null && !p.isEmpty())
        .flatMap(p -> Stream.of(p.split(File.pathSeparator)));
  }

  /** {@link #entries()} as one path, for a compiler's or a child JVM's {@code -classpath}. */
  static String asClassPath() {
    return entries().collect(Collectors.joining(File.pathSeparator));
  }
}
