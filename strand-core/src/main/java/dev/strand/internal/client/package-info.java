/**
 * The client's policy, above any transport: a call
 * ({@link dev.strand.internal.client.Call}) runs through a chain of links (the user's interceptors,
 * redirects, retries and their budget, authentication, cookies, HSTS, decompression, progress and
 * limits) down to the transport. Plain code without Netty ({@code LayeringTest}); used by
 * {@code dev.strand.Client}.
 */
package dev.strand.internal.client;
