/**
 * TLS for the engine: Netty SSL contexts built from a {@code dev.strand.Tls} (system or PEM trust,
 * client keys, protocols and suites, the JDK or OpenSSL engine, resumption), pins checked in the trust
 * manager, and handshake failures turned into {@code TlsException}s that say what went wrong.
 */
package dev.strand.internal.tls;
