package dev.strand.internal.client;

import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.RetryPolicy;
import dev.strand.StreamingResponse;
import dev.strand.internal.retry.RetryRules;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * Tries each hop again as its {@link RetryPolicy} (the request's, else the client's) and {@link Retries}
 * decide, within the client's {@link RetryBudget} and the call's deadline. Sits inside the redirect
 * step, so a retry repeats one hop, not the whole chain, and passes cookies, hooks and network
 * interceptors again.
 */
final class RetryLink implements Link {
  private final RetryPolicy clientPolicy;
  private final RetryBudget budget;
  private final Link next;

  RetryLink(RetryPolicy clientPolicy, RetryBudget budget, Link next) {
    this.clientPolicy = clientPolicy;
    this.budget = budget;
    this.next = next;
  }

  @Override
  public CompletableFuture<StreamingResponse> proceed(Call call, Request request) {
    RetryPolicy policy = request.retryPolicy().orElse(clientPolicy);
    if (policy.maxAttempts() <= 1) {
      return next.proceed(call, request);
    }
    budget.recordCall();
    return attempt(call, request, policy, 1, null);
  }

  private CompletableFuture<StreamingResponse> attempt(
      Call call, Request request, RetryPolicy policy, int attempt, List<Throwable> earlier) {
    call.attempt = attempt;
    if (call.events != null) {
      call.events.attempt(attempt);
    }
    return next.proceed(call, request).handle((r, error) -> {
      if (error != null) {
        Throwable failure = ClientEngine.failure(error, request);
        Duration wait = RetryRules.afterFailure(policy, request, failure, attempt, ThreadLocalRandom.current()::nextDouble);
        if (wait == null || !mayWait(call, wait)) {
          return CompletableFuture.<StreamingResponse>failedFuture(withEarlier(failure, earlier));
        }
        List<Throwable> failures = earlier == null ? new ArrayList<>(2) : earlier;
        failures.add(failure);
        tell(call, policy, new RetryPolicy.Retry(request, attempt + 1, wait,
            failure instanceof HttpException he ? he : null, null));
        return later(wait, () -> attempt(call, request, policy, attempt + 1, failures));
      }
      Duration wait = RetryRules.afterStatus(policy, request, r.status(), r.headers().first("Retry-After"), attempt,
          Instant.now(), ThreadLocalRandom.current()::nextDouble);
      if (wait == null || !mayWait(call, wait)) {
        return CompletableFuture.completedFuture(r);
      }
      tell(call, policy, new RetryPolicy.Retry(request, attempt + 1, wait, null, r));
      return Responses.drain(r, call.hopStartNanos)
          .thenCompose(dropped -> later(wait, () -> attempt(call, request, policy, attempt + 1, earlier)));
    }).thenCompose(f -> f);
  }

  /** Whether a wait fits: the call is live, its deadline leaves room, and the budget has a retry. */
  private boolean mayWait(Call call, Duration wait) {
    return !call.isCancelled() && !call.wouldExpire(wait) && budget.tryRetry();
  }

  /** The next attempt after {@code wait}, started on the timer thread (it only starts I/O). */
  private static CompletableFuture<StreamingResponse> later(
      Duration wait, Supplier<CompletableFuture<StreamingResponse>> attempt) {
    if (wait.isZero()) {
      return attempt.get();
    }
    CompletableFuture<StreamingResponse> result = new CompletableFuture<>();
    Timers.schedule(wait, () -> {
      try {
        attempt.get().whenComplete((r, e) -> {
          if (e != null) {
            result.completeExceptionally(e);
          } else {
            result.complete(r);
          }
        });
      } catch (RuntimeException | Error e) {
        result.completeExceptionally(e);
      }
    });
    return result;
  }

  private static Throwable withEarlier(Throwable failure, List<Throwable> earlier) {
    if (earlier != null) {
      for (Throwable t : earlier) {
        if (t != failure) {
          failure.addSuppressed(t);
        }
      }
    }
    return failure;
  }

  private static void tell(Call call, RetryPolicy policy, RetryPolicy.Retry retry) {
    if (call.events != null) {
      call.events.retry(retry);
    }
    if (policy.onRetry() == null) {
      return;
    }
    try {
      policy.onRetry().accept(retry);
    } catch (RuntimeException ignored) { // a listener must not change the call's outcome
    }
  }
}
