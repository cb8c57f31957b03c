/**
 * The HTTP cache (RFC 9111): {@code Cache-Control} and {@code Vary} read, freshness and validation
 * decided ({@link dev.strand.internal.cache.CachePolicy}), entries kept on disk
 * ({@link dev.strand.internal.cache.DiskStore}, a bounded LRU of files), and the interceptor that answers
 * from the cache, revalidates, or stores a body while the caller reads it. Used by the client's
 * interceptor chain; it knows nothing of Netty or the engine.
 */
package dev.strand.internal.cache;
