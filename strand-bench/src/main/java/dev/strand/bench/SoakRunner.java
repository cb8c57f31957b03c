package dev.strand.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strand.Client;
import dev.strand.ClientStats;
import dev.strand.HttpException;
import dev.strand.Limits;
import dev.strand.Request;
import dev.strand.Response;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak's child JVM: {@code --direct URL --faults URL --requests N --in-flight K --phase-seconds S}. Sends N
 * GETs of {@code /echo?id=i}, K at a time, first to the bench server, then through the fault proxy, each phase
 * with a new client built with Strand's defaults except a pool of K connections. Every response must carry its
 * own id. Memory is sampled every second over both phases. One {@code RESULT <json>} ({@link SoakPhase}) per
 * phase on stdout.
 */
public final class SoakRunner {
  /** A call with no outcome by then hangs: far past the default timeouts (5 s per phase). */
  static final Duration HANG = Duration.ofSeconds(30);
  private static final int MAX_EXAMPLES = 5;

  private SoakRunner() {
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> o = ClientRunner.parseLoose(args);
    long requests = Long.parseLong(o.get("requests"));
    int inFlight = Integer.parseInt(o.get("in-flight"));
    Duration bound = Duration.ofSeconds(Long.parseLong(o.get("phase-seconds")));
    ObjectMapper json = new ObjectMapper();
    try (MemorySampler memory = new MemorySampler()) {
      for (String phase : List.of("direct", "faults")) {
        SoakPhase result = phase(phase, URI.create(o.get(phase)), requests, inFlight, bound, memory);
        System.out.println(ClientRunner.RESULT + json.writeValueAsString(result));
        System.out.flush();
      }
    }
    System.err.flush();
    Runtime.getRuntime().halt(0);
  }

  static SoakPhase phase(String phase, URI base, long requests, int inFlight, Duration bound, MemorySampler memory)
      throws InterruptedException {
    long startedAt = memory.elapsedMillis();
    long start = System.nanoTime();
    long stopAt = start + bound.toNanos();
    Tally tally = new Tally();
    Semaphore slots = new Semaphore(inFlight);
    long sent = 0;
    ClientStats stats;
    try (Client client = Client.builder().limits(Limits.ofConnections(inFlight)).build()) {
      long nextProgress = start;
      for (; sent < requests && System.nanoTime() < stopAt; sent++) {
        slots.acquire();
        String id = Long.toString(sent);
        CompletableFuture<Response> call;
        try {
          call = client.async().send(Request.get(base.resolve("/echo?id=" + id).toString()));
        } catch (RuntimeException e) {
          call = CompletableFuture.failedFuture(e);
        }
        call.orTimeout(HANG.toMillis(), TimeUnit.MILLISECONDS).whenComplete((r, e) -> {
          try {
            tally.record(id, r, e);
          } finally {
            slots.release();
          }
        });
        if (System.nanoTime() >= nextProgress) {
          nextProgress += TimeUnit.SECONDS.toNanos(5);
          double s = (System.nanoTime() - start) / 1e9;
          System.err.printf("%ssoak %s: %d/%d sent, %.0f req/s, %d failed, %d unexplained%n", ClientRunner.PROGRESS,
              phase, sent, requests, s > 0 ? sent / s : 0.0, tally.failed(), tally.unexplained());
        }
      }
      // Every call has the hang bound: waiting for all slots is bounded by it.
      if (!slots.tryAcquire(inFlight, HANG.toMillis() + 5_000, TimeUnit.MILLISECONDS)) {
        tally.hang("calls still running past the hang bound");
      }
      stats = settled(client);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    // A phase shorter than the sampling period would otherwise have no sample of its own.
    memory.sample();
    return new SoakPhase(phase, base.toString(), requests, sent, tally.ok.get(), seconds, sent < requests,
        new TreeMap<>(tally.failures), new TreeMap<>(tally.unexplainedByKind), List.copyOf(tally.examples),
        stats.inUse(), stats.pending(), stats.open(), stats.connectionsOpened(),
        MemorySampler.window(memory.since(startedAt)), Map.of());
  }

  /** The pool once in-use and pending are back to zero, or after 5 s (a released connection may lag its call). */
  private static ClientStats settled(Client client) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    ClientStats s = client.stats();
    while ((s.inUse() != 0 || s.pending() != 0) && System.nanoTime() < until) {
      Thread.sleep(20);
      s = client.stats();
    }
    return s;
  }

  /** How calls ended, counted from completion threads. */
  private static final class Tally {
    final AtomicLong ok = new AtomicLong();
    final Map<String, Long> failures = new ConcurrentHashMap<>();
    final Map<String, Long> unexplainedByKind = new ConcurrentHashMap<>();
    final ConcurrentLinkedQueue<String> examples = new ConcurrentLinkedQueue<>();

    void record(String id, Response r, Throwable e) {
      Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
      if (cause == null) {
        String body = r.text();
        if (r.status() == 200 && body.contains("\"query\": \"id=" + id + "\"")) {
          ok.incrementAndGet();
        } else {
          unexplained("wrong body", "id=" + id + " got " + r.status() + " "
              + body.substring(0, Math.min(100, body.length())));
        }
      } else if (cause instanceof TimeoutException) {
        hang("id=" + id + ": no outcome within " + HANG.toSeconds() + " s");
      } else if (cause instanceof HttpException) {
        failures.merge(cause.getClass().getSimpleName(), 1L, Long::sum);
      } else {
        unexplained(cause.getClass().getName(), "id=" + id + ": " + LoadLoop.describe(cause));
      }
    }

    void hang(String example) {
      unexplained("hang", example);
    }

    private void unexplained(String kind, String example) {
      unexplainedByKind.merge(kind, 1L, Long::sum);
      if (examples.size() < MAX_EXAMPLES) {
        examples.add(example);
      }
    }

    long failed() {
      return failures.values().stream().mapToLong(Long::longValue).sum();
    }

    long unexplained() {
      return unexplainedByKind.values().stream().mapToLong(Long::longValue).sum();
    }
  }
}
