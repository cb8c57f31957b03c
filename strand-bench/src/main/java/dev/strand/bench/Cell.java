package dev.strand.bench;

import java.util.Collections;
import java.util.List;

/**
 * One measured cell: a client at one concurrency on one scenario. Nullable numbers mean "not measured"
 * (a failed cell, or a figure a reference tool does not give).
 *
 * @param kind        {@code java} (a client under test), {@code reference} (wrk, aiohttp) or {@code fake}
 * @param status      {@code ok}, {@code errors} (measured, but some responses failed their check), {@code failed}
 *                    or {@code n/a} (the client cannot speak the scenario; {@code error} says why)
 * @param requests    successful responses inside the timed batches
 * @param errors      failed requests over the whole cell, warm-up included
 * @param serverCpuUsPerRequest the server process's CPU µs per request over the timed batches, or null when the
 *                    server does not tell (any server but the testkit's)
 * @param connections connections the server accepted during the cell, or null when the server cannot tell
 * @param memory      what the client held for its requests in flight, when the run asked ({@code --memory}), else null
 */
public record Cell(
    String client,
    String kind,
    String scenario,
    int concurrency,
    String status,
    String error,
    List<Double> batchRps,
    Double rps,
    Double rpsMin,
    Double rpsMax,
    long requests,
    long errors,
    Double cpuUsPerRequest,
    Double serverCpuUsPerRequest,
    Double p50Ms,
    Double p99Ms,
    Long connections,
    Memory memory) {

  public static Cell failed(String client, String kind, String scenario, int concurrency, String error) {
    return new Cell(client, kind, scenario, concurrency, "failed", error, List.of(), null, null, null, 0, 0,
        null, null, null, null, null, null);
  }

  /** A client that cannot speak a scenario: reported with the reason, never dropped. */
  public static Cell notApplicable(String client, String kind, String scenario, int concurrency, String reason) {
    return new Cell(client, kind, scenario, concurrency, "n/a", reason, List.of(), null, null, null, 0, 0,
        null, null, null, null, null, null);
  }

  public boolean notApplicable() {
    return status.equals("n/a");
  }

  public boolean measured() {
    return rps != null;
  }

  public Cell withConnections(Long c) {
    return new Cell(client, kind, scenario, concurrency, status, error, batchRps, rps, rpsMin, rpsMax, requests,
        errors, cpuUsPerRequest, serverCpuUsPerRequest, p50Ms, p99Ms, c, memory);
  }

  public Cell withScenario(String s) {
    return new Cell(client, kind, s, concurrency, status, error, batchRps, rps, rpsMin, rpsMax, requests,
        errors, cpuUsPerRequest, serverCpuUsPerRequest, p50Ms, p99Ms, connections, memory);
  }

  public Cell withMemory(Memory m) {
    return new Cell(client, kind, scenario, concurrency, status, error, batchRps, rps, rpsMin, rpsMax, requests,
        errors, cpuUsPerRequest, serverCpuUsPerRequest, p50Ms, p99Ms, connections, m);
  }

  public Cell withServerCpu(Double usPerRequest) {
    return new Cell(client, kind, scenario, concurrency, status, error, batchRps, rps, rpsMin, rpsMax, requests,
        errors, cpuUsPerRequest, usPerRequest, p50Ms, p99Ms, connections, memory);
  }

  /** Builds a measured cell from per-batch req/s; the median and range are computed here, once. */
  public static Cell measured(String client, String kind, String scenario, int concurrency, List<Double> batchRps,
      long requests, long errors, String firstError, Double cpuUsPerRequest, Double p50Ms, Double p99Ms,
      Long connections) {
    if (batchRps.isEmpty() || requests == 0) {
      return new Cell(client, kind, scenario, concurrency, "failed",
          firstError != null ? firstError : "no successful response in the timed batches", List.of(), null, null,
          null, 0, errors, null, null, null, null, connections, null);
    }
    String status = errors == 0 ? "ok" : "errors";
    return new Cell(client, kind, scenario, concurrency, status, errors == 0 ? null : firstError, batchRps,
        median(batchRps), Collections.min(batchRps), Collections.max(batchRps), requests, errors, cpuUsPerRequest,
        null, p50Ms, p99Ms, connections, null);
  }

  /** The median of {@code values} (not empty): the middle one, or the mean of the two middle ones. */
  static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
