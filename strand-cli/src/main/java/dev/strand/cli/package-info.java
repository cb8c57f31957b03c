/**
 * The {@code strand} command line: curl's options ({@link dev.strand.cli.ArgParser} into
 * {@link dev.strand.cli.Options}), turned into one or more transfers on a {@code dev.strand.Client}
 * ({@link dev.strand.cli.Transfer}), with curl's output, progress and exit codes
 * ({@link dev.strand.cli.Failures}). Uses the public API only.
 */
package dev.strand.cli;
