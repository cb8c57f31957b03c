package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real launcher, {@code bin/strand}, as a subprocess and captures what it printed. The
 * environment is cleaned of proxy and colour variables, and {@code STRAND_NO_BUILD=1} makes the
 * launcher use the jar that {@code mvn package} just built rather than rebuild it.
 */
final class Cli {
  static final Path LAUNCHER = Path.of("..", "bin", "strand").toAbsolutePath().normalize();
  private static final long TIMEOUT_SECONDS = 180; // the first call may train the start-up cache

  /** What one run printed and returned. */
  record Result(int exit, byte[] stdoutBytes, String stderr, long millis) {
    String stdout() {
      return new String(stdoutBytes, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
      return "exit " + exit + ", stdout:\n" + stdout() + "\nstderr:\n" + stderr;
    }
  }

  private Cli() {}

  static Result run(String... args) {
    return run(Map.of(), null, args);
  }

  /** Runs {@code program} (the launcher, or {@code "curl"} for the parity table) with {@code args} in {@code dir}. */
  static Result runIn(java.nio.file.Path dir, String program, String... args) {
    List<String> command = new ArrayList<>();
    command.add(program.equals("strand") ? LAUNCHER.toString() : program);
    command.addAll(List.of(args));
    ProcessBuilder pb = builder(command, Map.of());
    pb.directory(dir.toFile());
    return exec(pb, command, null);
  }

  /** Runs with extra environment variables and optional stdin bytes. */
  static Result run(Map<String, String> env, byte[] stdin, String... args) {
    List<String> command = new ArrayList<>();
    command.add(LAUNCHER.toString());
    command.addAll(List.of(args));
    return exec(command, env, stdin);
  }

  /**
   * Runs the launcher with stdout and stderr on a pseudo-terminal, through util-linux {@code script}.
   * Both streams arrive merged in {@code stdout} of the result, with the terminal's CRLF line ends.
   */
  static Result runInTerminal(String... args) {
    return runInTerminalWith("TERM", "xterm", args);
  }

  /** As {@link #runInTerminal} with one more environment variable. */
  static Result runInTerminalWith(String name, String value, String... args) {
    StringBuilder line = new StringBuilder("exec ").append(quote(LAUNCHER.toString()));
    for (String a : args) {
      line.append(' ').append(quote(a));
    }
    Map<String, String> env = new java.util.HashMap<>(Map.of("TERM", "xterm"));
    env.put(name, value);
    return exec(List.of("script", "-qefc", line.toString(), "/dev/null"), env, null);
  }

  /**
   * Starts the launcher and returns at once, for a conversation: stdout is read line by line as it
   * arrives and stdin stays open until {@link Running#closeStdin()}.
   */
  static Running start(String... args) {
    List<String> command = new ArrayList<>();
    command.add(LAUNCHER.toString());
    command.addAll(List.of(args));
    try {
      return new Running(builder(command, Map.of()).start());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A launcher process in conversation with a test; {@link #close()} kills it if it is still running. */
  static final class Running implements AutoCloseable {
    // Blocking reads on their own threads: the common pool has one thread on a 2-core machine.
    private static final java.util.concurrent.Executor READERS = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();
    private final Process process;
    private final java.io.BufferedReader stdout;
    private final CompletableFuture<byte[]> stderr;

    Running(Process process) {
      this.process = process;
      this.stdout = new java.io.BufferedReader(new java.io.InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      this.stderr = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()), READERS);
    }

    /** The next line of stdout, waiting at most {@code seconds}; fails the test on timeout or end of output. */
    String readLine(long seconds) {
      CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
        try {
          return stdout.readLine();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }, READERS);
      try {
        String s = line.get(seconds, TimeUnit.SECONDS);
        if (s == null) {
          fail("stdout ended; stderr:\n" + stderrSoFar());
        }
        return s;
      } catch (java.util.concurrent.TimeoutException e) {
        process.destroyForcibly();
        throw new AssertionError("no line on stdout within " + seconds + " s", e);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }

    /** Writes one line to stdin and flushes it. */
    void writeLine(String line) {
      try {
        process.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().flush();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    void closeStdin() {
      try {
        process.getOutputStream().close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** Waits for the exit (failing the test after {@code seconds}); returns the exit code. */
    int waitFor(long seconds) {
      try {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          fail("strand did not exit within " + seconds + " s");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
      return process.exitValue();
    }

    /** What was printed on stderr; only once the process has exited. */
    String stderr() {
      return new String(stderr.join(), StandardCharsets.UTF_8);
    }

    private String stderrSoFar() {
      return process.isAlive() ? "(still running)" : stderr();
    }

    @Override
    public void close() {
      process.destroyForcibly();
    }
  }

  private static ProcessBuilder builder(List<String> command, Map<String, String> env) {
    assertTrue(Files.isExecutable(LAUNCHER), "launcher not found at " + LAUNCHER);
    ProcessBuilder pb = new ProcessBuilder(command);
    Map<String, String> e = pb.environment();
    for (String v : List.of("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
        "no_proxy", "NO_PROXY", "NO_COLOR", "STRAND_JAVA_OPTS", "STRAND_NO_CACHE")) {
      e.remove(v);
    }
    e.put("STRAND_NO_BUILD", "1");
    e.putAll(env);
    return pb;
  }

  private static Result exec(List<String> command, Map<String, String> env, byte[] stdin) {
    return exec(builder(command, env), command, stdin);
  }

  private static Result exec(ProcessBuilder pb, List<String> command, byte[] stdin) {
    long start = System.nanoTime();
    try {
      Process p = pb.start();
      CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
      CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
      try (var in = p.getOutputStream()) {
        if (stdin != null) {
          in.write(stdin);
        }
      }
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        fail("strand did not finish in " + TIMEOUT_SECONDS + " s: " + command);
      }
      long millis = (System.nanoTime() - start) / 1_000_000;
      return new Result(p.exitValue(), out.join(), new String(err.join(), StandardCharsets.UTF_8), millis);
    } catch (IOException e2) {
      throw new UncheckedIOException(e2);
    } catch (InterruptedException e2) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e2);
    }
  }

  private static byte[] readAll(InputStream in) {
    try (in) {
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      in.transferTo(buf);
      return buf.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }
}
