package dev.strand.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The {@code --scale} preset's two cells: far more requests in flight than a service usually has, on a server
 * slow enough that the ideal rate (in flight ÷ delay) stays within what two cores serve. A timer per request,
 * a lock on the pool, an O(n) scan or a heavy per-stream object graph shows here as a rate under the ideal or
 * as memory per request in flight.
 */
final class Scale {
  /** HTTP/2 with prior knowledge, 5 s per response: 100,000 streams make an ideal 20,000 req/s. */
  static final String H2C = "h2c:/delay/5000";
  static final int H2C_STREAMS = 100_000;
  /** HTTP/1.1, 1 s per response, one connection per request in flight. */
  static final String HTTP1 = "/delay/1000";
  static final int HTTP1_CONNECTIONS = 30_000;
  /** Files a client process needs besides its connections: the JVM's jars, its epoll and event fds, pipes. */
  private static final int FILES_BESIDES_CONNECTIONS = 1_000;

  private Scale() {
  }

  /**
   * The HTTP/1.1 level: {@link #HTTP1_CONNECTIONS}, or as many connections as a child may open when its
   * open-file limit is lower (the client and the server each hold one descriptor per connection).
   */
  static int http1Connections() {
    long room = childFileLimit() - FILES_BESIDES_CONNECTIONS;
    return (int) Math.max(1_000, Math.min(HTTP1_CONNECTIONS, room / 1_000 * 1_000));
  }

  /** Why the HTTP/1.1 level is lower than {@link #HTTP1_CONNECTIONS}, or null when it is not. */
  static String http1Note() {
    int n = http1Connections();
    return n == HTTP1_CONNECTIONS ? null : "HTTP/1.1 at " + n + " connections, not " + HTTP1_CONNECTIONS + ": a child "
        + "process may open " + childFileLimit() + " files here (the hard limit; raising it takes CAP_SYS_RESOURCE).";
  }

  /** Open files each child may have: what {@link Children#withFileLimit} gives it, else this process's hard limit. */
  static long childFileLimit() {
    return Children.raisesFileLimit() ? Children.FILE_LIMIT : hardFileLimit();
  }

  private static long hardFileLimit() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
        if (line.startsWith("Max open files")) {
          String hard = line.substring("Max open files".length()).trim().split("\\s+")[1];
          return hard.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(hard);
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux: assume the limit allows the full level, and let a failing cell say otherwise.
    }
    return Long.MAX_VALUE;
  }
}
