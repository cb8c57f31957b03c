package dev.strand.bench;

import dev.strand.testkit.Http3TestServer;
import dev.strand.testkit.TestServer;
import dev.strand.testkit.tls.TestPki;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The embedded server's process: testkit {@link TestServer}s on loopback. The cleartext HTTP/1.1 server
 * always; with {@code --tls-dir DIR} also an HTTPS server (ALPN offers h2 and http/1.1, certificate from a
 * fresh {@link TestPki} in DIR), an h2c server (prior knowledge) and an {@link Http3TestServer} (QUIC, the same
 * certificate). Prints {@code TLS <base> <ca.pem>}, {@code H2C <base>} and {@code H3 <base>} for those, then {@code LISTENING <base URI> <transport>}, and exits when its standard
 * input closes, so it never outlives the bench that started it.
 */
public final class ServerMain {

  /** High enough that one HTTP/2 connection carries every level the bench runs. */
  static final int MAX_STREAMS = 1000;

  private ServerMain() {
  }

  public static void main(String[] args) throws IOException {
    String host = "127.0.0.1";
    int threads = 1;
    Path tlsDir = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--host" -> host = args[++i];
        case "--threads" -> threads = Integer.parseInt(args[++i]);
        case "--tls-dir" -> tlsDir = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
      }
    }
    TestServer server = TestServer.builder().host(host).port(0).ioThreads(threads).build();
    TestServer tls = null;
    TestServer h2c = null;
    Http3TestServer h3 = null;
    if (tlsDir != null) {
      TestPki pki = TestPki.generate(tlsDir);
      tls = TestServer.builder().host(host).port(0).ioThreads(threads)
          .tls(pki.server().cert(), pki.server().key()).http2(true).maxConcurrentStreams(MAX_STREAMS).build();
      h2c = TestServer.builder().host(host).port(0).ioThreads(threads).http2(true)
          .maxConcurrentStreams(MAX_STREAMS).build();
      System.out.println("TLS " + tls.baseUri() + " " + pki.ca().cert().toAbsolutePath());
      System.out.println("H2C " + h2c.baseUri());
      h3 = Http3TestServer.start(pki.server().cert(), pki.server().key(), MAX_STREAMS);
      System.out.println("H3 " + h3.url(""));
    }
    System.out.println("LISTENING " + server.baseUri() + " " + server.transportName());
    System.out.flush();
    while (System.in.read() >= 0) {
      // Wait for the parent to close our stdin (or die).
    }
    server.close();
    if (tls != null) {
      tls.close();
      h2c.close();
      h3.close();
    }
    System.exit(0);
  }
}
