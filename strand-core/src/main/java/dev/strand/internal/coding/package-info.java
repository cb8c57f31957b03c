/**
 * Content codings: gzip, deflate, brotli and zstd decoders that stream chunk by chunk with a
 * bound on the decoded size, the decoding response body, and gzip for request bodies. Plain code
 * without Netty ({@code LayeringTest}).
 */
package dev.strand.internal.coding;
