package dev.strand.bench;

import dev.strand.testkit.FaultProxy;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code bin/strand bench --soak}: the same bounded load twice from one client JVM ({@link SoakRunner}),
 * against the bench server and then through a {@link FaultProxy} run here, in the orchestrating JVM, so its
 * buffers are not counted in the client's memory. Writes {@code report.md} and {@code soak.json}; exit 1
 * unless both phases are clean (nothing unexplained, the pool idle afterwards).
 */
final class Soak {
  static final long DEFAULT_REQUESTS = 1_000_000;
  static final int DEFAULT_IN_FLIGHT = 500;
  static final long DEFAULT_PHASE_SECONDS = 600;
  /** The fault mix, per response chunk (per request for early close); a /echo response is one chunk. */
  static final double RESET = 0.001;
  static final double DELAY = 0.01;
  static final int DELAY_MAX_MILLIS = 20;
  static final double TRUNCATE = 0.001;
  static final double STRAY_BYTES = 0.002;
  static final double EARLY_CLOSE = 0.001;
  static final long SEED = 20261204;
  /** The client JVM's heap: bounded, so a leak shows as growth toward it rather than hiding in a large default. */
  static final String CLIENT_HEAP = "-Xmx512m";

  /** What the soak was asked to do. */
  record Plan(long requests, int inFlight, long phaseSeconds) {}

  private Soak() {
  }

  static int run(Plan plan, URI server, Path dir, PrintStream stdout, PrintStream stderr) throws Exception {
    Files.createDirectories(dir);
    Path logs = Files.createDirectories(dir.resolve("logs"));
    Progress progress = new Progress(stderr, System.console() != null && stderr == System.err);
    String started = BenchMain.machine();
    ServerProcess embedded = null;
    URI base = server;
    try {
      if (base == null) {
        progress.update("starting the testkit server");
        embedded = ServerProcess.start(1, null);
        base = embedded.baseUri();
      }
      try (FaultProxy proxy = FaultProxy.builder(new InetSocketAddress(base.getHost(), base.getPort()))
          .seed(SEED).reset(RESET).delay(DELAY, DELAY_MAX_MILLIS).truncate(TRUNCATE).strayBytes(STRAY_BYTES)
          .earlyClose(EARLY_CLOSE).maxConnections(Math.max(1024, 2 * plan.inFlight())).build()) {
        List<String> args = List.of("--direct", base.toString(), "--faults", proxy.url("/"),
            "--requests", Long.toString(plan.requests()), "--in-flight", Integer.toString(plan.inFlight()),
            "--phase-seconds", Long.toString(plan.phaseSeconds()));
        Duration budget = Duration.ofSeconds(2 * (plan.phaseSeconds() + SoakRunner.HANG.toSeconds() + 30) + 60);
        Children.Outcome o = Children.run(Children.java(List.of(CLIENT_HEAP), SoakRunner.class, args), budget,
            progress::update, logs.resolve("soak.log"));
        progress.done();
        List<SoakPhase> phases = new ArrayList<>();
        for (String line : o.results()) {
          phases.add(Report.json().readValue(line, SoakPhase.class));
        }
        if (phases.size() == 2) {
          Map<String, Long> injected = new LinkedHashMap<>();
          proxy.injected().forEach((f, n) -> injected.put(f.name(), n));
          phases.set(1, phases.get(1).withInjected(injected));
        }
        String md = SoakReport.markdown(plan, started, BenchMain.loadAverage(), proxy.toString(), phases,
            phases.size() == 2 ? null : "the soak child ended early: " + o.describeFailure());
        Files.writeString(dir.resolve("report.md"), md);
        Report.json().writeValue(dir.resolve("soak.json").toFile(), phases);
        stdout.print(md);
        stdout.println();
        stdout.println("Wrote " + dir.toAbsolutePath() + "/{report.md,soak.json}");
        stdout.flush();
        return phases.size() == 2 && phases.stream().allMatch(SoakPhase::clean) ? 0 : 1;
      }
    } finally {
      if (embedded != null) {
        embedded.close();
      }
    }
  }
}
