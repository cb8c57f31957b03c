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

  /** Runs one command; returns the exit code. Everything meant for stdout is flushed before returning. */
  static int run(String[] args, OutputStream stdout, PrintStream stderr, Terminal terminal) {
    Options o = null;
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
      int code = new Transfer(o, terminal, stdout, stderr, System.getenv()).run();
      return flush(stdout, stderr, code);
    } catch (UsageException e) {
      flush(stdout, stderr, 0);
      stderr.println("strand: " + e.getMessage() + " (see strand --help)");
      return e.exitCode();
    } catch (CliException e) {
      flush(stdout, stderr, 0);
      stderr.println("strand: " + e.getMessage());
      return e.exitCode();
    } catch (IOException e) {
      stderr.println("strand: cannot write to stdout: " + e.getMessage());
      return Failures.WRITE_ERROR;
    } catch (RuntimeException | StackOverflowError e) {
      flush(stdout, stderr, 0);
      boolean verbose = o != null && o.verbose;
      if (verbose) {
        e.printStackTrace(stderr);
      }
      double connect = o == null ? 5 : o.connectTimeoutSeconds >= 0 ? o.connectTimeoutSeconds : o.timeoutSeconds;
      double read = o == null ? 5 : o.timeoutSeconds;
      Failures.Failure f = Failures.of(e, connect, read);
      stderr.println("strand: " + f.message() + (verbose || f.exitCode() != Failures.INTERNAL ? "" : " (-v shows the stack trace)"));
      return f.exitCode();
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
