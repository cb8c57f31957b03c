package dev.strand.micrometer;

import dev.strand.Interceptor;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import io.micrometer.observation.Observation;
import java.util.concurrent.CompletableFuture;

/**
 * {@link StrandObservation#interceptor()}. Each step that calls into the observation's handlers is guarded
 * on its own: a handler that throws costs the observation, never the call.
 */
final class ObservationInterceptor implements Interceptor {
  private final StrandObservation owner;

  ObservationInterceptor(StrandObservation owner) {
    this.owner = owner;
  }

  @Override
  public CompletableFuture<StreamingResponse> intercept(Chain chain) {
    Request request = chain.request();
    StrandObservationContext context;
    Observation observation;
    Request sent;
    try {
      context = owner.context(request);
      observation = Observation.createNotStarted(owner.convention(), StrandObservationConvention.defaults(),
          () -> context, owner.registry()).start();
      sent = context.getCarrier().build();
    } catch (RuntimeException e) {
      owner.failures().record("an observation handler", e);
      return chain.proceed(request);
    }
    return proceedInScope(chain, sent, observation).whenComplete((response, error) -> {
      try {
        if (error != null) {
          observation.error(HttpTags.unwrap(error));
        } else {
          context.setResponse(response);
        }
        observation.stop();
      } catch (RuntimeException e) {
        owner.failures().record("an observation handler", e);
      }
    });
  }

  /** Starts the rest of the call with the observation current, so what runs on this thread sees it as the parent. */
  private CompletableFuture<StreamingResponse> proceedInScope(Chain chain, Request request, Observation observation) {
    Observation.Scope scope;
    try {
      scope = observation.openScope();
    } catch (RuntimeException e) {
      owner.failures().record("an observation handler", e);
      return chain.proceed(request);
    }
    try {
      return chain.proceed(request);
    } finally {
      try {
        scope.close();
      } catch (RuntimeException e) {
        owner.failures().record("an observation handler", e);
      }
    }
  }

  @Override
  public String toString() {
    return "StrandObservation.interceptor()";
  }
}
