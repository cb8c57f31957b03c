package dev.strand.bench.clients;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The Java clients the bench knows, by the name used on the command line, with how each is set up. */
public final class Clients {

  /**
   * A named client: how to build it for a level, one line describing that setup for the report, and what its own
   * JVM needs beyond the bench's: system properties ({@code jvmArgs}) and a folder of jars only it sees
   * ({@code extraLib}, beside the bench's {@code lib/}; null for none).
   */
  public record Entry(String name, String setup, Function<ClientSpec, BenchClient> factory, List<String> jvmArgs,
      String extraLib) {}

  private static final Map<String, Entry> ALL = new LinkedHashMap<>();
  /** Strand with one feature on, run by name beside "strand" to price that feature; not peers. */
  private static final java.util.Set<String> VARIANTS = java.util.Set.of("strand-pipeline", "strand-listener",
      "strand-observed", "strand-iouring", "strand-loopthread", "strand-sync-loopthread", "restclient-strand",
      "restclient-jdk", "restclient-reactor", "restclient-apache");

  static {
    add("strand", StrandClients.ASYNC_SETUP, StrandClients::async);
    add("strand-sync", StrandClients.SYNC_SETUP, StrandClients::sync);
    // Variants, not peers: run them by name beside "strand" (--clients strand,strand-pipeline,strand-listener).
    add("strand-pipeline", StrandClients.PIPELINE_SETUP, StrandClients::pipeline);
    add("strand-listener", StrandClients.LISTENER_SETUP, StrandClients::listener);
    add("strand-observed", ObservedStrand.SETUP, ObservedStrand::create);
    // Plain strand on io_uring. Its jars are in lib-iouring/, not lib/: on every JVM's class path they
    // would move Reactor Netty (which takes io_uring whenever it finds it) off epoll too.
    ALL.put("strand-iouring", new Entry("strand-iouring", StrandClients.IO_URING_SETUP, StrandClients::ioUring,
        List.of("-D" + StrandClients.IO_PROPERTY + "=io_uring"), "lib-iouring"));
    // Strand with its event loops run by their own threads only, as before callers could run them.
    ALL.put("strand-loopthread", new Entry("strand-loopthread", StrandClients.LOOP_THREAD_SETUP, StrandClients::async,
        List.of("-D" + StrandClients.DRIVE_PROPERTY + "=loop"), null));
    ALL.put("strand-sync-loopthread", new Entry("strand-sync-loopthread", StrandClients.SYNC_LOOP_THREAD_SETUP,
        StrandClients::sync, List.of("-D" + StrandClients.DRIVE_PROPERTY + "=loop"), null));
    // Spring's RestClient on Strand and on the request factories of its other clients; run by name.
    add("restclient-strand", RestClientBench.STRAND_SETUP, RestClientBench::strand);
    add("restclient-jdk", RestClientBench.JDK_SETUP, RestClientBench::jdk);
    add("restclient-reactor", RestClientBench.REACTOR_SETUP, RestClientBench::reactor);
    add("restclient-apache", RestClientBench.APACHE_SETUP, RestClientBench::apache);
    add("jdk", JdkClients.ASYNC_SETUP, JdkClients::async);
    add("jdk-sync", JdkClients.SYNC_SETUP, JdkClients::sync);
    add("okhttp", OkHttpBench.SETUP, OkHttpBench::new);
    add("apache", ApacheBench.SETUP, ApacheBench::new);
    add("jetty", JettyBench.SETUP, JettyBench::new);
    add("reactor", ReactorBench.SETUP, ReactorBench::new);
    add("vertx", VertxBench.SETUP, VertxBench::new);
    add("helidon", HelidonBench.SETUP, HelidonBench::new);
    // Harness self-tests only; never in a preset.
    add("fake", FakeClient.SETUP, FakeClient::fromSystemProperties);
    add("fake-broken", "throws while being built (tests that failed clients are reported)",
        spec -> {
          throw new IllegalStateException("fake-broken refuses to start");
        });
  }

  private Clients() {
  }

  private static void add(String name, String setup, Function<ClientSpec, BenchClient> factory) {
    ALL.put(name, new Entry(name, setup, factory, List.of(), null));
  }

  /** The real clients, in report order. */
  public static List<String> javaClients() {
    return ALL.keySet().stream().filter(n -> !n.startsWith("fake") && !VARIANTS.contains(n)).toList();
  }

  public static Entry get(String name) {
    Entry e = ALL.get(name);
    if (e == null) {
      throw new IllegalArgumentException("unknown client \"" + name + "\"; known: " + ALL.keySet());
    }
    return e;
  }

  /**
   * Why {@code name} cannot run on {@code wire} (or the handshake measurement), or null when it can. Such cells
   * are reported as "n/a (reason)".
   */
  public static String unsupported(String name, Wire wire, boolean handshake) {
    if (handshake) {
      return name.equals("strand") || name.startsWith("fake") ? null
          : "the handshake measurement compares strand's two TLS engines only";
    }
    if (wire == Wire.H3) {
      return name.startsWith("strand") || name.startsWith("fake") || name.equals("jetty") ? null
          : "no HTTP/3 in this client (Jetty's is the one Java peer that has it)";
    }
    if (name.startsWith("restclient-") && wire != Wire.H1) {
      return "the RestClient variants run on cleartext HTTP/1.1 only";
    }
    if (name.equals("helidon") && wire.h2()) {
      return "HTTP/2 needs helidon-webclient-http2, not on the bench classpath";
    }
    if (name.startsWith("jdk") && wire == Wire.H2C) {
      return "java.net.http has no prior-knowledge h2c (only Upgrade: h2c, which the server ignores)";
    }
    return null;
  }

  /** Whether {@code name} is strand (or a peer under RestClient) with one feature on: the same library's defaults. */
  public static boolean isVariant(String name) {
    return VARIANTS.contains(name);
  }

  public static boolean isKnown(String name) {
    return ALL.containsKey(name);
  }
}
