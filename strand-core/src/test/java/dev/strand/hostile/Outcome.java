package dev.strand.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.strand.HttpException;
import dev.strand.ProtocolException;
import dev.strand.ReadTimeoutException;
import dev.strand.Response;
import dev.strand.TransportException;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * What a hostile case must end in: the exact response, or an exception of exactly one Strand type
 * whose message names the problem. Checked under a deadline, so a hang is a failure, not a stuck build.
 */
sealed interface Outcome {
  /** Longer than any timeout a case sets: reaching it means the client hung. */
  Duration DEADLINE = Duration.ofSeconds(5);

  /** Runs {@code call} within {@link #DEADLINE} and checks what it gave. */
  void check(Supplier<Response> call);

  static Outcome ok(int status, String body) {
    return new Ok(status, body);
  }

  static Outcome fails(Class<? extends HttpException> type, String... fragments) {
    return new Fails(type, fragments);
  }

  static Outcome protocolError(String... fragments) {
    return fails(ProtocolException.class, fragments);
  }

  static Outcome readTimeout() {
    return fails(ReadTimeoutException.class, "read timed out after");
  }

  static Outcome transportError(String... fragments) {
    return fails(TransportException.class, fragments);
  }

  /** Either the response decoded correctly or a ProtocolException: never anything else. */
  static Outcome okOrProtocolError(int status, String body, String... fragments) {
    return new OkOr(new Ok(status, body), new Fails(ProtocolException.class, fragments));
  }

  record Ok(int status, String body) implements Outcome {
    @Override
    public void check(Supplier<Response> call) {
      Response r = assertTimeoutPreemptively(DEADLINE, call::get, "the client hung");
      assertEquals(status, r.status(), r.toString());
      assertEquals(body, r.text());
    }
  }

  record Fails(Class<? extends HttpException> type, String... fragments) implements Outcome {
    @Override
    public void check(Supplier<Response> call) {
      HttpException e = assertTimeoutPreemptively(DEADLINE, () -> {
        try {
          Response r = call.get();
          String body = r.bytes().length <= 200 ? " with body \"" + r.text() + "\"" : "";
          return fail("expected " + type.getSimpleName() + " but got " + r + body);
        } catch (HttpException x) {
          return x;
        }
      }, "the client hung");
      matches(e);
    }

    void matches(HttpException e) {
      if (e.getClass() != type) {
        throw new AssertionError("expected " + type.getSimpleName() + " but got " + e, e);
      }
      String m = e.getMessage().toLowerCase(Locale.ROOT);
      for (String f : fragments) {
        assertTrue(m.contains(f.toLowerCase(Locale.ROOT)), "\"" + f + "\" not in: " + e.getMessage());
      }
    }
  }

  record OkOr(Ok ok, Fails fails) implements Outcome {
    @Override
    public void check(Supplier<Response> call) {
      Object result = assertTimeoutPreemptively(DEADLINE, () -> {
        try {
          Response r = call.get();
          return new Object[] {r, r.text()};
        } catch (HttpException x) {
          return x;
        }
      }, "the client hung");
      if (result instanceof HttpException e) {
        fails.matches(e);
      } else {
        Object[] r = (Object[]) result;
        assertEquals(ok.status(), ((Response) r[0]).status());
        assertEquals(ok.body(), r[1], "a body that is neither decoded nor refused");
      }
    }
  }
}
