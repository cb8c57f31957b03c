/**
 * HTTP/3 over QUIC for strand-core's engine: {@link dev.strand.http3.internal.QuicConnector} opens QUIC
 * connections (one UDP socket each) for the engine's pool, {@link dev.strand.http3.internal.Http3Connection}
 * carries exchanges on request streams, {@link dev.strand.http3.internal.Http3StreamHandler} is one exchange.
 * Not API: users ask for HTTP/3 with {@code VersionPolicy.HTTP_3_ONLY}, {@code VersionPolicy.HTTP_3_FIRST} or
 * {@code VersionPolicy.HTTP_3_ALT_SVC}.
 */
package dev.strand.http3.internal;
