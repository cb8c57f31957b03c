package dev.strand;

import dev.strand.testkit.TestServer;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded loopback measurement, run by hand (not a test): HTTP/2 throughput with one connection
 * that queues beyond the server's stream limit versus opening more connections when full, and TLS
 * handshakes per second on the JDK and OpenSSL engines.
 *
 * <pre>java -cp TEST_CLASSPATH dev.strand.Http2Bench [seconds]</pre>
 */
public final class Http2Bench {
  private Http2Bench() {}

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    try (TestServer h2c = TestServer.builder().http2(true).maxConcurrentStreams(100).build()) {
      String url = h2c.url("/small");
      Limits queue = Limits.ofConnections(4).withMaxConnectionsPerHost(1);
      Limits spread = Limits.ofConnections(4);
      for (int round = 0; round < 2; round++) {
        report("h2c 1 conn, 100 in flight", run(Version.HTTP_2_PRIOR_KNOWLEDGE, queue, url, 100, seconds));
        report("h2c 400 in flight, queue on 1 conn", run(Version.HTTP_2_PRIOR_KNOWLEDGE, queue, url, 400, seconds));
        report("h2c 400 in flight, open more (<= 4)", run(Version.HTTP_2_PRIOR_KNOWLEDGE, spread, url, 400, seconds));
        report("h1.1 100 in flight, 100 conns", run(Version.HTTP_1_1, Limits.ofConnections(100), url, 100, seconds));
      }
    }
    var pki = SharedTestPki.get();
    try (TestServer tls = TestServer.builder().tls(pki.server().cert(), pki.server().key()).build()) {
      for (Tls.Engine engine : new Tls.Engine[] {Tls.Engine.JDK, Tls.Engine.OPENSSL}) {
        handshakes(tls, engine, seconds);
      }
    }
  }

  static void report(String what, double perSecond) {
    System.out.printf("%-42s %,10.0f req/s%n", what, perSecond);
  }

  /** Requests per second with {@code inFlight} concurrent async requests for {@code seconds}. */
  static double run(Version version, Limits limits, String url, int inFlight, int seconds) throws Exception {
    try (Client client = Client.builder().version(version).limits(limits)
        .timeout(Timeout.of(Duration.ofSeconds(30))).build()) {
      for (int i = 0; i < 2000; i++) {
        client.get(url); // warm-up
      }
      Semaphore slots = new Semaphore(inFlight);
      AtomicLong done = new AtomicLong();
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      long start = System.nanoTime();
      while (System.nanoTime() < end) {
        slots.acquire();
        client.async().get(url).whenComplete((r, e) -> {
          if (e == null) {
            done.incrementAndGet();
          }
          slots.release();
        });
      }
      slots.acquire(inFlight);
      double rate = done.get() / ((System.nanoTime() - start) / 1e9);
      System.out.println("   connections opened: " + client.stats().connectionsOpened());
      return rate;
    }
  }

  /** Fresh TLS connections in a loop (nothing kept alive), 4 at a time. */
  static void handshakes(TestServer server, Tls.Engine engine, int seconds) throws Exception {
    Tls tls = SharedTestPki.trustTestCa(engine);
    Limits noReuse = new Limits(4, 0, Duration.ZERO, 4);
    try (Client client = Client.builder().tls(tls).limits(noReuse).timeout(Timeout.of(Duration.ofSeconds(30))).build()) {
      for (int i = 0; i < 50; i++) {
        client.get(server.url("/small"));
      }
      long before = server.tlsHandshakes();
      Semaphore slots = new Semaphore(4);
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      long start = System.nanoTime();
      while (System.nanoTime() < end) {
        slots.acquire();
        client.async().get(server.url("/small")).whenComplete((r, e) -> slots.release());
      }
      slots.acquire(4);
      double rate = (server.tlsHandshakes() - before) / ((System.nanoTime() - start) / 1e9);
      System.out.printf("%-42s %,10.0f handshakes/s (%s)%n", "TLS fresh connections, engine " + engine, rate,
          client.stats().tlsEngine());
    }
  }
}
