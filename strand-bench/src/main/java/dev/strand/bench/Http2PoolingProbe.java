package dev.strand.bench;

import dev.strand.Client;
import dev.strand.Limits;
import dev.strand.Timeout;
import dev.strand.Tls;
import dev.strand.VersionPolicy;
import dev.strand.testkit.TestServer;
import dev.strand.testkit.tls.TestPki;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded loopback probe, run by hand, for a pool decision rather than a comparison with peers: HTTP/2
 * throughput when requests beyond the server's stream limit queue on one connection versus when the pool
 * opens more connections, beside HTTP/1.1 and TLS handshakes per second on the JDK and OpenSSL engines.
 * Client and server share this JVM, so only the ratios mean anything; the side-by-side numbers are
 * {@code bin/strand bench}'s.
 *
 * <pre>bin/strand bench --smoke   # builds strand-bench and its target/lib
 * java -cp "strand-bench/target/strand-bench-0.1.0-SNAPSHOT.jar:strand-bench/target/lib/*" dev.strand.bench.Http2PoolingProbe [seconds]</pre>
 */
public final class Http2PoolingProbe {
  private Http2PoolingProbe() {}

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    try (TestServer h2c = TestServer.builder().http2(true).maxConcurrentStreams(100).build()) {
      String url = h2c.url("/small");
      Limits queue = Limits.ofConnections(4).withMaxConnectionsPerHost(1);
      Limits spread = Limits.ofConnections(4);
      for (int round = 0; round < 2; round++) {
        report("h2c 1 conn, 100 in flight", run(VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE, queue, url, 100, seconds));
        report("h2c 400 in flight, queue on 1 conn", run(VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE, queue, url, 400, seconds));
        report("h2c 400 in flight, open more (<= 4)", run(VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE, spread, url, 400, seconds));
        report("h1.1 100 in flight, 100 conns", run(VersionPolicy.HTTP_1_1, Limits.ofConnections(100), url, 100, seconds));
      }
    }
    var pki = TestPki.shared();
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
  static double run(VersionPolicy version, Limits limits, String url, int inFlight, int seconds) throws Exception {
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
    Tls tls = Tls.builder().trustSystem(false).trustPem(TestPki.shared().ca().cert()).engine(engine).build();
    Limits noReuse = Limits.builder().maxConnections(4).maxKeepAliveConnections(0).keepAliveExpiry(Duration.ZERO).build();
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
