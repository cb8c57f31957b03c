package dev.strand.peers;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Assumptions;

/** The real peers bin/test starts (nginx, nghttpd, httpbin, aiohttp, Caddy, proxies), found by their environment. */
public final class Peers {
  private Peers() {}

  /** The peer URL bin/test exported as {@code name}; a failure on CI without it, else the test is skipped. */
  public static String env(String name) {
    String v = System.getenv(name);
    if (v == null || v.isBlank()) {
      if ("true".equals(System.getenv("CI"))) {
        fail(name + " is not set on CI: run the tests through bin/test, which starts the peers");
      }
      Assumptions.abort(name + " is not set: no peer to test against (bin/test starts them)");
    }
    return v;
  }
}
