package dev.strand.micrometer;

import dev.strand.Client;
import dev.strand.Interceptor;
import dev.strand.Request;
import dev.strand.ResponseHead;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.Objects;
import java.util.function.Function;

/**
 * Micrometer meters for one Strand client: the {@code http.client.requests} timer, with the tags
 * Micrometer's own HTTP client instrumentations give it, and meters of the client's connection pool.
 *
 * <p>The timer, from {@link #interceptor()} added as an application interceptor, times each call as the
 * caller sees it: redirects, retries and authentication included, from the call's start to its final
 * response (or failure). Its tags:
 * <ul>
 *   <li>{@code method}: the request method;
 *   <li>{@code uri}: what {@link Builder#uriTemplate} makes of the request, such as {@code /users/{id}}, and
 *       {@code NONE} without one: never the raw path, whose values (ids, tokens) would make a time series
 *       per request;
 *   <li>{@code status}: the final status code, or {@code CLIENT_ERROR} when no response came;
 *   <li>{@code outcome}: {@code INFORMATIONAL}, {@code SUCCESS}, {@code REDIRECTION}, {@code CLIENT_ERROR},
 *       {@code SERVER_ERROR} by the status class, {@code UNKNOWN} when no response came;
 *   <li>{@code exception}: the failure's simple class name, or {@code none};
 *   <li>{@code client.name}: {@link Builder#clientName}, else the request's host.
 * </ul>
 *
 * <p>{@link #bind(Client)} adds the pool's meters, read from {@link Client#stats()} when the registry
 * publishes, each tagged {@code client.name} (when one is {@linkplain Builder#clientName given}) and
 * {@code origin} ({@code http://host:port}):
 * {@code strand.client.connections.open}, {@code .idle} and {@code .active} (carrying an exchange),
 * {@code strand.client.requests.pending} (waiting for a connection), and the counter
 * {@code strand.client.connections.created} (tagged {@code client.name} only). An origin gets its gauges
 * when a call through {@link #interceptor()} first reaches it (or at {@code bind}, if it already has
 * connections).
 *
 * <p>A registry that throws (a meter filter, a broken backend) never fails a call: the call completes
 * unmeasured, the first such failure is logged on the {@code System.Logger} {@code dev.strand.micrometer},
 * and {@link #instrumentationFailures()} counts them.
 *
 * {@snippet :
 * StrandMetrics metrics = StrandMetrics.builder(registry)
 *     .clientName("github")
 *     .uriTemplate(request -> request.url().getPath().replaceAll("/users/[^/]+", "/users/{id}"))
 *     .build();
 * Client client = Client.builder().interceptor(metrics.interceptor()).build();
 * metrics.bind(client);
 * }
 *
 * <p>One instance serves one client. With {@link StrandObservation} timing calls instead (its meter
 * handler makes the same timer), build this one with {@code requestTimer(false)} and keep it for the
 * pool's meters.
 *
 * @implNote A call is timed to the arrival of its final response's head: the time to read the body is
 *     the caller's, as in Micrometer's OkHttp and Spring's client instrumentations.
 */
public final class StrandMetrics implements AutoCloseable {
  /** The timer's name, as Micrometer's and Spring's HTTP client instrumentations have it. */
  public static final String REQUESTS = "http.client.requests";

  private final MeterRegistry registry;
  private final String clientName;
  private final Function<Request, String> uriTemplate;
  private final boolean requestTimer;
  private final Failures failures = new Failures();
  private final TimingInterceptor interceptor;
  private volatile PoolMeters pool;

  private StrandMetrics(Builder b) {
    this.registry = b.registry;
    this.clientName = b.clientName;
    this.uriTemplate = b.uriTemplate;
    this.requestTimer = b.requestTimer;
    this.interceptor = new TimingInterceptor(this);
  }

  /** Meters in {@code registry}: see {@link Builder} for the options. */
  public static Builder builder(MeterRegistry registry) {
    return new Builder(registry);
  }

  /** Meters in {@code registry}, with no uri template ({@code uri=NONE}) and the host as client name. */
  public static StrandMetrics of(MeterRegistry registry) {
    return builder(registry).build();
  }

  /**
   * The interceptor that times calls, to add with {@link Client.Builder#interceptor} (the application
   * position: once per call); the first added interceptor is outermost, so add it first to time the others.
   */
  public Interceptor interceptor() {
    return interceptor;
  }

  /**
   * Registers the meters of {@code client}'s connection pool; {@link #close()} removes them.
   *
   * @throws IllegalStateException if this instance is already bound to a client
   */
  public synchronized StrandMetrics bind(Client client) {
    Objects.requireNonNull(client, "client");
    if (pool != null) {
      throw new IllegalStateException("already bound to a client: use one StrandMetrics per client");
    }
    PoolMeters meters = new PoolMeters(registry, client, poolTags(), failures);
    meters.register();
    pool = meters;
    return this;
  }

  /** Failures of the registry or the uri template that were kept from the calls they measured. */
  public long instrumentationFailures() {
    return failures.count();
  }

  /** Removes the pool's meters from the registry (the timer stays: it is shared by name with other clients). */
  @Override
  public synchronized void close() {
    PoolMeters meters = pool;
    if (meters != null) {
      meters.remove();
      pool = null;
    }
  }

  MeterRegistry registry() {
    return registry;
  }

  boolean timesRequests() {
    return requestTimer;
  }

  Failures failures() {
    return failures;
  }

  PoolMeters pool() {
    return pool;
  }

  Tags requestTags(Request request, ResponseHead response, Throwable error) {
    return Tags.of(
        Tag.of("method", HttpTags.method(request)),
        Tag.of("uri", HttpTags.uri(uriTemplate, request, failures)),
        Tag.of("status", HttpTags.status(response)),
        Tag.of("outcome", HttpTags.outcome(response)),
        Tag.of("exception", HttpTags.exception(error)),
        Tag.of("client.name", HttpTags.clientName(clientName, request)));
  }

  private Tags poolTags() {
    return clientName == null ? Tags.empty() : Tags.of("client.name", clientName);
  }

  /** Options of {@link StrandMetrics}. */
  public static final class Builder {
    private final MeterRegistry registry;
    private String clientName;
    private Function<Request, String> uriTemplate;
    private boolean requestTimer = true;

    private Builder(MeterRegistry registry) {
      this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** The {@code client.name} tag (default: each request's host, and no such tag on the pool's meters). */
    public Builder clientName(String name) {
      this.clientName = Objects.requireNonNull(name, "name");
      return this;
    }

    /**
     * Names a request's route for the {@code uri} tag, such as {@code /users/{id}} (default none:
     * {@code uri=NONE}). It must give few distinct values; one that answers null or throws gives {@code NONE}.
     */
    public Builder uriTemplate(Function<Request, String> template) {
      this.uriTemplate = Objects.requireNonNull(template, "template");
      return this;
    }

    /**
     * Whether {@link #interceptor()} records the {@code http.client.requests} timer (default true). Off
     * when {@link StrandObservation} times the calls; the interceptor then only finds new origins for the
     * pool's meters.
     */
    public Builder requestTimer(boolean enabled) {
      this.requestTimer = enabled;
      return this;
    }

    public StrandMetrics build() {
      return new StrandMetrics(this);
    }
  }
}
