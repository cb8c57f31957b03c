/**
 * Server-sent events: the {@code text/event-stream} parser (the WHATWG rules: fields, comments,
 * {@code retry}, split lines) and the {@link dev.strand.internal.sse.Reconnector} that reopens a dropped
 * stream with {@code Last-Event-ID}. Plain code without Netty; used by the client's event-stream calls.
 */
package dev.strand.internal.sse;
