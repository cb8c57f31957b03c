package dev.strand.bench;

import dev.strand.bench.clients.BenchClient;
import dev.strand.bench.clients.ClientSpec;
import dev.strand.bench.clients.Clients;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/strand bench}: starts the testkit server on loopback (its own JVM; with HTTPS and h2c siblings for
 * the TLS and HTTP/2 scenarios), runs each client in its own fresh JVM per scenario, the references (wrk, h2load,
 * and the seeds' Python clients aiohttp, httpx, requests) when present, and the defaults probes; prints the
 * markdown report and writes results.json, results.csv, SVG charts and index.html. With {@code --soak}, the
 * long bounded run of {@link Soak} instead.
 */
@Command(name = "strand bench", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Side-by-side benchmark of Java HTTP clients against a loopback server.",
        "Presets: default (every peer at 1, 10, 100, 500 in flight on /small and h2c, about 15 minutes on 2 "
            + "cores), --seeds (the seeds' scenario: /delay/50 at 10, 100, 1000 in flight, their Python clients "
            + "beside Strand and the Java peers, about 8 minutes), --full (every scenario and level, 5 batches of "
            + "3 s: hours), --quick (indicative, under 3 minutes), --smoke (CI, seconds). Explicit options override "
            + "the preset."})
public final class BenchMain implements Callable<Integer> {

  static final List<String> REFERENCES = List.of("wrk", "h2load", "aiohttp", "httpx", "requests");
  /**
   * The references of the default run: httpx and requests, blocking-era Python clients the default's /small and
   * h2c cells add nothing to, run under --seeds and when named.
   */
  static final List<String> DEFAULT_REFERENCES = List.of("wrk", "h2load", "aiohttp");
  static final int PARALLEL_PROBES = 4;

  @Option(names = "--quick", description = "Indicative run: strand, strand-sync, vertx, helidon, okhttp, jdk + wrk; "
      + "c = 1,10,100; /small; short warm-up.")
  boolean quick;

  @Option(names = "--seeds", description = "The seeds' scenario: a server answering after 50 ms (/delay/50) at "
      + "10, 100 and 1000 in flight; strand, strand-sync, jdk, okhttp, jetty, vertx and the seeds' aiohttp, httpx "
      + "and requests; the ideal (in-flight / 50 ms) in the report. About 8 minutes.")
  boolean seeds;

  @Option(names = "--full", description = "Exhaustive run: every client, c = 1,10,50,100,500, /small, /big, "
      + "/delay/50, https, h2, h2c; 2 s re-warm and 5 batches of 3 s per level. About two hours here.")
  boolean full;

  @Option(names = "--smoke", description = "CI smoke: strand and jdk, c = 2, /small, about a second per cell; "
      + "exits 1 if any cell fails.")
  boolean smoke;

  @Option(names = "--scale", description = "Scale: h2c /delay/5000 at 100,000 streams and HTTP/1.1 /delay/1000 at "
      + "30,000 connections (fewer when this machine's open-file limit is lower: the report says), each client's memory "
      + "per request in flight beside its req/s and the ideal (in flight / delay); strand, strand-sync, vertx, jetty, "
      + "reactor, okhttp, jdk, h2load, aiohttp. About 20 minutes.")
  boolean scale;

  @Option(names = "--memory", description = "Measure each Java and Python client's memory per request in flight: heap "
      + "and direct memory after a full GC, and resident set, from before the load to the end of its batches. On for "
      + "--scale.")
  boolean memory;

  @Option(names = "--soak", description = "Soak instead of the comparison: --requests GETs of /echo, --in-flight at a "
      + "time, against the bench server and then through a fault proxy; every body checked, failures sorted by "
      + "type, pool counters and memory (first vs last minute) reported. At most --phase-seconds per phase.")
  boolean soak;

  @Option(names = "--requests", paramLabel = "N", description = "Soak: requests per phase. Default 1000000.")
  long requests = Soak.DEFAULT_REQUESTS;

  @Option(names = "--in-flight", paramLabel = "K", description = "Soak: requests in flight. Default 500.")
  int inFlight = Soak.DEFAULT_IN_FLIGHT;

  @Option(names = "--phase-seconds", paramLabel = "S", description = "Soak: time bound per phase. Default 600.")
  long phaseSeconds = Soak.DEFAULT_PHASE_SECONDS;

  @Option(names = "--flink", description = "Flink enrichment cell instead of the client matrix: the same job on a "
      + "MiniCluster (parallelism 2, capacity 100 per subtask) against /small with Strand's StrandAsyncFunction and "
      + "with a RichAsyncFunction around the JDK HttpClient, plus Strand's raw client at 200 in flight. Defaults: "
      + "10 s warm-up, 3 batches of 3 s.")
  boolean flink;

  @Option(names = "--clients", split = ",", paramLabel = "NAME",
      description = "Clients, comma-separated: strand, strand-sync, jdk, jdk-sync, okhttp, apache, jetty, reactor, "
          + "vertx, helidon, and the references wrk, h2load, aiohttp, httpx, requests (run only if installed). "
          + "Default: every Java client, wrk, h2load and aiohttp; all: every one.")
  List<String> clients;

  @Option(names = "--concurrency", split = ",", paramLabel = "N", description = "Levels. Default 1,10,100,500 (--full adds 50).")
  List<Integer> concurrency;
  /** Levels of a scenario that runs at its own, set by a preset (--scale): else every scenario runs at --concurrency. */
  private Map<String, List<Integer>> levelsFor = Map.of();

  @Option(names = "--scenario", split = ",", paramLabel = "PATH",
      description = "Scenarios: /small, /big, /delay/MS (leading slash optional); https (/small over HTTPS/1.1), "
          + "h2 (/small over HTTP/2 by ALPN), h2c (prior knowledge), handshake (strand, new TLS connection per "
          + "request, JDK and OpenSSL engines), h3 (/small over HTTP/3), caddy-h2 and caddy-h3 (Caddy's /small.json, "
          + "STRAND_CADDY_URL); NAME:PATH for another path over a named wire (h2c:/bytes/67108864). Default /small,h2c (--full: /small,/big,/delay/50,https,h2,h2c).")
  List<String> scenarios;

  @Option(names = "--link", paramLabel = "SPEC", description = "Every client through a shaped link: LinkShaper's "
      + "spec, e.g. rtt=20ms,rate=200mbit (keys rtt, rate, jitter). HTTP/3 scenarios are not run through it.")
  String link;

  @Option(names = "--client-heap", paramLabel = "SIZE", description = "Start every Java client JVM with a heap of "
      + "SIZE, touched at start (-Xms SIZE -XX:+AlwaysPreTouch). For large bodies: a fresh JVM's heap grows by pages "
      + "the kernel has to zero, which a long-running service paid long ago. Default: the JVM's own sizing.")
  String clientHeap;

  @Option(names = "--warmup", paramLabel = "S", description = "Warm-up seconds at the start of each JVM. Default 10; doubled for HTTP/2 scenarios.")
  Double warmup;

  @Option(names = "--rewarm", paramLabel = "S", description = "Warm-up seconds before each further level. Default 1 (--full 2).")
  Double rewarm;

  @Option(names = "--duration", paramLabel = "S", description = "Seconds per timed batch. Default 1.5 (--full 3).")
  Double duration;

  @Option(names = "--batches", paramLabel = "K", description = "Timed batches per cell. Default 3 (--full 5).")
  Integer batches;

  @Option(names = "--repeat", paramLabel = "K", description = "Run every client K times, each in a fresh JVM, the "
      + "clients' order reversed every other run; each cell is the median over the runs (range: the runs' medians), "
      + "and a strand variant is compared with plain strand run by run. For differences smaller than one JVM's "
      + "±20-30 %%. Default 1.")
  int repeat = 1;

  @Option(names = "--server", paramLabel = "URL",
      description = "Benchmark this server instead of starting the embedded one (its /stats is used if it has one).")
  URI server;

  @Option(names = "--server-threads", paramLabel = "N", description = "I/O threads of the embedded server. Default 1.")
  int serverThreads = 1;

  @Option(names = "--timeout", paramLabel = "S", description = "Connect/read/pool timeout given to every client. "
      + "Default 30.")
  double timeout = 30;

  @Option(names = "--max-requests", paramLabel = "M", description = "Cap on requests per level (with the time bound). "
      + "Default 50000000.")
  long maxRequests = 50_000_000L;

  @Option(names = "--defaults", negatable = true, description = "Run the client-defaults report (/never probes). "
      + "Default on, off for --smoke.")
  Boolean defaults;

  @Option(names = "--defaults-watchdog", paramLabel = "S", description = "Watchdog for the /never probes. Default 8.")
  double defaultsWatchdog = 8;

  @Option(names = "--out", paramLabel = "DIR", description = "Output directory. Default bench-results/<timestamp>/.")
  Path out;

  @Option(names = "--strict", description = "Exit 1 if any cell failed or had errors (on for --smoke).")
  boolean strict;

  private final PrintStream stdout;
  private final PrintStream stderr;

  public BenchMain() {
    this(System.out, System.err);
  }

  BenchMain(PrintStream stdout, PrintStream stderr) {
    this.stdout = stdout;
    this.stderr = stderr;
  }

  public static void main(String[] args) {
    System.exit(run(System.out, System.err, args));
  }

  /** Runs the bench with {@code args} in this JVM (children are still separate processes); returns the exit code. */
  public static int run(PrintStream stdout, PrintStream stderr, String... args) {
    return new CommandLine(new BenchMain(stdout, stderr))
        .setOut(new java.io.PrintWriter(stdout, true))
        .setErr(new java.io.PrintWriter(stderr, true))
        .setExecutionExceptionHandler((e, cmd, parsed) -> {
          stderr.println("strand bench: " + LoadLoop.describe(e));
          e.printStackTrace(stderr);
          return 1;
        })
        .execute(args);
  }

  private String preset() {
    return smoke ? "smoke" : quick ? "quick" : seeds ? "seeds" : scale ? "scale" : full ? "full" : "default";
  }

  private void applyPreset() {
    if (smoke) {
      clients = clients != null ? clients : List.of("strand", "jdk");
      concurrency = concurrency != null ? concurrency : List.of(2);
      scenarios = scenarios != null ? scenarios : List.of("/small");
      warmup = warmup != null ? warmup : 1.0;
      rewarm = rewarm != null ? rewarm : 0.5;
      duration = duration != null ? duration : 0.5;
      batches = batches != null ? batches : 2;
      defaults = defaults != null ? defaults : false;
      strict = true;
    } else if (quick) {
      // The peers to beat at low concurrency (Vert.x at 10, Helidon at 1) and one in flight belong in
      // the table a newcomer sees; Reactor Netty, never the fastest at any level, makes room for them.
      clients = clients != null ? clients
          : List.of("strand", "strand-sync", "vertx", "helidon", "okhttp", "jdk", "wrk");
      concurrency = concurrency != null ? concurrency : List.of(1, 10, 100);
      scenarios = scenarios != null ? scenarios : List.of("/small");
      warmup = warmup != null ? warmup : 5.0;
      rewarm = rewarm != null ? rewarm : 1.0;
      duration = duration != null ? duration : 1.5;
      batches = batches != null ? batches : 3;
    } else if (seeds) {
      clients = clients != null ? clients
          : List.of("strand", "strand-sync", "jdk", "okhttp", "jetty", "vertx", "aiohttp", "httpx", "requests");
      concurrency = concurrency != null ? concurrency : List.of(10, 100, 1000);
      scenarios = scenarios != null ? scenarios : List.of("/delay/50");
      duration = duration != null ? duration : 3.0;
    } else if (scale) {
      clients = clients != null ? clients
          : List.of("strand", "strand-sync", "vertx", "jetty", "reactor", "okhttp", "jdk", "h2load", "aiohttp");
      if (scenarios == null && concurrency == null) {
        scenarios = List.of(Scale.H2C, Scale.HTTP1);
        levelsFor = Map.of(Scale.H2C, List.of(Scale.H2C_STREAMS), Scale.HTTP1, List.of(Scale.http1Connections()));
        concurrency = List.of(Scale.http1Connections(), Scale.H2C_STREAMS);
      }
      warmup = warmup != null ? warmup : 20.0;
      duration = duration != null ? duration : 5.0;
      timeout = Math.max(timeout, 60);
      memory = true;
    } else if (full) {
      concurrency = concurrency != null ? concurrency : List.of(1, 10, 50, 100, 500);
      scenarios = scenarios != null ? scenarios : List.of("/small", "/big", "/delay/50", "https", "h2", "h2c");
      rewarm = rewarm != null ? rewarm : 2.0;
      duration = duration != null ? duration : 3.0;
      batches = batches != null ? batches : 5;
    }
    List<String> all = new ArrayList<>(Clients.javaClients());
    if (clients == null) {
      all.addAll(DEFAULT_REFERENCES);
      clients = all;
    } else if (clients.equals(List.of("all"))) {
      all.addAll(REFERENCES);
      clients = all;
    }
    // The default answers the question a newcomer has, which client is fastest at each load, in about 15
    // minutes: every peer, the four levels and the two wires that matter, 3 batches of 1.5 s per level.
    concurrency = concurrency != null ? concurrency : List.of(1, 10, 100, 500);
    scenarios = Scenario.normalize(scenarios != null ? scenarios : List.of("/small", "h2c"));
    warmup = warmup != null ? warmup : 10.0;
    rewarm = rewarm != null ? rewarm : 1.0;
    duration = duration != null ? duration : 1.5;
    batches = batches != null ? batches : 3;
    defaults = defaults != null ? defaults : true;
  }

  @Override
  public Integer call() throws Exception {
    if (soak) {
      if (requests < 1 || inFlight < 1 || phaseSeconds < 1) {
        stderr.println("strand bench: --requests, --in-flight and --phase-seconds must be positive");
        return 2;
      }
      return Soak.run(new Soak.Plan(requests, inFlight, phaseSeconds), server, outDir(), stdout, stderr);
    }
    if (flink) {
      return flink();
    }
    applyPreset();
    String invalid = invalidOptions();
    if (invalid != null) {
      stderr.println("strand bench: " + invalid);
      return 2;
    }
    String started = now();
    Path dir = outDir();
    Files.createDirectories(dir);
    String machineDesc = machine();
    Path logs = Files.createDirectories(dir.resolve("logs"));
    Progress progress = new Progress(stderr, System.console() != null && stderr == System.err);
    List<String> notes = methodNotes();
    ShapedLinks links = new ShapedLinks(link);
    if (link != null) {
      notes.add("Through a shaped link: " + links.describe() + ".");
    }
    ServerProcess embedded = null;
    try {
      URI base = server;
      String serverDesc = "external " + server;
      boolean tlsServers = scenarios.stream().anyMatch(x -> Scenario.of(x).needsTlsServers());
      Path tlsDir = tlsServers ? dir.resolve("pki").toAbsolutePath() : null;
      if (server == null) {
        progress.update("starting the testkit server");
        embedded = ServerProcess.start(serverThreads, tlsDir);
        base = embedded.baseUri();
        serverDesc = describe(embedded, tlsServers);
        if (tlsServers) {
          ServerStats.trust(embedded.ca()); // for the /stats probes of the TLS listener
        }
      }
      URI statsBase = ServerStats.accepted(base) >= 0 ? base : null;
      if (statsBase == null) {
        notes.add("The server has no /stats: connections accepted are not reported.");
      }
      Map<String, String> setups = new LinkedHashMap<>();
      List<String> runClients = runnableClients(notes, setups);
      List<DefaultsProbe.Defaults> defaultsRows = List.of();
      if (defaults) {
        progress.update("defaults report: GET /never with each client's defaults (watchdog "
            + (int) defaultsWatchdog + " s)");
        defaultsRows = defaultsReport(runClients, base, logs);
      }
      if (scale && embedded != null) {
        notes.add("Every client met a fresh server process: at this scale one client's failure (a storm of "
            + "connections, a process out of threads) can leave the server unable to serve the next.");
      }
      servers = new Servers(base, statsBase, embedded, tlsDir, links);
      List<List<Cell>> runs = measure(runClients, progress, logs);
      progress.done();
      List<Cell> cells = repeat == 1 ? runs.get(0) : Repeats.combine(runs);

      notes.add("Load average (1 min) at the end: " + loadAverage() + " on "
          + Runtime.getRuntime().availableProcessors() + " cores; anything else running skews the numbers.");
      Results.Meta meta = new Results.Meta(started, now(), preset(), machineDesc, "java " + Runtime.version() + " ("
          + System.getProperty("java.vm.name") + ")", serverDesc, server == null, scenarios, concurrency, runClients,
          warmup, rewarm, duration, batches, timeout, repeat, notes);
      List<List<Cell>> eachRun = repeat == 1 ? List.of() : runs;
      Results partial = new Results(meta, cells, defaultsRows, List.of(), setups, eachRun);
      Results results = new Results(meta, cells, defaultsRows, Targets.evaluate(partial), setups, eachRun);
      String md = Report.write(results, dir);
      stdout.print(md);
      stdout.println();
      stdout.println("Wrote " + dir.toAbsolutePath() + "/{report.md,results.json,results.csv,index.html,*.svg}");
      stdout.flush();
      boolean bad = cells.stream().anyMatch(c -> !c.status().equals("ok") && !c.notApplicable());
      return strict && bad ? 1 : 0;
    } finally {
      links.close();
      if (embedded != null) {
        embedded.close();
      }
      if (servers != null && servers.embedded() != embedded) { // a fresh one the run started, see measure
        servers.embedded().close();
      }
    }
  }

  /** What a run's cells are measured against: the server (or the external one), its /stats, and the links. */
  private record Servers(URI base, URI statsBase, ServerProcess embedded, Path tlsDir, ShapedLinks links) {
    /** The same servers with the embedded one replaced by a fresh process; this one's is stopped. */
    Servers restarted(int ioThreads) throws java.io.IOException {
      embedded.close();
      ServerProcess fresh = ServerProcess.start(ioThreads, tlsDir);
      if (tlsDir != null) {
        ServerStats.trust(fresh.ca());
      }
      URI freshBase = fresh.baseUri();
      return new Servers(freshBase, statsBase == null ? null : freshBase, fresh, tlsDir, links);
    }

    /** Where {@code sc} is reached by the clients (through a link, if any), or null when nothing serves it. */
    URI on(Scenario sc) {
      return links.through(direct(sc), sc.wire());
    }

    URI direct(Scenario sc) {
      return serverFor(sc, base, embedded);
    }
  }

  /** Why the options cannot run, or null. */
  private String invalidOptions() {
    for (String c : clients) {
      if (!Clients.isKnown(c) && !REFERENCES.contains(c)) {
        return "unknown client \"" + c + "\"; known: " + Clients.javaClients() + " + " + REFERENCES;
      }
    }
    if (concurrency.stream().anyMatch(c -> c < 1) || batches < 1 || duration <= 0 || repeat < 1) {
      return "concurrency, batches, duration and repeat must be positive";
    }
    if (clientHeap != null && !clientHeap.matches("[1-9][0-9]*[kKmMgG]?")) {
      return "--client-heap takes a JVM heap size such as 1g or 512m, not \"" + clientHeap + "\"";
    }
    return null;
  }

  /** The JVM options {@code --client-heap} gives every Java client, or none. */
  private List<String> clientHeapOptions() {
    return clientHeap == null ? List.of() : List.of("-Xms" + clientHeap, "-XX:+AlwaysPreTouch");
  }

  /** The report's notes on how this run measures, before anything ran. */
  private List<String> methodNotes() {
    List<String> notes = new ArrayList<>();
    if (scenarios.stream().anyMatch(x -> Scenario.of(x).handshake())) {
      notes.add("handshake-jdk / handshake-openssl: strand only, Connection: close and no keep-alive, so every "
          + "request is a new TCP connection and a TLS handshake, resuming the previous connection's session; "
          + "full-handshake-jdk / full-handshake-openssl: the same with Tls.sessionResumption(false), so every "
          + "handshake is a full one (certificate chain sent and verified against the test CA): req/s = "
          + "handshakes/s, CPU µs/req = client CPU µs per handshake (and request), latency = one connection's "
          + "set-up and request.");
    }
    if (repeat > 1) {
      notes.add("--repeat " + repeat + ": every client ran " + repeat + " times, each in a fresh JVM, the clients' "
          + "order reversed every other run. A cell's req/s, CPU and latency are medians over the runs; its range "
          + "spans the runs' medians.");
    }
    if (clientHeap != null) {
      notes.add("--client-heap " + clientHeap + ": every Java client JVM started with "
          + String.join(" ", clientHeapOptions()) + ", its heap's pages touched before the first request.");
    }
    if (scale && Scale.http1Note() != null && scenarios.contains(Scale.HTTP1)) {
      notes.add(Scale.http1Note());
    }
    if (quick || smoke) {
      notes.add("Preset " + preset() + ": indicative only (short warm-up, few levels and batches). "
          + "Run without --" + preset() + " for every peer at every level, or with --full for every scenario.");
    }
    return notes;
  }

  /** The embedded servers as the report's header names them. */
  private String describe(ServerProcess embedded, boolean tlsServers) {
    String desc = "embedded strand-testkit TestServer at " + embedded.baseUri() + ", own JVM, " + serverThreads
        + " I/O thread(s), " + embedded.transport();
    if (tlsServers) {
      desc += "; HTTPS (ALPN h2 + http/1.1, test CA, JDK TLS) at " + embedded.tlsUri() + " and h2c at "
          + embedded.h2cUri() + ", both SETTINGS_MAX_CONCURRENT_STREAMS " + ServerMain.MAX_STREAMS
          + "; HTTP/3 (Netty QUIC, initial_max_streams_bidi " + ServerMain.MAX_STREAMS + ") at " + embedded.h3Uri();
    }
    return desc;
  }

  /**
   * The clients asked for that can run here, each with its setup line; a reference that is not installed is
   * left out with a note saying so.
   */
  private List<String> runnableClients(List<String> notes, Map<String, String> setups) {
    List<String> runClients = new ArrayList<>();
    for (String c : clients) {
      switch (ClientKind.of(c)) {
        case WRK -> {
          if (!WrkRunner.available()) {
            notes.add("wrk is not installed (Debian package wrk): no C reference in this run.");
            continue;
          }
          setups.put(c, WrkRunner.SETUP);
        }
        case H2LOAD -> {
          if (!H2loadRunner.available()) {
            notes.add("h2load is not installed (Debian package nghttp2-client): no HTTP/2 reference in this run.");
            continue;
          }
          setups.put(c, H2loadRunner.SETUP);
        }
        case PYTHON -> {
          PythonRunner python = PythonRunner.named(c);
          if (!python.available()) {
            notes.add(python.missing());
            continue;
          }
          setups.put(c, python.setup());
        }
        case JAVA, FAKE -> setups.put(c, Clients.get(c).setup());
      }
      runClients.add(c);
    }
    return runClients;
  }

  /** Every scenario with every client, {@code --repeat} times: the cells of each run. */
  /** The levels {@code scenario} runs at: the preset's own for it, else {@code --concurrency}. */
  private List<Integer> levels(String scenario) {
    return levelsFor.getOrDefault(scenario, concurrency);
  }

  /** What the cells are measured against; replaced when the scale preset gives each client a fresh server. */
  private Servers servers;

  private List<List<Cell>> measure(List<String> runClients, Progress progress, Path logs) throws Exception {
    Map<String, Integer> expected = new LinkedHashMap<>();
    for (String scenario : scenarios) {
      // Same endpoint, same bytes on every server: probe the cleartext one (Caddy's /small.json is /small).
      Scenario sc = Scenario.of(scenario);
      expected.put(scenario, probeLength(servers.base().resolve(sc.onCaddy() ? "/small" : sc.path())));
    }
    List<List<Cell>> runs = new ArrayList<>();
    for (int r = 0; r < repeat; r++) {
      runs.add(new ArrayList<>());
    }
    int steps = scenarios.size() * runClients.size() * repeat;
    double planned = 0;
    for (String scenario : scenarios) {
      Scenario sc = Scenario.of(scenario);
      URI on = servers.on(sc);
      planned += warmsServer(sc, on) ? warmupFor(sc) : 0;
      for (String client : runClients) {
        planned += repeat * plannedSeconds(client, sc, on == null ? null : on.resolve(sc.path()));
      }
    }
    progress.plan(planned);
    int step = 0;
    boolean firstCell = true;
    for (String scenario : scenarios) {
      Scenario sc = Scenario.of(scenario);
      int expect = expected.get(scenario);
      Target target = target(sc, expect);
      if (warmsServer(sc, target.url())) {
        // Straight to the server, not through a shaped link: it is the server's JIT that warms up.
        warmServer(servers.direct(sc).resolve(sc.path()), sc, target.ca(), expect, progress);
        progress.advance(warmupFor(sc));
      }
      for (int r = 0; r < repeat; r++) {
        String logSuffix = repeat == 1 ? "" : "-run" + (r + 1);
        for (String client : r % 2 == 0 ? runClients : runClients.reversed()) {
          if (sc.handshake() && !client.equals("strand") && ClientKind.of(client) != ClientKind.FAKE) {
            continue; // strand-only by design (the report's method says so), so no n/a rows either
          }
          step++;
          progress.step("[" + step + "/" + steps + "]");
          if (scale && servers.embedded() != null && !firstCell) {
            progress.update("starting a fresh testkit server");
            servers = servers.restarted(serverThreads);
            target = target(sc, expect);
          }
          firstCell = false;
          runs.get(r).addAll(cells(client, target, progress, logs, logSuffix));
          progress.advance(plannedSeconds(client, sc, target.url())); // steps skipped above had none planned
        }
      }
    }
    return runs;
  }

  /**
   * Whether the embedded server is warmed up alone before {@code sc}'s first client. Not at scale, where every
   * client meets a fresh server and its own long warm-up warms the server as well.
   */
  private boolean warmsServer(Scenario sc, URI url) {
    return url != null && servers.embedded() != null && !sc.onCaddy() && !scale;
  }

  /** One scenario as the clients reach it: its URL (null when nothing serves it), body length, /stats and CA. */
  private record Target(Scenario sc, URI url, int expect, URI stats, Path ca) {}

  /** {@code sc} on the current {@link #servers}. */
  private Target target(Scenario sc, int expect) {
    URI direct = servers.direct(sc);
    URI on = servers.on(sc);
    URI url = on == null ? null : on.resolve(sc.path());
    URI stats = on == null ? null : direct.equals(servers.base()) ? servers.statsBase()
        : ServerStats.accepted(direct) >= 0 ? direct : null;
    ServerProcess embedded = servers.embedded();
    Path ca = sc.onCaddy() ? (url == null ? null : Path.of(System.getenv("STRAND_TLS_CA")))
        : embedded == null ? null : embedded.ca();
    return new Target(sc, url, expect, stats, ca);
  }

  /** {@code client}'s cells on {@code t}, one per level: measured, or why not. */
  private List<Cell> cells(String client, Target t, Progress progress, Path logs, String logSuffix) {
    String scenario = t.sc().name();
    ClientKind kind = ClientKind.of(client);
    String na = notApplicable(client, t.sc(), t.url());
    if (na != null) {
      return levels(scenario).stream().map(c -> Cell.notApplicable(client, kind.cellKind(), scenario, c, na)).toList();
    }
    Duration re = secs(rewarm);
    Duration each = secs(duration);
    return switch (kind) {
      case H2LOAD -> levels(scenario).stream().map(c -> H2loadRunner.level(t.url(), scenario, c, re, each, batches,
          t.stats(), progress::update)).toList();
      case WRK -> levels(scenario).stream().map(c -> WrkRunner.level(t.url(), scenario, c, re, each, batches,
          t.stats(), progress::update)).toList();
      case PYTHON -> PythonRunner.named(client).run(t.url(), scenario, levels(scenario), t.expect(), secs(warmup), re,
          each, batches, memory, t.stats(), progress::update, logs.resolve(client + logSuffix + ".log"));
      case JAVA, FAKE -> javaClient(client, t.url(), t.sc(), t.expect(), t.stats(), t.ca(), progress, logs,
          logSuffix);
    };
  }

  private static String now() {
    return DateTimeFormatter.ISO_INSTANT.format(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
  }

  private Path outDir() {
    return out != null ? out : Path.of("bench-results",
        DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now()));
  }

  /** {@code --flink}: see {@link FlinkCells}. */
  private int flink() throws Exception {
    Path dir = out != null ? out : Path.of(outDir() + "-flink");
    Path logs = Files.createDirectories(dir.resolve("logs"));
    Progress progress = new Progress(stderr, System.console() != null && stderr == System.err);
    ServerProcess embedded = null;
    try {
      URI base = server;
      if (base == null) {
        progress.update("starting the testkit server");
        embedded = ServerProcess.start(serverThreads, null);
        base = embedded.baseUri();
      }
      return FlinkCells.run(base, warmup != null ? warmup : 10.0, duration != null ? duration : 3.0,
          batches != null ? batches : 3, timeout, forwardedProperties(), dir, logs, progress, stdout);
    } finally {
      if (embedded != null) {
        embedded.close();
      }
    }
  }

  /**
   * A JVM client's warm-up for one scenario: doubled on HTTP/2, whose frame codec and stream handlers
   * took ~15 s of JIT here before throughput settled (measured with 10/15/20 s), against ~8 s on HTTP/1.1.
   */
  double warmupFor(Scenario sc) {
    return sc.wire().h2() || sc.wire() == dev.strand.bench.clients.Wire.H3 ? 2 * warmup : warmup;
  }

  /** The Caddy that bin/test starts ({@code STRAND_CADDY_URL}, trusted through {@code STRAND_TLS_CA}), or null. */
  static URI caddy() {
    String url = System.getenv("STRAND_CADDY_URL");
    String ca = System.getenv("STRAND_TLS_CA");
    return url == null || url.isBlank() || ca == null || ca.isBlank() ? null : URI.create(url + "/");
  }

  /** Why {@code client} does not run {@code sc}, or null when it does. */
  static String notApplicable(String client, Scenario sc, URI url) {
    if (url == null && sc.onCaddy()) {
      return "STRAND_CADDY_URL and STRAND_TLS_CA are not set (bin/test starts Caddy)";
    }
    if (url == null) {
      return "TLS and h2c scenarios need the embedded server";
    }
    ClientKind kind = ClientKind.of(client);
    if (sc.wire() == dev.strand.bench.clients.Wire.H3 && kind.isReference()) {
      return "no HTTP/3";
    }
    return switch (kind) {
      case WRK -> sc.wire().h2() ? "HTTP/1.1 only" : sc.handshake() ? "no per-request new connection" : null;
      case H2LOAD -> sc.wire().h2() ? null : "HTTP/2 reference only";
      case PYTHON -> sc.wire() == dev.strand.bench.clients.Wire.H1 ? null : "cleartext HTTP/1.1 only in this bench";
      case JAVA, FAKE -> Clients.unsupported(client, sc.wire(), sc.handshake());
    };
  }

  /** Where {@code sc} is served: the embedded server's listener for its wire, or Caddy; null when there is none. */
  static URI serverFor(Scenario sc, URI base, ServerProcess embedded) {
    return sc.onCaddy() ? caddy() : switch (sc.wire()) {
      case H1 -> base;
      case H1_TLS, H2_TLS -> embedded == null ? null : embedded.tlsUri();
      case H2C -> embedded == null ? null : embedded.h2cUri();
      case H3 -> embedded == null ? null : embedded.h3Uri();
    };
  }

  /** How long {@code client} on {@code sc} should take by the options, for the progress line's estimate. */
  private double plannedSeconds(String client, Scenario sc, URI url) {
    ClientKind kind = ClientKind.of(client);
    if (notApplicable(client, sc, url) != null
        || sc.handshake() && !client.equals("strand") && kind != ClientKind.FAKE) {
      return 0;
    }
    int n = levels(sc.name()).size();
    double measured = n * batches * duration;
    return kind.perLevel() ? measured + n * rewarm : measured + warmupFor(sc) + (n - 1) * rewarm;
  }

  /**
   * Drives the embedded server alone, for a client warm-up's length, before the first client of a scenario.
   * The server JVM starts cold: without this, the first client measured (strand, in the default order) also
   * pays for the server's JIT.
   */
  private void warmServer(URI url, Scenario sc, Path ca, int expect, Progress progress) throws Exception {
    double seconds = warmupFor(sc);
    progress.update("server warm-up " + seconds + "s (" + sc.name() + ")");
    // Fifty 64 MiB downloads at once would only fill memory: large bodies warm it two at a time.
    int inFlight = expect > 1 << 20 ? 2 : 50;
    ClientSpec spec = new ClientSpec(url, inFlight, secs(timeout), expect, sc.wire(), ca, null, false, true);
    try (BenchClient client = Clients.get("strand").factory().apply(spec)) {
      LoadLoop loop = new LoadLoop(client, inFlight, expect, maxRequests);
      loop.start();
      loop.run(secs(seconds));
      loop.stop(secs(timeout + 5));
    }
  }

  /** @param logSuffix appended to the log's name: {@code "-run2"} for the second of several runs, else empty */
  private List<Cell> javaClient(String client, URI url, Scenario sc, int expect, URI statsBase, Path ca,
      Progress progress, Path logs, String logSuffix) {
    String scenario = sc.name();
    double warmup = warmupFor(sc);
    List<String> args = new ArrayList<>(List.of("--client", client, "--url", url.toString(), "--scenario", scenario,
        "--levels", String.join(",", levels(scenario).stream().map(String::valueOf).toList()),
        "--expect-bytes", Integer.toString(expect), "--warmup", Double.toString(warmup),
        "--rewarm", Double.toString(rewarm), "--duration", Double.toString(duration),
        "--batches", Integer.toString(batches), "--max-requests", Long.toString(maxRequests),
        "--timeout", Double.toString(timeout)));
    if (statsBase != null) {
      args.addAll(List.of("--stats-url", statsBase.toString()));
    }
    args.addAll(List.of("--wire", sc.wire().name()));
    if (sc.wire().tls()) {
      args.addAll(List.of("--ca", ca.toString()));
    }
    if (sc.engine() != null) {
      args.addAll(List.of("--engine", sc.engine()));
    }
    if (!sc.resumption()) {
      args.addAll(List.of("--no-resumption", "true"));
    }
    if (memory) {
      args.addAll(List.of("--memory", "true"));
    }
    List<Integer> levels = levels(scenario);
    Duration budget = secs(warmup + levels.size() * (rewarm + batches * duration + timeout + 10) + 60);
    Clients.Entry entry = Clients.get(client);
    List<String> jvmArgs = new ArrayList<>(forwardedProperties());
    jvmArgs.addAll(clientHeapOptions());
    jvmArgs.addAll(entry.jvmArgs());
    Children.Outcome o = Children.run(Children.java(jvmArgs, Children.classpath(entry.extraLib()), ClientRunner.class, args), budget,
        progress::update, logs.resolve(client + "-" + Report.slug(scenario) + logSuffix + ".log"));
    List<Cell> cells = new ArrayList<>();
    for (String line : o.results()) {
      try {
        cells.add(Report.json().readValue(line, Cell.class));
      } catch (Exception e) {
        cells.add(Cell.failed(client, "java", scenario, -1, "unreadable result: " + line));
      }
    }
    for (int i = cells.size(); i < levels.size(); i++) {
      cells.add(Cell.failed(client, ClientKind.of(client).cellKind(), scenario, levels.get(i),
          o.describeFailure()));
    }
    return cells;
  }

  private List<DefaultsProbe.Defaults> defaultsReport(List<String> runClients, URI base, Path logs) {
    Set<String> libraries = new LinkedHashSet<>();
    for (String c : runClients) {
      if (Clients.isKnown(c) && !c.startsWith("fake") && !Clients.isVariant(c)) {
        libraries.add(c.replace("-sync", ""));
      }
    }
    // The watchdog is timed inside each probe, from the call; this budget only catches a probe that hangs
    // before or after it (a JVM starting slowly on a busy machine must not be reported as a hang).
    Duration budget = secs(defaultsWatchdog + 120);
    java.util.concurrent.Semaphore slots = new java.util.concurrent.Semaphore(PARALLEL_PROBES);
    List<CompletableFuture<DefaultsProbe.Defaults>> probes = new ArrayList<>();
    for (String lib : libraries) {
      probes.add(CompletableFuture.supplyAsync(() -> {
        slots.acquireUninterruptibly();
        Children.Outcome o;
        try {
          o = Children.run(Children.java(List.of(), DefaultsProbe.class, List.of("--client", lib,
            "--url", base.toString(), "--watchdog", Double.toString(defaultsWatchdog))), budget, s -> { },
              logs.resolve("defaults-" + lib + ".log"));
        } finally {
          slots.release();
        }
        try {
          return Report.json().readValue(o.results().getFirst(), DefaultsProbe.Defaults.class);
        } catch (Exception e) {
          return new DefaultsProbe.Defaults(lib, "?", "?", "?", "?", "?", "probe failed: " + o.describeFailure());
        }
      }, runnable -> Thread.ofPlatform().daemon().start(runnable)));
    }
    return probes.stream().map(CompletableFuture::join).toList();
  }

  /**
   * What each client JVM gets from this one: the {@code strand.bench.*} properties, and the JVM options in
   * {@code strand.bench.clientJvm} (space-separated), e.g. a JFR recording per client:
   * {@code -Dstrand.bench.clientJvm=-XX:StartFlightRecording=filename=/tmp/c.jfr,settings=profile}.
   */
  static List<String> forwardedProperties() {
    List<String> out = new ArrayList<>();
    System.getProperties().forEach((k, v) -> {
      if (k.toString().startsWith("strand.bench.")) {
        out.add("-D" + k + "=" + v);
      }
    });
    String jvm = System.getProperty("strand.bench.clientJvm", "").strip();
    if (!jvm.isEmpty()) {
      out.addAll(List.of(jvm.split("\\s+")));
    }
    return out;
  }

  /** One GET with the JDK client to learn the body length every response of a scenario must have. */
  static int probeLength(URI url) throws Exception {
    try (HttpClient c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10)).build()) {
      HttpResponse<byte[]> r = c.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30)).build(),
          HttpResponse.BodyHandlers.ofByteArray());
      if (r.statusCode() != 200) {
        throw new IllegalStateException("GET " + url + " answered " + r.statusCode() + ", not 200");
      }
      return r.body().length;
    }
  }

  static String machine() {
    String cpu = "?";
    try {
      cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
          .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse("?");
    } catch (Exception e) {
      // Not Linux: the core count still says enough.
    }
    return Runtime.getRuntime().availableProcessors() + " cores (" + cpu + "), " + System.getProperty("os.name") + " "
        + System.getProperty("os.version") + ", load average at start " + loadAverage();
  }

  /** The 1-minute load average: other work on the machine skews every number, so the report says how much. */
  static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (Exception e) {
      return "?";
    }
  }

  private static Duration secs(double s) {
    return Duration.ofMillis(Math.round(s * 1000));
  }
}
