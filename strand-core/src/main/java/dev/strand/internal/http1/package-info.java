/**
 * HTTP/1.1 framing for the exchange driver: the request's head and body on the wire (chunked or
 * with a length), the response head and body read back with every length and framing check, and a
 * connection's keep-alive. Knows the exchange driver and the pool only ({@code LayeringTest}).
 */
package dev.strand.internal.http1;
