package dev.strand.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names a Strand call's observation and its key values. {@link #defaults()} gives the name
 * {@code http.client.requests}, the contextual name {@code http get} (the method in lower case), the
 * low-cardinality keys {@code method}, {@code uri}, {@code status}, {@code outcome}, {@code exception} and
 * {@code client.name} with the values {@link StrandMetrics} describes, and the high-cardinality key
 * {@code http.url} (the URL without user info or query, either of which may carry secrets).
 *
 * <p>To change a part, implement this interface and delegate the rest:
 * {@snippet :
 * StrandObservationConvention teamTagged = new StrandObservationConvention() {
 *   public String getName() { return StrandObservationConvention.defaults().getName(); }
 *   public KeyValues getLowCardinalityKeyValues(StrandObservationContext context) {
 *     return StrandObservationConvention.defaults().getLowCardinalityKeyValues(context).and("team", "payments");
 *   }
 * };
 * }
 */
public interface StrandObservationConvention extends ObservationConvention<StrandObservationContext> {
  /** The convention Strand's observations use unless the registry or the builder sets another. */
  static StrandObservationConvention defaults() {
    return DefaultObservationConvention.INSTANCE;
  }

  @Override
  default boolean supportsContext(Observation.Context context) {
    return context instanceof StrandObservationContext;
  }
}
