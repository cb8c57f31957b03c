package dev.strand.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * curl's {@code -K/--config} file as command-line arguments: one option a line, its long name with or
 * without the dashes ({@code url = "https://example.com"}, {@code --header "X-A: 1"}, {@code silent}),
 * the value after whitespace, {@code =} or {@code :}, in double quotes with backslash escapes when it
 * holds spaces; {@code #} starts a comment line.
 */
final class ConfigFile {
  private ConfigFile() {}

  /**
   * The arguments {@code text} stands for.
   *
   * @param takesValue whether an option (with its dashes) takes a value
   */
  static String[] arguments(String text, String file, Predicate<String> takesValue) throws UsageException {
    List<String> args = new ArrayList<>();
    int lineNo = 0;
    for (String raw : text.split("\r?\n", -1)) {
      lineNo++;
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int nameEnd = 0;
      while (nameEnd < line.length() && !Character.isWhitespace(line.charAt(nameEnd))
          && line.charAt(nameEnd) != '=' && (line.charAt(nameEnd) != ':' || line.startsWith("-"))) {
        nameEnd++;
      }
      String name = line.substring(0, nameEnd);
      String option = name.startsWith("-") ? name : "--" + name;
      String rest = line.substring(nameEnd).stripLeading();
      if (!rest.isEmpty() && (rest.charAt(0) == '=' || rest.charAt(0) == ':')) {
        rest = rest.substring(1).stripLeading();
      }
      args.add(option);
      if (!takesValue.test(option)) {
        continue;
      }
      if (rest.isEmpty()) {
        throw new UsageException("-K " + file + ", line " + lineNo + ": " + option + " needs a value");
      }
      args.add(rest.charAt(0) == '"' ? quoted(rest, file, lineNo) : rest.split("\\s+", 2)[0]);
    }
    return args.toArray(String[]::new);
  }

  private static String quoted(String text, String file, int lineNo) throws UsageException {
    StringBuilder value = new StringBuilder();
    for (int i = 1; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"') {
        return value.toString();
      }
      if (c == '\\' && i + 1 < text.length()) {
        char e = text.charAt(++i);
        value.append(switch (e) {
          case 't' -> '\t';
          case 'n' -> '\n';
          case 'r' -> '\r';
          case 'v' -> '\u000B';
          default -> e;
        });
      } else {
        value.append(c);
      }
    }
    throw new UsageException("-K " + file + ", line " + lineNo + ": a quoted value is not closed");
  }
}
