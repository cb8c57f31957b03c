/**
 * The exchange driver: one request and its response on one connection, whatever the protocol
 * ({@link dev.strand.internal.exchange.ExchangeDriver} over a
 * {@link dev.strand.internal.exchange.RequestFraming}), with its deadlines, the request body's pump,
 * the response body handed to the reader with back-pressure, and failures mapped to Strand's
 * exceptions. Knows no protocol, dialler or engine ({@code LayeringTest}).
 */
package dev.strand.internal.exchange;
