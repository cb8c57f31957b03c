/**
 * One adapter per benchmarked client (Strand and its variants, the JDK client, OkHttp, Apache 5,
 * Jetty, Reactor Netty, Vert.x, Helidon, Spring's RestClient), each behind
 * {@link dev.strand.bench.clients.BenchClient} and built from the same
 * {@link dev.strand.bench.clients.ClientSpec}: same pool size, same timeout, full body read.
 */
package dev.strand.bench.clients;
