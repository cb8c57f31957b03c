package dev.strand.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** Starts the bench's child processes (client JVMs, wrk, python) and collects what they print, under a watchdog. */
final class Children {

  /** What a child left behind: its {@code RESULT} payloads, exit code, and the tail of its stderr. */
  record Outcome(List<String> results, int exitCode, boolean timedOut, String stderrTail, List<String> stdout) {
    String describeFailure() {
      if (timedOut) {
        return "killed by the watchdog (no result in time)" + tail();
      }
      return "exited with code " + exitCode + tail();
    }

    private String tail() {
      return stderrTail.isBlank() ? "" : ": " + stderrTail.strip().lines().reduce((a, b) -> b).orElse("");
    }
  }

  private Children() {
  }

  /**
   * A long-lived helper JVM ({@code main} with {@code args}) started and read until it prints a line starting with
   * {@code ready}: that line and every one before it, in order. Its stderr is discarded; it is expected to exit when
   * its standard input closes, as {@link ServerMain} and {@link LinkMain} do.
   *
   * @throws IOException if it exits or stays silent for a minute first (it is then killed)
   */
  static Started startHelper(Class<?> main, List<String> args, String ready) throws IOException {
    Process p = new ProcessBuilder(withFileLimit(java(List.of(), main, args))).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<List<String>> lines = CompletableFuture.supplyAsync(() -> {
      List<String> seen = new ArrayList<>();
      try {
        for (String l; (l = r.readLine()) != null; ) {
          seen.add(l);
          if (l.startsWith(ready)) {
            return seen;
          }
        }
      } catch (IOException e) {
        // Reported below as a helper that did not start.
      }
      return null;
    });
    List<String> seen;
    try {
      seen = lines.get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      seen = null;
    }
    if (seen == null) {
      p.destroyForcibly();
      throw new IOException(main.getSimpleName() + " did not start (is strand-testkit on the classpath?)");
    }
    return new Started(p, seen);
  }

  /** A helper JVM and the lines it printed up to and including its ready line. */
  record Started(Process process, List<String> lines) {
    /** Closes its standard input, which tells it to exit, and kills it if it has not within 10 s. */
    void stop() {
      try {
        process.getOutputStream().close();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (IOException | InterruptedException e) {
        process.destroyForcibly();
      }
    }
  }

  /**
   * Files each child may open, server and clients alike: room for the largest loads the bench runs (100,000
   * streams, 30,000 connections, each with its server end) without touching the user's shell or system.
   */
  static final int FILE_LIMIT = 262_144;

  /** Whether {@code prlimit} can give a child {@link #FILE_LIMIT}: raising a hard limit takes root. */
  private static final boolean RAISES_FILE_LIMIT = canRaiseFileLimit();

  /**
   * {@code cmd} run under {@link #FILE_LIMIT} open files, when this process may raise it; else {@code cmd}, which
   * then has this process's limit (a JVM raises its soft limit to the hard one by itself).
   */
  static List<String> withFileLimit(List<String> cmd) {
    if (!RAISES_FILE_LIMIT) {
      return cmd;
    }
    List<String> limited = new ArrayList<>(List.of("prlimit", "--nofile=" + FILE_LIMIT + ":" + FILE_LIMIT, "--"));
    limited.addAll(cmd);
    return limited;
  }

  static boolean raisesFileLimit() {
    return RAISES_FILE_LIMIT;
  }

  private static boolean canRaiseFileLimit() {
    try {
      Process p = new ProcessBuilder("prlimit", "--nofile=" + FILE_LIMIT + ":" + FILE_LIMIT, "--", "true")
          .redirectErrorStream(true).start();
      p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  /** The java binary running this JVM: children use the same one. */
  static String javaBinary() {
    return ProcessHandle.current().info().command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  /** The classpath children run with: this JVM's, unless {@code strand.bench.classpath} overrides it. */
  static String classpath() {
    return System.getProperty("strand.bench.classpath", System.getProperty("java.class.path"));
  }

  /**
   * {@link #classpath()} plus the jars in {@code extraLib}, a folder beside the bench's own jar (or classes), for a
   * client whose dependencies must not reach the others; just {@link #classpath()} when {@code extraLib} is null.
   * A missing folder adds nothing: the client then finds out what it lacks and says so.
   */
  static String classpath(String extraLib) {
    if (extraLib == null) {
      return classpath();
    }
    StringBuilder cp = new StringBuilder(classpath());
    try {
      Path dir = Path.of(Children.class.getProtectionDomain().getCodeSource().getLocation().toURI()).resolveSibling(extraLib);
      if (Files.isDirectory(dir)) {
        try (var jars = Files.list(dir)) {
          jars.filter(f -> f.toString().endsWith(".jar")).sorted().forEach(f -> cp.append(java.io.File.pathSeparator).append(f));
        }
      }
    } catch (IOException | java.net.URISyntaxException e) {
      throw new IllegalStateException("cannot list the jars of " + extraLib, e);
    }
    return cp.toString();
  }

  static List<String> java(List<String> jvmArgs, Class<?> main, List<String> args) {
    return java(jvmArgs, classpath(), main, args);
  }

  static List<String> java(List<String> jvmArgs, String classpath, Class<?> main, List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(javaBinary());
    // Netty loads its native epoll library; allowed up front so JDK 24+ does not warn in every child.
    cmd.add("--enable-native-access=ALL-UNNAMED");
    cmd.addAll(jvmArgs);
    cmd.add("-cp");
    cmd.add(classpath);
    cmd.add(main.getName());
    cmd.addAll(args);
    return cmd;
  }

  /**
   * Runs {@code cmd}, feeding {@code PROGRESS} lines of its stderr to {@code onProgress} and appending the
   * rest to {@code log} (if not null); kills it if it has not finished within {@code timeout}.
   */
  static Outcome run(List<String> cmd, Duration timeout, Consumer<String> onProgress, Path log) {
    Process p;
    try {
      p = new ProcessBuilder(withFileLimit(cmd)).redirectInput(ProcessBuilder.Redirect.PIPE).start();
      p.getOutputStream().close();
    } catch (IOException e) {
      return new Outcome(List.of(), -1, false, "could not start " + cmd.get(0) + ": " + e.getMessage(), List.of());
    }
    List<String> results = new ArrayList<>();
    List<String> stdout = new ArrayList<>();
    Deque<String> tail = new ArrayDeque<>();
    Thread outReader = Thread.ofPlatform().daemon().start(() -> lines(p.getInputStream(), line -> {
      synchronized (results) {
        if (line.startsWith(ClientRunner.RESULT)) {
          results.add(line.substring(ClientRunner.RESULT.length()));
        } else {
          stdout.add(line);
        }
      }
    }));
    Thread errReader = Thread.ofPlatform().daemon().start(() -> {
      try (PrintWriter w = log == null ? null : new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8,
          StandardOpenOption.CREATE, StandardOpenOption.APPEND))) {
        lines(p.getErrorStream(), line -> {
          if (line.startsWith(ClientRunner.PROGRESS)) {
            onProgress.accept(line.substring(ClientRunner.PROGRESS.length()));
            return;
          }
          if (w != null) {
            w.println(line);
          }
          synchronized (tail) {
            tail.addLast(line);
            if (tail.size() > 40) {
              tail.removeFirst();
            }
          }
        });
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    boolean timedOut = false;
    try {
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        timedOut = true;
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
      }
      outReader.join(5_000);
      errReader.join(5_000);
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    String tailText;
    synchronized (tail) {
      tailText = String.join("\n", tail);
    }
    synchronized (results) {
      return new Outcome(List.copyOf(results), timedOut ? -1 : p.exitValue(), timedOut, tailText,
          List.copyOf(stdout));
    }
  }

  private static void lines(InputStream in, Consumer<String> each) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        each.accept(line);
      }
    } catch (IOException e) {
      // The child is gone; what it printed so far is all there is.
    }
  }
}
