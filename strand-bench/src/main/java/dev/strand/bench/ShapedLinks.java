package dev.strand.bench;

import dev.strand.bench.clients.Wire;
import dev.strand.testkit.LinkShaper;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code --link}: every TCP listener a scenario uses reached through a {@link LinkShaper} with the one spec, so
 * every client, the references included, crosses the same round trip and rate. One shaper per listener, made on
 * first use, closed with this. HTTP/3 runs on UDP, which a TCP relay cannot carry: those scenarios get no URL.
 */
final class ShapedLinks implements AutoCloseable {
  private final String spec;
  private final Map<URI, LinkShaper> shapers = new LinkedHashMap<>();

  /** @param spec LinkShaper's spec ({@code rtt=20ms,rate=200mbit}), or {@code null} for no shaping */
  ShapedLinks(String spec) {
    this.spec = spec;
    if (spec != null) {
      LinkShaper.builder(new InetSocketAddress("127.0.0.1", 1)).spec(spec); // a bad spec fails before any run
    }
  }

  /** {@code server} as the clients should reach it for {@code wire}: itself, or a shaper in front of it. */
  URI through(URI server, Wire wire) {
    if (spec == null || server == null) {
      return server;
    }
    if (wire == Wire.H3) {
      return null;
    }
    LinkShaper shaper = shapers.computeIfAbsent(server, s -> LinkShaper.builder(
        new InetSocketAddress(s.getHost(), s.getPort() > 0 ? s.getPort() : s.getScheme().equals("https") ? 443 : 80))
        .spec(spec).build());
    return URI.create(server.getScheme() + "://" + server.getHost() + ":" + shaper.port() + "/");
  }

  /** For the report's notes. */
  String describe() {
    return "every client through one LinkShaper per server listener (" + spec + ", a user-space TCP relay in the"
        + " bench's own JVM; HTTP/3 not shaped, so not run)";
  }

  @Override
  public void close() {
    shapers.values().forEach(LinkShaper::close);
  }
}
