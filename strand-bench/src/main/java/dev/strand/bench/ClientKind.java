package dev.strand.bench;

import dev.strand.bench.clients.Clients;

/** What runs a client named on the command line: a Java child JVM, one of the references, or the harness's fake. */
enum ClientKind {
  /** A Java client in a {@link ClientRunner} JVM of its own. */
  JAVA("java"),
  /** The harness's own clients of known latency ({@code fake}, {@code fake-broken}), also in a child JVM. */
  FAKE("fake"),
  /** wrk, one process per batch. */
  WRK("reference"),
  /** h2load, one process per batch. */
  H2LOAD("reference"),
  /** aiohttp, httpx or requests, one python process per scenario ({@link PythonRunner}). */
  PYTHON("reference");

  private final String cellKind;

  ClientKind(String cellKind) {
    this.cellKind = cellKind;
  }

  /** @throws IllegalArgumentException for a name no kind runs */
  static ClientKind of(String client) {
    if (client.equals("wrk")) {
      return WRK;
    }
    if (client.equals("h2load")) {
      return H2LOAD;
    }
    if (PythonRunner.named(client) != null) {
      return PYTHON;
    }
    if (client.startsWith("fake") && Clients.isKnown(client)) {
      return FAKE;
    }
    if (Clients.isKnown(client)) {
      return JAVA;
    }
    throw new IllegalArgumentException("unknown client \"" + client + "\"");
  }

  /** The {@link Cell#kind()} of its cells: java, fake or reference. */
  String cellKind() {
    return cellKind;
  }


  /** wrk, h2load or a Python client: not Java, run by a runner of its own. */
  boolean isReference() {
    return this == WRK || this == H2LOAD || this == PYTHON;
  }

  /** A reference measured level by level with no warm-up of its own (the native tools). */
  boolean perLevel() {
    return this == WRK || this == H2LOAD;
  }
}
