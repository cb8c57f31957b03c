package dev.strand.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strand.bench.clients.BenchClient;
import dev.strand.bench.clients.ClientSpec;
import dev.strand.bench.clients.Clients;
import dev.strand.bench.clients.Wire;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The child process that measures one Java client on one scenario, level by level, in a fresh JVM.
 *
 * <p>{@code --client NAME --url U --scenario S --levels 1,10 --expect-bytes B --warmup S --rewarm S
 * --duration S --batches K [--max-requests M] [--timeout S] [--stats-url BASE] [--wire H1|H1_TLS|H2_TLS|H2C]
 * [--ca PEM] [--engine jdk|openssl] [--memory true]} ({@code --engine}: the handshake scenario, no connection reuse;
 * {@code --memory}: each cell adds its {@link Memory}). Per level it builds a new
 * client sized to the level, warms it (the long warm-up on the first level only, for the JIT), then runs K
 * timed batches. One {@code RESULT <json>} line per level on stdout; {@code PROGRESS ...} lines on stderr.
 */
public final class ClientRunner {

  static final String RESULT = "RESULT ";
  static final String PROGRESS = "PROGRESS ";

  private ClientRunner() {
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> o = parse(args);
    String name = o.get("client");
    URI url = URI.create(o.get("url"));
    String scenario = o.getOrDefault("scenario", url.getPath());
    int expect = Integer.parseInt(o.get("expect-bytes"));
    Duration warmup = seconds(o.getOrDefault("warmup", "10"));
    Duration rewarm = seconds(o.getOrDefault("rewarm", "2"));
    Duration duration = seconds(o.getOrDefault("duration", "5"));
    int batches = Integer.parseInt(o.getOrDefault("batches", "5"));
    long maxRequests = Long.parseLong(o.getOrDefault("max-requests", "50000000"));
    Duration timeout = seconds(o.getOrDefault("timeout", "30"));
    URI statsBase = o.containsKey("stats-url") ? URI.create(o.get("stats-url")) : null;
    Wire wire = Wire.valueOf(o.getOrDefault("wire", "H1"));
    Path ca = o.containsKey("ca") ? Path.of(o.get("ca")) : null;
    String engine = o.get("engine");
    boolean memory = Boolean.parseBoolean(o.getOrDefault("memory", "false"));
    if (ca != null) {
      ServerStats.trust(ca);
    }
    List<Integer> levels = new ArrayList<>();
    for (String l : o.get("levels").split(",")) {
      levels.add(Integer.parseInt(l.trim()));
    }
    String kind = name.startsWith("fake") ? "fake" : "java";
    PrintStream out = System.out;
    ObjectMapper json = new ObjectMapper();
    boolean first = true;
    for (int c : levels) {
      Cell cell;
      try {
        cell = runLevel(name, kind, scenario, new ClientSpec(url, c, timeout, expect, wire, ca, engine, engine != null,
            !o.containsKey("no-resumption")), first ? warmup : rewarm,
            duration, batches, maxRequests, statsBase, memory);
      } catch (Throwable t) {
        cell = Cell.failed(name, kind, scenario, c, LoadLoop.describe(t));
      }
      first = false;
      out.println(RESULT + json.writeValueAsString(cell));
      out.flush();
    }
    ChildExit.halt();
  }

  static Cell runLevel(String name, String kind, String scenario, ClientSpec spec, Duration warm, Duration each,
      int batches, long maxRequests, URI statsBase, boolean memory) throws Exception {
    int c = spec.concurrency();
    long before = statsBase == null ? -1 : ServerStats.accepted(statsBase);
    LoadLoop.Measurement m;
    LoadLoop loop;
    Memory held;
    Double serverCpu;
    try (BenchClient client = Clients.get(name).factory().apply(spec)) {
      loop = new LoadLoop(client, c, spec.expectedLength(), maxRequests);
      Memory.Reading idle = memory ? Memory.Reading.now() : null;
      progress(name, scenario, c, "warm-up " + warm.toMillis() / 1000.0 + "s");
      loop.start();
      loop.run(warm);
      long serverCpu0 = statsBase == null ? -1 : ServerStats.cpuNanos(statsBase);
      m = loop.measure(batches, each, b -> progress(name, scenario, c, "batch " + b + "/" + batches));
      long serverCpu1 = statsBase == null ? -1 : ServerStats.cpuNanos(statsBase);
      serverCpu = ServerStats.cpuMicrosPerRequest(serverCpu0, serverCpu1, m.ok() + m.errors());
      // After the timed batches, so the collections it forces are not in them; every request is still in flight.
      // The server's count first: the full collections of the reading stall the client, not the server.
      int atServer = memory && statsBase != null ? ServerStats.held(statsBase) : -1;
      held = memory ? idle.to(Memory.Reading.now(), c, atServer) : null;
      if (!loop.stop(spec.timeout().plusSeconds(5))) {
        progress(name, scenario, c, "some requests did not return within the timeout");
      }
    }
    if (loop.callerMicrosPerCall() >= 0) {
      System.err.printf("%s %s c=%d: %.1f µs per getAsync() call on the dispatcher thread%n", name, scenario, c,
          loop.callerMicrosPerCall());
    }
    long after = statsBase == null ? -1 : ServerStats.accepted(statsBase);
    long ok = m.ok();
    List<Double> rps = m.batches().stream().map(LoadLoop.Batch::rps).toList();
    Double cpu = ok == 0 ? null : m.cpuNanos() / 1_000.0 / (ok + m.errors());
    Double p50 = ok == 0 ? null : m.latencyMicros().getValueAtPercentile(50) / 1_000.0;
    Double p99 = ok == 0 ? null : m.latencyMicros().getValueAtPercentile(99) / 1_000.0;
    // Less the connections of the reads made while the load ran: the server's CPU time twice, its count once.
    long conns = ServerStats.between(before, after);
    int readsDuringLoad = statsBase == null ? 0 : memory ? 3 : 2;
    conns = conns < 0 ? conns : Math.max(0, conns - readsDuringLoad);
    return Cell.measured(name, kind, scenario, c, rps, ok, loop.totalErrors(), loop.firstError(), cpu, p50, p99,
        conns < 0 ? null : conns).withMemory(held).withServerCpu(serverCpu);
  }

  static void progress(String client, String scenario, int c, String what) {
    System.err.println(PROGRESS + client + " " + scenario + " c=" + c + " " + what);
    System.err.flush();
  }

  static Duration seconds(String s) {
    return Duration.ofMillis(Math.round(Double.parseDouble(s) * 1000));
  }

  static Map<String, String> parse(String[] args) {
    Map<String, String> o = parseLoose(args);
    for (String required : List.of("client", "url", "levels", "expect-bytes")) {
      if (!o.containsKey(required)) {
        throw new IllegalArgumentException("missing --" + required);
      }
    }
    return o;
  }

  static Map<String, String> parseLoose(String[] args) {
    Map<String, String> o = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("expected --name value pairs, got: " + args[i]);
      }
      o.put(args[i].substring(2), args[++i]);
    }
    return o;
  }
}
