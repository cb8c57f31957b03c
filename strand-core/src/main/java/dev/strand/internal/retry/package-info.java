/**
 * When a request is sent again: {@link dev.strand.internal.retry.RetryRules}, the one home of every
 * retry and resend decision, asked by the client's retry link (the user's {@code RetryPolicy}) and by the
 * exchange (stale connections, requests the server did not process). Plain code on the public API alone:
 * no Netty, no sockets, no clock of its own.
 */
package dev.strand.internal.retry;
