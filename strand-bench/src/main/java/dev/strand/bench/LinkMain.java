package dev.strand.bench;

import dev.strand.testkit.LinkShaper;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * A shaped link's process for {@code --link}: one {@link LinkShaper} in front of {@code --target HOST:PORT} with
 * {@code --spec SPEC}. Prints {@code LINK <port>} and exits when its standard input closes, as {@link ServerMain}.
 * The relay runs in its own JVM so that its event loop shares neither a heap (and its collector's pauses) nor a
 * JIT with the orchestrator, and its CPU is never counted as a client's.
 */
public final class LinkMain {

  private LinkMain() {
  }

  public static void main(String[] args) throws IOException {
    String spec = null;
    String target = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--spec" -> spec = args[++i];
        case "--target" -> target = args[++i];
        default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
      }
    }
    if (spec == null || target == null) {
      throw new IllegalArgumentException("usage: LinkMain --spec SPEC --target HOST:PORT");
    }
    int colon = target.lastIndexOf(':');
    InetSocketAddress to = new InetSocketAddress(target.substring(0, colon), Integer.parseInt(target.substring(colon + 1)));
    try (LinkShaper shaper = LinkShaper.builder(to).spec(spec).build()) {
      System.out.println("LINK " + shaper.port());
      System.out.flush();
      while (System.in.read() >= 0) {
        // Wait for the parent to close our stdin (or die).
      }
    }
    System.exit(0);
  }
}
