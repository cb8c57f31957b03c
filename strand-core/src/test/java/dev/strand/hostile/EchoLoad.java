package dev.strand.hostile;

import dev.strand.Client;
import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * Sends {@code count} GETs to the testkit's {@code /echo?id=N}, {@code inFlight} at a time, and sorts every
 * outcome: a response that carries its own id, one that does not (cross-talk), a typed
 * {@link HttpException} (by class), anything else thrown, or no outcome within {@code deadline} (a hang).
 */
final class EchoLoad {
  /** What became of each request. */
  record Outcomes(long own, List<String> foreign, Map<String, Long> typed, List<Throwable> untyped, long hung) {
    long typedTotal() {
      return typed.values().stream().mapToLong(Long::longValue).sum();
    }

    @Override
    public String toString() {
      return "own " + own + ", typed failures " + typed + ", foreign " + foreign.size()
          + (foreign.isEmpty() ? "" : " e.g. " + foreign.subList(0, Math.min(3, foreign.size())))
          + ", untyped " + untyped.size() + (untyped.isEmpty() ? "" : " e.g. " + untyped.getFirst())
          + ", hung " + hung;
    }
  }

  private EchoLoad() {
  }

  /** Runs the load; the whole run is bounded by {@code count} and by {@code budget}. */
  static Outcomes run(Client client, IntFunction<String> urlForId, int count, int inFlight, Duration deadline,
      Duration budget) throws InterruptedException {
    Semaphore slots = new Semaphore(inFlight);
    AtomicLong own = new AtomicLong();
    AtomicLong hung = new AtomicLong();
    List<String> foreign = Collections.synchronizedList(new ArrayList<>());
    List<Throwable> untyped = Collections.synchronizedList(new ArrayList<>());
    Map<String, Long> typed = new ConcurrentHashMap<>();
    long stopAt = System.nanoTime() + budget.toNanos();
    int sent = 0;
    for (; sent < count && System.nanoTime() < stopAt; sent++) {
      if (!slots.tryAcquire(stopAt - System.nanoTime(), TimeUnit.NANOSECONDS)) {
        break;
      }
      String id = "id=" + sent;
      CompletableFuture<Response> call;
      try {
        call = client.async().send(Request.get(urlForId.apply(sent)));
      } catch (RuntimeException e) {
        call = CompletableFuture.failedFuture(e);
      }
      call.orTimeout(deadline.toMillis(), TimeUnit.MILLISECONDS).whenComplete((r, e) -> {
        try {
          Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
          if (cause == null) {
            String body = r.text();
            if (r.status() == 200 && body.contains("\"query\": \"" + id + "\"")) {
              own.incrementAndGet();
            } else {
              foreign.add(id + " got " + r.status() + " " + body.substring(0, Math.min(120, body.length())));
            }
          } else if (cause instanceof java.util.concurrent.TimeoutException) {
            hung.incrementAndGet();
          } else if (cause instanceof HttpException) {
            typed.merge(cause.getClass().getSimpleName(), 1L, Long::sum);
          } else {
            untyped.add(cause);
          }
        } finally {
          slots.release();
        }
      });
    }
    // Every call sent has its deadline: waiting for all slots is bounded by it.
    if (!slots.tryAcquire(inFlight, deadline.toMillis() + 5_000, TimeUnit.MILLISECONDS)) {
      throw new AssertionError("calls still running after their deadline");
    }
    if (sent < count) {
      throw new AssertionError("only " + sent + " of " + count + " requests sent within " + budget);
    }
    return new Outcomes(own.get(), List.copyOf(foreign), new TreeMap<>(typed), List.copyOf(untyped), hung.get());
  }
}
