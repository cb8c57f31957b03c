package dev.strand.bench;

import dev.strand.bench.clients.Wire;
import java.util.ArrayList;
import java.util.List;

/**
 * A scenario as named on the command line: a path on the cleartext HTTP/1.1 server ({@code /small}, {@code /big},
 * {@code /delay/MS}), or {@code https} / {@code h2} / {@code h2c} ({@code /small} over HTTPS/1.1, HTTP/2 by ALPN,
 * HTTP/2 with prior knowledge), or {@code handshake-jdk} / {@code handshake-openssl} (strand only, every request
 * on a new TLS connection, resuming the last one's session: the req/s are handshakes/s) and
 * {@code full-handshake-jdk} / {@code full-handshake-openssl} (the same with resumption off), or {@code h3} ({@code /small} over HTTP/3 from the
 * testkit's QUIC server), or {@code caddy-h2} / {@code caddy-h3} ({@code /small.json} from the Caddy that bin/test
 * starts, {@code STRAND_CADDY_URL} and {@code STRAND_TLS_CA}, over HTTP/2 and HTTP/3); {@code NAME:PATH} is
 * another path over a named scenario's wire ({@code h2:/bytes/67108864}).
 */
record Scenario(String name, String path, Wire wire, String engine, boolean resumption) {

  static final List<String> NAMED = List.of("https", "h2", "h2c", "handshake-jdk", "handshake-openssl",
      "full-handshake-jdk", "full-handshake-openssl", "h3", "caddy-h2", "caddy-h3");

  static Scenario of(String name) {
    int colon = name.indexOf(':');
    if (colon > 0 && NAMED.contains(name.substring(0, colon))) {
      // NAME:PATH, another path over a named scenario's wire: h2c:/bytes/67108864, a 64 MiB download by h2c.
      Scenario wire = of(name.substring(0, colon));
      String path = name.substring(colon + 1);
      return new Scenario(name, path.startsWith("/") ? path : "/" + path, wire.wire(), wire.engine(),
          wire.resumption());
    }
    return switch (name) {
      case "h3" -> new Scenario(name, "/small", Wire.H3, null, true);
      case "caddy-h2" -> new Scenario(name, "/small.json", Wire.H2_TLS, null, true);
      case "caddy-h3" -> new Scenario(name, "/small.json", Wire.H3, null, true);
      case "https" -> new Scenario(name, "/small", Wire.H1_TLS, null, true);
      case "h2" -> new Scenario(name, "/small", Wire.H2_TLS, null, true);
      case "h2c" -> new Scenario(name, "/small", Wire.H2C, null, true);
      case "handshake-jdk" -> new Scenario(name, "/small", Wire.H1_TLS, "jdk", true);
      case "handshake-openssl" -> new Scenario(name, "/small", Wire.H1_TLS, "openssl", true);
      case "full-handshake-jdk" -> new Scenario(name, "/small", Wire.H1_TLS, "jdk", false);
      case "full-handshake-openssl" -> new Scenario(name, "/small", Wire.H1_TLS, "openssl", false);
      default -> new Scenario(name, name, Wire.H1, null, true);
    };
  }

  /**
   * Command-line spellings to scenario names: a leading slash for paths, {@code handshake} for both engines,
   * each resumed and full.
   */
  static List<String> normalize(List<String> given) {
    List<String> out = new ArrayList<>();
    for (String s : given) {
      if (s.equals("handshake")) {
        out.addAll(List.of("handshake-jdk", "full-handshake-jdk", "handshake-openssl", "full-handshake-openssl"));
      } else if (NAMED.contains(s) || s.indexOf(':') > 0 && NAMED.contains(s.substring(0, s.indexOf(':')))) {
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

  /** Needs the HTTPS, h2c or HTTP/3 server. */
  boolean needsTlsServers() {
    return wire != Wire.H1 && !onCaddy();
  }

  /** Runs against the external Caddy ({@code STRAND_CADDY_URL}), whose {@code /small.json} is the testkit's /small. */
  boolean onCaddy() {
    return name.startsWith("caddy-");
  }
}
