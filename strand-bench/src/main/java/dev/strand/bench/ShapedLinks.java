package dev.strand.bench;

import dev.strand.bench.clients.Wire;
import dev.strand.testkit.LinkShaper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --link}: every TCP listener a scenario uses reached through a {@link LinkShaper} with the one spec, so
 * every client, the references included, crosses the same round trip and rate. One shaper per listener, each in
 * its own JVM ({@link LinkMain}), started on first use and stopped with this. HTTP/3 runs on UDP, which a TCP
 * relay cannot carry: those scenarios get no URL.
 */
final class ShapedLinks implements AutoCloseable {
  private final String spec;
  private final Map<URI, Children.Started> shapers = new LinkedHashMap<>();

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
    Children.Started shaper = shapers.get(server);
    if (shaper == null) {
      int port = server.getPort() > 0 ? server.getPort() : server.getScheme().equals("https") ? 443 : 80;
      try {
        shaper = Children.startHelper(LinkMain.class,
            List.of("--spec", spec, "--target", server.getHost() + ":" + port), "LINK ");
      } catch (IOException e) {
        throw new UncheckedIOException("the shaped link to " + server + " did not start", e);
      }
      shapers.put(server, shaper);
    }
    String ready = shaper.lines().get(shaper.lines().size() - 1);
    return URI.create(server.getScheme() + "://" + server.getHost() + ":" + ready.substring("LINK ".length()) + "/");
  }

  /** For the report's notes. */
  String describe() {
    return "every client through one LinkShaper per server listener (" + spec + ", a user-space TCP relay in a JVM"
        + " of its own; HTTP/3 not shaped, so not run)";
  }

  @Override
  public void close() {
    shapers.values().forEach(Children.Started::stop);
  }
}
