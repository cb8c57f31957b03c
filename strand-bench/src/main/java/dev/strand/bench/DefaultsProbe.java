package dev.strand.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Child process: what one client library does when nobody configures it. Reads its default timeouts, pool
 * size and redirect policy from the library where it exposes them, then calls {@code /never} (a server that
 * accepts and never replies) with a default-built client under a watchdog.
 *
 * <p>{@code --client NAME --url BASE [--watchdog SECONDS]}; prints one {@code RESULT <json>} line, then exits.
 */
public final class DefaultsProbe {

  /** One row of the defaults report. */
  public record Defaults(String client, String version, String connectTimeout, String readTimeout, String pool,
      String redirects, String never) {}

  private DefaultsProbe() {
  }

  public static void main(String[] args) throws Exception {
    var o = ClientRunner.parseLoose(args);
    String name = o.get("client");
    URI never = URI.create(o.get("url")).resolve("/never");
    Duration watchdog = ClientRunner.seconds(o.getOrDefault("watchdog", "8"));
    Defaults d = probe(name, never, watchdog);
    System.out.println(ClientRunner.RESULT + new ObjectMapper().writeValueAsString(d));
    System.out.flush();
    System.err.flush();
    // Results are out. Some clients leave non-daemon threads or slow shutdown hooks behind (a default-built
    // client still waiting on /never, say): halt rather than wait for them.
    Runtime.getRuntime().halt(0);
  }

  static Defaults probe(String name, URI never, Duration watchdog) {
    try {
      return switch (name) {
        case "strand", "strand-sync" -> strand(never, watchdog);
        case "jdk", "jdk-sync" -> jdk(never, watchdog);
        case "okhttp" -> okhttp(never, watchdog);
        case "apache" -> apache(never, watchdog);
        case "jetty" -> jetty(never, watchdog);
        case "reactor" -> reactor(never, watchdog);
        case "vertx" -> vertx(never, watchdog);
        case "helidon" -> helidon(never, watchdog);
        case "fake-hang" -> new Defaults(name, "-", "-", "-", "-", "-",
            watch(() -> new CompletableFuture<>().get(), watchdog));
        default -> throw new IllegalArgumentException("no defaults probe for " + name);
      };
    } catch (Throwable t) {
      return new Defaults(name, "?", "?", "?", "?", "?", "probe failed: " + LoadLoop.describe(t));
    }
  }

  /**
   * Runs {@code call} on a daemon thread and waits at most {@code watchdog}: says how it ended, or that it
   * was still waiting. The call is abandoned, not interrupted; the probe process exits right after.
   */
  static String watch(Callable<?> call, Duration watchdog) {
    long t0 = System.nanoTime();
    CompletableFuture<String> outcome = new CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        Object r = call.call();
        outcome.complete("returned " + r + " after " + secs(t0));
      } catch (Throwable e) {
        outcome.complete(simpleName(e) + " after " + secs(t0));
      }
    }, "never-probe");
    t.setDaemon(true);
    t.start();
    try {
      return outcome.get(watchdog.toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      return "still waiting after " + watchdog.toSeconds() + " s (watchdog)";
    } catch (Exception e) {
      return "probe error: " + e;
    }
  }

  private static String secs(long t0) {
    return String.format("%.1f s", (System.nanoTime() - t0) / 1e9);
  }

  private static String simpleName(Throwable e) {
    Throwable root = e;
    while ((root instanceof java.util.concurrent.ExecutionException
        || root instanceof java.util.concurrent.CompletionException) && root.getCause() != null) {
      root = root.getCause();
    }
    String msg = root.getMessage() == null ? "" : root.getMessage().lines().findFirst().orElse("");
    if (msg.length() > 80) {
      msg = msg.substring(0, 77) + "...";
    }
    return root.getClass().getSimpleName() + (msg.isEmpty() ? "" : " (" + msg + ")");
  }

  /** The jar a class came from, e.g. {@code okhttp-jvm-5.5.1}: the version actually on the classpath. */
  static String jarOf(Class<?> c) {
    try {
      var src = c.getProtectionDomain().getCodeSource();
      if (src == null) {
        return "JDK " + Runtime.version();
      }
      String f = Path.of(src.getLocation().toURI()).getFileName().toString();
      return f.endsWith(".jar") ? f.substring(0, f.length() - 4) : f;
    } catch (Exception e) {
      return "?";
    }
  }

  private static String ms(long millis) {
    return millis <= 0 ? "none" : Duration.ofMillis(millis).toString().substring(2).toLowerCase();
  }

  private static String dur(Duration d) {
    return d == null ? "none" : d.toString().substring(2).toLowerCase();
  }

  private static Defaults strand(URI never, Duration watchdog) {
    dev.strand.Timeout t = dev.strand.Timeout.DEFAULT;
    dev.strand.Limits l = dev.strand.Limits.DEFAULT;
    dev.strand.Client client = dev.strand.Client.create();
    return new Defaults("strand", jarOf(dev.strand.Client.class),
        dur(t.connect()), dur(t.read()) + " (write " + dur(t.write()) + ", pool " + dur(t.pool()) + ")",
        l.maxConnections() + " total, " + l.maxConnectionsPerHost() + " per host, " + l.maxKeepAliveConnections()
            + " kept alive",
        "not followed (followRedirects false)",
        watch(() -> client.get(never.toString()).status(), watchdog));
  }

  private static Defaults jdk(URI never, Duration watchdog) {
    java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
    String pool = Integer.getInteger("jdk.httpclient.connectionPoolSize", 0) == 0 ? "unbounded"
        : System.getProperty("jdk.httpclient.connectionPoolSize");
    return new Defaults("jdk", "JDK " + Runtime.version(),
        client.connectTimeout().map(DefaultsProbe::dur).orElse("none"),
        "none (HttpRequest.timeout unset)", pool + " (jdk.httpclient.connectionPoolSize)",
        client.followRedirects().toString(),
        watch(() -> client.send(java.net.http.HttpRequest.newBuilder(never).build(),
            java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode(), watchdog));
  }

  private static Defaults okhttp(URI never, Duration watchdog) {
    okhttp3.OkHttpClient client = new okhttp3.OkHttpClient();
    return new Defaults("okhttp", jarOf(okhttp3.OkHttpClient.class),
        ms(client.connectTimeoutMillis()),
        ms(client.readTimeoutMillis()) + " (write " + ms(client.writeTimeoutMillis()) + ", call "
            + ms(client.callTimeoutMillis()) + ")",
        "dispatcher " + client.dispatcher().getMaxRequests() + " total, " + client.dispatcher().getMaxRequestsPerHost()
            + " per host; pool keeps 5 idle",
        client.followRedirects() ? "followed (max 20)" : "not followed",
        watch(() -> {
          try (okhttp3.Response r = client.newCall(new okhttp3.Request.Builder().url(never.toString()).build())
              .execute()) {
            return r.code();
          }
        }, watchdog));
  }

  private static Defaults apache(URI never, Duration watchdog) {
    var cm = org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder.create().build();
    var cc = org.apache.hc.client5.http.config.ConnectionConfig.DEFAULT;
    var rc = org.apache.hc.client5.http.config.RequestConfig.DEFAULT;
    var client = org.apache.hc.client5.http.impl.async.HttpAsyncClients.createDefault();
    client.start();
    return new Defaults("apache", jarOf(org.apache.hc.client5.http.impl.async.HttpAsyncClients.class),
        String.valueOf(cc.getConnectTimeout()),
        "response " + (rc.getResponseTimeout() == null ? "none" : rc.getResponseTimeout()) + ", socket "
            + (cc.getSocketTimeout() == null ? "none" : cc.getSocketTimeout()),
        cm.getMaxTotal() + " total, " + cm.getDefaultMaxPerRoute() + " per route",
        rc.isRedirectsEnabled() ? "followed (max " + rc.getMaxRedirects() + ")" : "not followed",
        watch(() -> client.execute(org.apache.hc.client5.http.async.methods.SimpleRequestBuilder.get(never).build(),
            null).get().getCode(), watchdog));
  }

  private static Defaults jetty(URI never, Duration watchdog) throws Exception {
    org.eclipse.jetty.client.HttpClient client = new org.eclipse.jetty.client.HttpClient();
    client.start();
    return new Defaults("jetty", jarOf(org.eclipse.jetty.client.HttpClient.class),
        ms(client.getConnectTimeout()), "idle " + ms(client.getIdleTimeout()) + ", request total none",
        client.getMaxConnectionsPerDestination() + " per destination",
        client.isFollowRedirects() ? "followed (max " + client.getMaxRedirects() + ")" : "not followed",
        watch(() -> client.GET(never).getStatus(), watchdog));
  }

  private static Defaults reactor(URI never, Duration watchdog) {
    reactor.netty.http.client.HttpClient client = reactor.netty.http.client.HttpClient.create();
    Object connect = client.configuration().options().get(io.netty.channel.ChannelOption.CONNECT_TIMEOUT_MILLIS);
    return new Defaults("reactor", jarOf(reactor.netty.http.client.HttpClient.class),
        connect == null ? "30s (Netty default)" : ms(((Number) connect).longValue()),
        "response " + dur(client.configuration().responseTimeout()),
        reactor.netty.resources.ConnectionProvider.DEFAULT_POOL_MAX_CONNECTIONS + " per host, acquire timeout "
            + ms(reactor.netty.resources.ConnectionProvider.DEFAULT_POOL_ACQUIRE_TIMEOUT),
        client.configuration().followRedirectPredicate() != null ? "followed" : "not followed",
        watch(() -> client.get().uri(never.toString()).response().block().status().code(), watchdog));
  }

  private static Defaults vertx(URI never, Duration watchdog) {
    var options = new io.vertx.core.http.HttpClientOptions();
    var pool = new io.vertx.core.http.PoolOptions();
    io.vertx.core.Vertx vertx = io.vertx.core.Vertx.vertx();
    var client = vertx.createHttpClient();
    long requestTimeout = io.vertx.core.http.RequestOptions.DEFAULT_TIMEOUT;
    return new Defaults("vertx", jarOf(io.vertx.core.Vertx.class),
        ms(options.getConnectTimeout()),
        "request " + ms(requestTimeout) + ", idle " + (options.getIdleTimeout() <= 0 ? "none"
            : options.getIdleTimeout() + " " + options.getIdleTimeoutUnit().toString().toLowerCase()),
        pool.getHttp1MaxSize() + " per host (HTTP/1.1)",
        io.vertx.core.http.RequestOptions.DEFAULT_FOLLOW_REDIRECTS ? "followed" : "not followed",
        watch(() -> client.request(new io.vertx.core.http.RequestOptions().setAbsoluteURI(never.toString()))
            .compose(req -> req.send()).toCompletionStage().toCompletableFuture().get().statusCode(), watchdog));
  }

  private static Defaults helidon(URI never, Duration watchdog) {
    io.helidon.webclient.api.WebClient client = io.helidon.webclient.api.WebClient.create();
    var p = client.prototype();
    return new Defaults("helidon", jarOf(io.helidon.webclient.api.WebClient.class),
        p.connectTimeout().map(DefaultsProbe::dur).orElse("none"),
        p.readTimeout().map(DefaultsProbe::dur).orElse("none"),
        "connection cache " + p.connectionCacheSize(),
        p.followRedirects() ? "followed (max " + p.maxRedirects() + ")" : "not followed",
        watch(() -> {
          try (var r = client.get(never.toString()).request()) {
            return r.status().code();
          }
        }, watchdog));
  }
}
