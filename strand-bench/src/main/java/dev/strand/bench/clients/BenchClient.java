package dev.strand.bench.clients;

import java.util.concurrent.CompletionStage;

/**
 * One configured HTTP client under test, built for one concurrency level.
 *
 * <p>Exactly one of the two styles is used per client: {@link #isBlocking()} false means the load loop calls
 * {@link #getAsync()} and keeps at most N calls in flight; true means N virtual threads each call
 * {@link #getBlocking()} in a loop. Either way the result is the body length, after the adapter has read the
 * whole body and checked the status is 200 ({@link #check}).
 */
public interface BenchClient extends AutoCloseable {

  /** True if the load loop should drive {@link #getBlocking()} from virtual threads. */
  boolean isBlocking();

  /** Starts one GET of the configured URL; completes with the body length. */
  default CompletionStage<Integer> getAsync() {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " is blocking");
  }

  /** Performs one GET of the configured URL; returns the body length. */
  default int getBlocking() throws Exception {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " is async");
  }

  /** Releases the client; failures are unchecked so the harness never waits on an interrupt. */
  @Override
  void close();

  /** Returns {@code length} if {@code status} is 200, else throws: every response is checked the same way. */
  static int check(int status, int length) {
    if (status != 200) {
      throw new BadResponseException("status " + status);
    }
    return length;
  }

  /** A response that arrived but was not the expected 200 with the full body. */
  final class BadResponseException extends RuntimeException {
    public BadResponseException(String message) {
      super(message, null, false, false);
    }
  }
}
