/**
 * HTTP authentication schemes behind {@code dev.strand.Auth} (origins, {@code 401}) and
 * {@code dev.strand.ProxyAuthenticator} (proxies, {@code 407}): challenge parsing, Basic, Digest
 * (RFC 7616) and Negotiate (SPNEGO over the JDK's GSS-API). Pure functions of challenges and
 * credentials: no I/O but a Kerberos ticket request, and no Netty.
 */
package dev.strand.internal.auth;
