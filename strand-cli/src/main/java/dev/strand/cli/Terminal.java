package dev.strand.cli;

import java.util.Map;

/**
 * Whether stdout and stderr are terminals, and whether colour is wanted. The launcher knows
 * ({@code [ -t 1 ]}) and passes it as system properties; without them, output is plain, as when piped.
 */
record Terminal(boolean stdoutTty, boolean stderrTty, boolean color) {
  static final Terminal PIPES = new Terminal(false, false, false);

  static Terminal fromLauncher(Map<String, String> env) {
    boolean out = Boolean.getBoolean("strand.stdout.tty");
    boolean err = Boolean.getBoolean("strand.stderr.tty");
    String noColor = env.get("NO_COLOR");
    boolean color = out && (noColor == null || noColor.isEmpty()) && !"dumb".equals(env.get("TERM"));
    return new Terminal(out, err, color);
  }
}
