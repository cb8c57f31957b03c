package dev.strand.bench;

import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a client holds for the requests it has in flight: the growth of its memory from before the load to
 * the end of the timed batches, with every request still in flight, each reading taken after a full GC. Divided
 * by the requests in flight it is the memory per open connection (HTTP/1.1, one request per connection) or per
 * stream (HTTP/2, where a connection's own share is spread over its thousand streams).
 *
 * @param inFlight    requests in flight at the second reading, as the caller counts them
 * @param atServer    requests the server had in hand at the second reading (its {@code /delay} holding the
 *                    response), or 0 where the server could not say. Fewer than {@code inFlight} when the client
 *                    queues requests of its own rather than sending them
 * @param heapBytes   growth of the heap in use after a full GC; -1 where the client is not a JVM
 * @param directBytes growth of direct memory (Netty's own counter plus the JDK's direct buffers); -1 likewise
 * @param rssBytes    growth of the process's resident set, for every client: the one figure a JVM and Python share
 */
public record Memory(int inFlight, int atServer, long heapBytes, long directBytes, long rssBytes) {

  /** One reading of this JVM, after a full GC. */
  record Reading(long heap, long direct, long rss) {
    static Reading now() {
      // Twice: the first collection can leave work (finalizable objects, cleaners) for the second.
      System.gc();
      System.gc();
      long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      return new Reading(heap, Math.max(0, PlatformDependent.usedDirectMemory()) + jdkDirect(), residentSet());
    }

    Memory to(Reading later, int inFlight, int atServer) {
      return new Memory(inFlight, atServer, later.heap - heap, later.direct - direct, later.rss - rss);
    }
  }

  /** Heap and direct growth per request in flight, bytes; null where the client is not a JVM. */
  public Double liveBytesPerRequest() {
    return heapBytes < 0 ? null : (double) (heapBytes + directBytes) / inFlight;
  }

  /**
   * Heap and direct growth per request the server had in hand: per open connection (HTTP/1.1) or open stream
   * (HTTP/2) actually carrying a request. Null where the client is not a JVM or the server could not say.
   */
  public Double liveBytesPerServerRequest() {
    return heapBytes < 0 || atServer <= 0 ? null : (double) (heapBytes + directBytes) / atServer;
  }

  /** Resident-set growth per request the server had in hand, bytes; null where the server could not say. */
  public Double rssBytesPerServerRequest() {
    return atServer <= 0 ? null : (double) rssBytes / atServer;
  }

  /** Resident-set growth per request in flight, bytes. */
  public double rssBytesPerRequest() {
    return (double) rssBytes / inFlight;
  }

  /** Direct buffers the JDK tracks (those with a cleaner: the JDK client's, Jetty's, Netty's without its own count). */
  private static long jdkDirect() {
    for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if (b.getName().equals("direct")) {
        return b.getMemoryUsed();
      }
    }
    return 0;
  }

  /** This process's resident set from /proc, bytes; 0 where there is no /proc. */
  static long residentSet() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | NumberFormatException e) {
      // Not Linux: reported as no growth rather than failing the cell.
    }
    return 0;
  }
}
