package dev.strand.cli;

/** A failure the CLI detected itself (bad arguments, unreadable file): an exit code and one line for stderr. */
class CliException extends Exception {
  private final int exitCode;

  CliException(int exitCode, String message) {
    super(message, null, false, false);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}
