package dev.strand.bench;

import dev.strand.bench.clients.Wire;
import java.util.ArrayList;
import java.util.List;

/**
 * A scenario as named on the command line: a path on the cleartext HTTP/1.1 server ({@code /small}, {@code /big},
 * {@code /delay/MS}), or {@code https} / {@code h2} / {@code h2c} ({@code /small} over HTTPS/1.1, HTTP/2 by ALPN,
 * HTTP/2 with prior knowledge), or {@code handshake-jdk} / {@code handshake-openssl} (strand only, every request
 * on a new TLS connection: the req/s are handshakes/s).
 */
record Scenario(String name, String path, Wire wire, String engine) {

  static final List<String> NAMED = List.of("https", "h2", "h2c", "handshake-jdk", "handshake-openssl");

  static Scenario of(String name) {
    return switch (name) {
      case "https" -> new Scenario(name, "/small", Wire.H1_TLS, null);
      case "h2" -> new Scenario(name, "/small", Wire.H2_TLS, null);
      case "h2c" -> new Scenario(name, "/small", Wire.H2C, null);
      case "handshake-jdk" -> new Scenario(name, "/small", Wire.H1_TLS, "jdk");
      case "handshake-openssl" -> new Scenario(name, "/small", Wire.H1_TLS, "openssl");
      default -> new Scenario(name, name, Wire.H1, null);
    };
  }

  /** Command-line spellings to scenario names: a leading slash for paths, {@code handshake} for both engines. */
  static List<String> normalize(List<String> given) {
    List<String> out = new ArrayList<>();
    for (String s : given) {
      if (s.equals("handshake")) {
        out.addAll(List.of("handshake-jdk", "handshake-openssl"));
      } else if (NAMED.contains(s)) {
        out.add(s);
      } else {
        out.add(s.startsWith("/") ? s : "/" + s);
      }
    }
    return out;
  }

  boolean handshake() {
    return engine != null;
  }

  /** Needs the HTTPS or h2c server. */
  boolean needsTlsServers() {
    return wire != Wire.H1;
  }
}
