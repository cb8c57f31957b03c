package dev.strand.opentelemetry;

import dev.strand.Interceptor;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import io.opentelemetry.context.Context;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The application interceptor of {@link StrandTelemetry}: captures the context current where the call
 * starts (the caller's thread: Strand runs the application interceptors there, before anything
 * asynchronous) and keeps it, with the count of requests the call has sent, until the call ends. The
 * call's requests carry its key in {@link #HEADER}, for {@link SpanInterceptor} to find it from whichever
 * thread sends them.
 */
final class CallContexts implements Interceptor {
  static final String HEADER = "strand-otel-call";

  private final Map<String, Call> calls = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();

  /** One call's parent context, and the requests it has sent so far (its next resend count). */
  static final class Call {
    final Context parent;
    final AtomicInteger sent = new AtomicInteger();

    Call(Context parent) {
      this.parent = parent;
    }
  }

  @Override
  public CompletableFuture<StreamingResponse> intercept(Chain chain) {
    String id = Long.toString(ids.incrementAndGet());
    calls.put(id, new Call(Context.current()));
    CompletableFuture<StreamingResponse> response;
    try {
      response = chain.proceed(chain.request().toBuilder().setHeader(HEADER, id).build());
    } catch (RuntimeException | Error e) {
      calls.remove(id);
      throw e;
    }
    response.whenComplete((r, e) -> calls.remove(id));
    return response;
  }

  /** The call {@code request} belongs to, or null (a request that did not pass this interceptor). */
  Call of(Request request) {
    String id = request.headers().first(HEADER);
    return id == null ? null : calls.get(id);
  }

  int open() {
    return calls.size();
  }

  @Override
  public String toString() {
    return "StrandTelemetry (call context)";
  }
}
