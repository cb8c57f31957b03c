package dev.strand.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The embedded testkit server, run as its own JVM ({@link ServerMain}) so its CPU is never counted as a
 * client's and it does not share a heap or a JIT with the orchestrator.
 */
final class ServerProcess implements AutoCloseable {

  private final Children.Started process;
  private final URI baseUri;
  private final String transport;
  private final URI tlsUri;
  private final Path ca;
  private final URI h2cUri;
  private final URI h3Uri;

  private ServerProcess(Children.Started process, URI baseUri, String transport, URI tlsUri, Path ca, URI h2cUri, URI h3Uri) {
    this.h3Uri = h3Uri;
    this.process = process;
    this.baseUri = baseUri;
    this.transport = transport;
    this.tlsUri = tlsUri;
    this.ca = ca;
    this.h2cUri = h2cUri;
  }

  /** Starts the cleartext server, and with {@code tlsDir} non-null the HTTPS (h2 + http/1.1) and h2c ones. */
  static ServerProcess start(int ioThreads, Path tlsDir) throws IOException {
    List<String> args = new ArrayList<>(List.of("--host", "127.0.0.1", "--threads", Integer.toString(ioThreads)));
    if (tlsDir != null) {
      args.addAll(List.of("--tls-dir", tlsDir.toString()));
    }
    Children.Started started = Children.startHelper(ServerMain.class, args, "LISTENING ");
    List<String> extra = started.lines();
    String l = extra.get(extra.size() - 1);
    String[] parts = l.split(" ");
    URI base = URI.create(parts[1]);
    URI tls = null;
    Path ca = null;
    URI h2c = null;
    URI h3 = null;
    for (String x : extra) {
      String[] f = x.split(" ");
      if (f[0].equals("TLS")) {
        tls = URI.create(f[1]);
        ca = Path.of(f[2]);
      } else if (f[0].equals("H2C")) {
        h2c = URI.create(f[1]);
      } else if (f[0].equals("H3")) {
        h3 = URI.create(f[1]);
      }
    }
    return new ServerProcess(started, base, parts.length > 2 ? parts[2] : "?", tls, ca, h2c, h3);
  }

  URI baseUri() {
    return baseUri;
  }

  /** The HTTPS server (h2 and http/1.1 by ALPN), or null when not started. */
  URI tlsUri() {
    return tlsUri;
  }

  /** The CA certificate (PEM) that issued the HTTPS server's certificate. */
  Path ca() {
    return ca;
  }

  /** The HTTP/3 (QUIC) server, or null when not started. */
  URI h3Uri() {
    return h3Uri;
  }

  /** The h2c (prior knowledge) server, or null when not started. */
  URI h2cUri() {
    return h2cUri;
  }

  String transport() {
    return transport;
  }

  @Override
  public void close() {
    process.stop();
  }
}
