/**
 * Strand in Apache Flink's DataStream API: {@link dev.strand.flink.StrandAsyncFunction} for enrichment
 * through async I/O, {@link dev.strand.flink.StrandHttpSink} for writing records over HTTP (at least
 * once, or effectively once with idempotency keys), and their settings, mappers, retry strategy and
 * error kinds. Uses Strand's public API only.
 */
package dev.strand.flink;
