package dev.strand.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The embedded testkit server, run as its own JVM ({@link ServerMain}) so its CPU is never counted as a
 * client's and it does not share a heap or a JIT with the orchestrator.
 */
final class ServerProcess implements AutoCloseable {

  private final Process process;
  private final URI baseUri;
  private final String transport;
  private final URI tlsUri;
  private final Path ca;
  private final URI h2cUri;
  private final URI h3Uri;

  private ServerProcess(Process process, URI baseUri, String transport, URI tlsUri, Path ca, URI h2cUri, URI h3Uri) {
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
    List<String> cmd = Children.java(List.of(), ServerMain.class, args);
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    List<String> extra = new java.util.concurrent.CopyOnWriteArrayList<>();
    CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
      try {
        String l;
        while ((l = r.readLine()) != null) {
          extra.add(l);
          if (l.startsWith("LISTENING ")) {
            return l;
          }
        }
        return null;
      } catch (IOException e) {
        return null;
      }
    });
    String l;
    try {
      l = line.get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      l = null;
    }
    if (l == null) {
      p.destroyForcibly();
      throw new IOException("the testkit server did not start (is strand-testkit on the classpath?)");
    }
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
    return new ServerProcess(p, base, parts.length > 2 ? parts[2] : "?", tls, ca, h2c, h3);
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
    try {
      process.getOutputStream().close();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (IOException | InterruptedException e) {
      process.destroyForcibly();
    }
  }
}
