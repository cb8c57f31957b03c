package dev.strand.opentelemetry;

import dev.strand.Interceptor;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import io.opentelemetry.context.Context;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The application interceptor of {@link StrandTelemetry}: captures the context current where the call
 * starts (the caller's thread: Strand runs the application interceptors there, before anything
 * asynchronous) and tags the call's request with it, with the count of requests the call has sent, for
 * {@link SpanInterceptor} to find from whichever thread sends them. A tag travels with every request
 * Strand derives (redirect hops, retries) and is never sent, so nothing outlives the call.
 */
final class CallContexts implements Interceptor {
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
    return chain.proceed(chain.request().toBuilder().tag(Call.class, new Call(Context.current())).build());
  }

  /** The call {@code request} belongs to, or null (a request that did not pass this interceptor). */
  static Call of(Request request) {
    return request.tag(Call.class);
  }

  @Override
  public String toString() {
    return "StrandTelemetry (call context)";
  }
}
