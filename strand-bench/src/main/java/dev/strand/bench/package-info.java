/**
 * The benchmark harness behind {@code bin/strand bench}: {@link dev.strand.bench.BenchMain} starts the
 * loopback server (or a shaped link in front of it), runs each client in a fresh JVM per scenario
 * ({@link dev.strand.bench.ClientRunner}) and the C and Python references (wrk, h2load, aiohttp), and
 * writes the report, the charts and the judged targets; also the soak and the Flink cells. Not a
 * published module.
 */
package dev.strand.bench;
