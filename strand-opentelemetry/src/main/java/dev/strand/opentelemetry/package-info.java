/**
 * OpenTelemetry for Strand: {@link dev.strand.opentelemetry.StrandTelemetry} adds a client span per call,
 * with the HTTP semantic conventions, redacted URLs and the {@code traceparent} header propagated.
 */
package dev.strand.opentelemetry;
