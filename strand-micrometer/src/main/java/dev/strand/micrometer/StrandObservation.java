package dev.strand.micrometer;

import dev.strand.Client;
import dev.strand.Interceptor;
import dev.strand.Request;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;
import java.util.function.Function;

/**
 * A Micrometer {@code Observation} per Strand call, so the handlers an application registers (Micrometer's
 * {@code DefaultMeterObservationHandler} for the {@code http.client.requests} timer, Micrometer Tracing's
 * handlers for a client span and its propagation headers) see Strand calls as they see Spring's.
 *
 * <p>{@link #interceptor()}, added as an application interceptor, observes each call once, redirects and
 * retries included: it starts the observation with a {@link StrandObservationContext} (whose carrier,
 * the request's builder, takes the propagation headers a tracing handler writes), opens its scope while
 * the call starts on the caller's thread (so the current observation, if any, is its parent), and stops
 * it at the final response or failure. Key values come from the {@link StrandObservationConvention}: the
 * registry's, else {@link Builder#convention}, else {@link StrandObservationConvention#defaults()}.
 *
 * <p>An observation handler that throws never fails a call: the call completes, the first such failure
 * is logged on the {@code System.Logger} {@code dev.strand.micrometer}, and
 * {@link #instrumentationFailures()} counts them.
 *
 * {@snippet :
 * ObservationRegistry observations = ObservationRegistry.create();
 * observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meterRegistry));
 * StrandObservation observation = StrandObservation.builder(observations)
 *     .uriTemplate(request -> "/repos/{owner}/{repo}")
 *     .build();
 * Client client = Client.builder().interceptor(observation.interceptor()).build();
 * }
 *
 * @implNote The observation stops when the final response's head arrives, as in Spring's clients: the
 *     time to read the body is the caller's.
 */
public final class StrandObservation {
  private final ObservationRegistry registry;
  private final StrandObservationConvention convention;
  private final Function<Request, String> uriTemplate;
  private final String clientName;
  private final Failures failures = new Failures();
  private final ObservationInterceptor interceptor;

  private StrandObservation(Builder b) {
    this.registry = b.registry;
    this.convention = b.convention;
    this.uriTemplate = b.uriTemplate;
    this.clientName = b.clientName;
    this.interceptor = new ObservationInterceptor(this);
  }

  /** Observations in {@code registry}: see {@link Builder} for the options. */
  public static Builder builder(ObservationRegistry registry) {
    return new Builder(registry);
  }

  /** Observations in {@code registry} with the default convention, no uri template and the host as client name. */
  public static StrandObservation of(ObservationRegistry registry) {
    return builder(registry).build();
  }

  /**
   * The interceptor that observes calls, to add with {@link Client.Builder#interceptor} (the application
   * position: once per call). Add it first, so that it is outermost.
   */
  public Interceptor interceptor() {
    return interceptor;
  }

  /** Failures of observation handlers or the uri template that were kept from the calls they observed. */
  public long instrumentationFailures() {
    return failures.count();
  }

  ObservationRegistry registry() {
    return registry;
  }

  StrandObservationConvention convention() {
    return convention;
  }

  Failures failures() {
    return failures;
  }

  StrandObservationContext context(Request request) {
    return new StrandObservationContext(request, HttpTags.uri(uriTemplate, request, failures),
        HttpTags.clientName(clientName, request));
  }

  /** Options of {@link StrandObservation}. */
  public static final class Builder {
    private final ObservationRegistry registry;
    private StrandObservationConvention convention;
    private Function<Request, String> uriTemplate;
    private String clientName;

    private Builder(ObservationRegistry registry) {
      this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** The convention to use unless the registry's configuration names one (default {@link StrandObservationConvention#defaults()}). */
    public Builder convention(StrandObservationConvention convention) {
      this.convention = Objects.requireNonNull(convention, "convention");
      return this;
    }

    /**
     * Names a request's route for the {@code uri} key, such as {@code /users/{id}} (default none:
     * {@code uri=NONE}). It must give few distinct values; one that answers null or throws gives {@code NONE}.
     */
    public Builder uriTemplate(Function<Request, String> template) {
      this.uriTemplate = Objects.requireNonNull(template, "template");
      return this;
    }

    /** The {@code client.name} key (default: each request's host). */
    public Builder clientName(String name) {
      this.clientName = Objects.requireNonNull(name, "name");
      return this;
    }

    public StrandObservation build() {
      return new StrandObservation(this);
    }
  }
}
