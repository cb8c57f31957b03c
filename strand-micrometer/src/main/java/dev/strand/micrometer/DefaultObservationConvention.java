package dev.strand.micrometer;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import java.util.Locale;

/** {@link StrandObservationConvention#defaults()}: the keys of Micrometer's HTTP client instrumentations. */
final class DefaultObservationConvention implements StrandObservationConvention {
  static final DefaultObservationConvention INSTANCE = new DefaultObservationConvention();

  private DefaultObservationConvention() {}

  @Override
  public String getName() {
    return StrandMetrics.REQUESTS;
  }

  @Override
  public String getContextualName(StrandObservationContext context) {
    return "http " + context.request().method().toLowerCase(Locale.ROOT);
  }

  @Override
  public KeyValues getLowCardinalityKeyValues(StrandObservationContext context) {
    return KeyValues.of(
        KeyValue.of("method", HttpTags.method(context.request())),
        KeyValue.of("uri", context.uriTemplate()),
        KeyValue.of("status", HttpTags.status(context.getResponse())),
        KeyValue.of("outcome", HttpTags.outcome(context.getResponse())),
        KeyValue.of("exception", HttpTags.exception(context.getError())),
        KeyValue.of("client.name", context.clientName()));
  }

  @Override
  public KeyValues getHighCardinalityKeyValues(StrandObservationContext context) {
    return KeyValues.of(KeyValue.of("http.url", HttpTags.url(context.request())));
  }
}
