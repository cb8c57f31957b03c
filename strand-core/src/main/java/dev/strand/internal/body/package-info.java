/**
 * Views of a response body that the client's layers put around the transport's: {@link
 * dev.strand.internal.body.ForwardingBody}, the base of each view that watches the bytes go by (for
 * the event listener, the end of a call, the cache, the log) without changing them. Used by the client,
 * the cache and {@code dev.strand.HttpLogging}; depends on the SPI alone.
 */
package dev.strand.internal.body;
