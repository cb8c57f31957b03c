package dev.strand.cli;

/** A command line that cannot be run as given: exit code 2. */
final class UsageException extends CliException {
  UsageException(String message) {
    super(Failures.USAGE, message);
  }
}
