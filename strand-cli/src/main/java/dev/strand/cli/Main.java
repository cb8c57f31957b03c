package dev.strand.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code strand [OPTIONS] URL}: the command line. Run through {@code bin/strand}, which also tells
 * it whether stdout and stderr are terminals ({@code -Dstrand.stdout.tty}, {@code -Dstrand.stderr.tty}).
 *
 * <p>Start-up is kept lean: {@code --help}, {@code --version} and usage errors load no Strand core
 * class; a request loads only what it uses.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    OutputStream stdout = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
    PrintStream stderr = System.err;
    int code = run(args, stdout, stderr, Terminal.fromLauncher(System.getenv()));
    stderr.flush();
    System.exit(code);
  }

  /**
   * Runs one command; returns the exit code: with several URLs, the last transfer's (as curl's). Everything
   * meant for stdout is flushed before returning.
   */
  static int run(String[] args, OutputStream stdout, PrintStream stderr, Terminal terminal) {
    Options o;
    try {
      o = ArgParser.parse(args);
      if (o.help) {
        stdout.write(Help.TEXT.getBytes(StandardCharsets.UTF_8));
        return flush(stdout, stderr, Failures.OK);
      }
      if (o.version) {
        stdout.write(Help.version().getBytes(StandardCharsets.UTF_8));
        return flush(stdout, stderr, Failures.OK);
      }
    } catch (UsageException e) {
      flush(stdout, stderr, 0);
      stderr.println("strand: " + e.getMessage() + " (see strand --help)");
      return e.exitCode();
    } catch (IOException e) {
      stderr.println("strand: cannot write to stdout: " + e.getMessage());
      return Failures.WRITE_ERROR;
    }
    if (o.urls.size() > 1 && o.parallel) {
      return Parallel.run(o, stdout, stderr, terminal);
    }
    int code = Failures.OK;
    for (int i = 0; i < o.urls.size(); i++) {
      code = transfer(o.forUrl(i), stdout, stderr, terminal);
    }
    return code;
  }

  /** One URL's transfer: its failure printed (unless -s without -S), then -w. */
  static int transfer(Options o, OutputStream stdout, PrintStream stderr, Terminal terminal) {
    Transfer t = null;
    int code;
    String message;
    boolean usage = false;
    try {
      t = new Transfer(o, terminal, stdout, stderr, System.getenv());
      code = flush(stdout, stderr, t.run());
      message = "";
    } catch (UsageException e) {
      flush(stdout, stderr, 0);
      code = e.exitCode();
      message = e.getMessage();
      usage = true;
    } catch (CliException e) {
      flush(stdout, stderr, 0);
      code = e.exitCode();
      message = e.getMessage();
    } catch (IOException e) {
      code = Failures.WRITE_ERROR;
      message = "cannot write to stdout: " + e.getMessage();
    } catch (RuntimeException | StackOverflowError e) {
      flush(stdout, stderr, 0);
      if (o.verbose) {
        e.printStackTrace(stderr);
      }
      double connect = o.connectTimeoutSeconds >= 0 ? o.connectTimeoutSeconds : o.timeoutSeconds;
      Failures.Failure f = Failures.of(e, connect, o.timeoutSeconds);
      code = f.exitCode();
      message = f.message() + (o.verbose || f.exitCode() != Failures.INTERNAL ? "" : " (-v shows the stack trace)");
    }
    // curl's -s hides failures too; -S shows them again. A usage error is always shown.
    if (code != Failures.OK && (usage || !o.silent || o.showError)) {
      stderr.println("strand: " + message + (usage ? " (see strand --help)" : ""));
    }
    if (o.writeOut != null && t != null) {
      try {
        WriteOut.write(writeOutFormat(o.writeOut), t.facts(), new WriteOut.Outcome(code, message), stdout, stderr);
      } catch (IOException e) {
        return code == Failures.OK ? Failures.WRITE_ERROR : code;
      }
    }
    return code;
  }

  /** -w's format: the text, or {@code @FILE} ({@code @-}: stdin) to read it from. */
  private static String writeOutFormat(String value) {
    if (!value.startsWith("@")) {
      return value;
    }
    try {
      return value.equals("@-") ? new String(System.in.readAllBytes(), StandardCharsets.UTF_8)
          : java.nio.file.Files.readString(java.nio.file.Path.of(value.substring(1)));
    } catch (IOException | java.io.UncheckedIOException e) {
      return "";
    }
  }

  /** Flushes stdout; a failure to do so (a closed pipe) is exit 23 unless the run already failed. */
  private static int flush(OutputStream stdout, PrintStream stderr, int code) {
    try {
      stdout.flush();
      return code;
    } catch (IOException e) {
      if (code == Failures.OK) {
        stderr.println("strand: cannot write to stdout: " + e.getMessage());
        return Failures.WRITE_ERROR;
      }
      return code;
    }
  }
}
