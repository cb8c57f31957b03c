package dev.strand.micrometer;

import dev.strand.Client;
import dev.strand.ClientStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ToIntFunction;

/**
 * The meters of one client's pool, read from {@link Client#stats()} when the registry publishes. Gauges are
 * per origin, and origins come and go, so they are registered as calls first reach an origin: a call's
 * origin not seen before costs one {@code stats()} snapshot, after which every origin in it has its gauges.
 */
final class PoolMeters {
  private final MeterRegistry registry;
  private final Client client;
  private final Tags tags;
  private final Failures failures;
  /** The origins with gauges, as the client's stats name them. */
  private final Set<String> registered = ConcurrentHashMap.newKeySet();
  /** The origins calls have reached, as they were named from the request (the stats may spell them otherwise). */
  private final Set<String> reached = ConcurrentHashMap.newKeySet();
  private final List<Meter> meters = new CopyOnWriteArrayList<>();

  PoolMeters(MeterRegistry registry, Client client, Tags tags, Failures failures) {
    this.registry = registry;
    this.client = client;
    this.tags = tags;
    this.failures = failures;
  }

  void register() {
    meters.add(FunctionCounter.builder("strand.client.connections.created", client, c -> c.stats().connectionsOpened())
        .description("connections opened since the client was built")
        .baseUnit("connections")
        .tags(tags)
        .register(registry));
    addOrigins();
  }

  /** A call reached {@code url}'s origin: gauges for it (and any other new origin) if it has none yet. */
  void reached(URI url) {
    String origin = url.getScheme() + "://" + String.valueOf(url.getHost()).toLowerCase(Locale.ROOT) + ":" + url.getPort();
    if (reached.add(origin)) {
      addOrigins();
    }
  }

  private void addOrigins() {
    for (String origin : client.stats().origins().keySet()) {
      if (registered.add(origin)) {
        Tags originTags = tags.and("origin", origin);
        gauge("strand.client.connections.open", "connections open (idle, in use, or being opened)", origin, originTags,
            ClientStats.OriginStats::open);
        gauge("strand.client.connections.idle", "connections kept for reuse", origin, originTags, ClientStats.OriginStats::idle);
        gauge("strand.client.connections.active", "connections carrying an exchange", origin, originTags,
            ClientStats.OriginStats::inUse);
        gauge("strand.client.requests.pending", "requests waiting for a connection", origin, originTags,
            ClientStats.OriginStats::pending);
      }
    }
  }

  private void gauge(String name, String description, String origin, Tags originTags, ToIntFunction<ClientStats.OriginStats> count) {
    meters.add(Gauge.builder(name, client, c -> {
          ClientStats.OriginStats stats = c.stats().origins().get(origin);
          return stats == null ? 0 : count.applyAsInt(stats);
        })
        .description(description)
        .baseUnit(name.endsWith("pending") ? "requests" : "connections")
        .tags(originTags)
        .register(registry));
  }

  void remove() {
    for (Meter meter : meters) {
      try {
        registry.remove(meter);
      } catch (RuntimeException e) {
        failures.record("the meter registry", e);
      }
    }
    meters.clear();
  }
}
