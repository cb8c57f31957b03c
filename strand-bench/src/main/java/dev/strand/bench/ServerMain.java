package dev.strand.bench;

import dev.strand.testkit.TestServer;
import java.io.IOException;

/**
 * The embedded server's process: a testkit {@link TestServer} on loopback. Prints {@code LISTENING <base URI>}
 * once bound and exits when its standard input closes, so it never outlives the bench that started it.
 */
public final class ServerMain {

  private ServerMain() {
  }

  public static void main(String[] args) throws IOException {
    String host = "127.0.0.1";
    int threads = 1;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--host" -> host = args[++i];
        case "--threads" -> threads = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
      }
    }
    TestServer server = TestServer.builder().host(host).port(0).ioThreads(threads).build();
    System.out.println("LISTENING " + server.baseUri() + " " + server.transportName());
    System.out.flush();
    while (System.in.read() >= 0) {
      // Wait for the parent to close our stdin (or die).
    }
    server.close();
    System.exit(0);
  }
}
