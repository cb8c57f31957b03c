/**
 * Micrometer for Strand: {@link dev.strand.micrometer.StrandMetrics} adds
 * {@code http.client.requests} timings (or Observations, with their conventions) and the pool's
 * gauges to a {@code Client.Builder}, tagged as Spring's own HTTP clients tag them.
 */
package dev.strand.micrometer;
