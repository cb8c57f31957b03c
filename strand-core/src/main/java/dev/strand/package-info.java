/**
 * Strand's API: a {@link dev.strand.Client} sends a {@link dev.strand.Request} and gives a
 * {@link dev.strand.Response} (whole) or a {@link dev.strand.StreamingResponse} (read as it arrives),
 * blocking or as a {@code CompletableFuture}, the same call either way. Around it: the settings
 * ({@link dev.strand.Timeout}, {@link dev.strand.Limits}, {@link dev.strand.Tls}, {@link dev.strand.Proxy},
 * {@link dev.strand.Dns}, {@link dev.strand.RetryPolicy}), interceptors and event listeners, cookies,
 * authentication, the HTTP cache, WebSockets and server-sent events, and one exception hierarchy under
 * {@link dev.strand.HttpException}.
 *
 * <p>Everything a user needs is here; {@code dev.strand.spi} is for those who write a transport, and
 * {@code dev.strand.internal.*} is not exported.
 */
package dev.strand;
