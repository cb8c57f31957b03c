package dev.strand.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
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

  private ServerProcess(Process process, URI baseUri, String transport) {
    this.process = process;
    this.baseUri = baseUri;
    this.transport = transport;
  }

  static ServerProcess start(int ioThreads) throws IOException {
    List<String> cmd = Children.java(List.of(), ServerMain.class,
        List.of("--host", "127.0.0.1", "--threads", Integer.toString(ioThreads)));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
      try {
        String l;
        while ((l = r.readLine()) != null) {
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
    return new ServerProcess(p, base, parts.length > 2 ? parts[2] : "?");
  }

  URI baseUri() {
    return baseUri;
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
