package dev.strand;

import dev.strand.testkit.tls.TestPki;

/** The per-JVM test PKI, and a {@link Tls} that trusts only its CA, for the end-to-end TLS tests. */
public final class SharedTestPki {
  private SharedTestPki() {}

  public static TestPki get() {
    return TestPki.shared();
  }

  /** Trusts only the test CA. */
  public static Tls trustTestCa(Tls.Engine engine) {
    return Tls.builder().trustSystem(false).trustPem(get().ca().cert()).engine(engine).build();
  }
}
