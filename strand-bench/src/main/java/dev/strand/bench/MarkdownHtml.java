package dev.strand.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The report's markdown as HTML, for index.html: the subset {@link Report} writes (headings, paragraphs,
 * block quotes, bullet lists, pipe tables with right-aligned columns, and inline {@code `code`},
 * {@code **bold**} and links). Anything else stays text, escaped.
 */
final class MarkdownHtml {
  private static final Pattern INLINE = Pattern.compile("`([^`]+)`|\\*\\*(.+?)\\*\\*|\\[([^\\]]+)\\]\\(([^)\\s]+)\\)");

  private MarkdownHtml() {}

  static String render(String markdown) {
    StringBuilder out = new StringBuilder();
    List<String> lines = markdown.lines().toList();
    for (int i = 0; i < lines.size(); ) {
      String line = lines.get(i);
      if (line.isBlank()) {
        i++;
      } else if (line.startsWith("#")) {
        int level = Math.min(6, (int) line.chars().takeWhile(c -> c == '#').count());
        out.append("<h").append(level).append('>').append(inline(line.substring(level).strip()))
            .append("</h").append(level).append(">\n");
        i++;
      } else if (line.startsWith("|")) {
        List<String> rows = new ArrayList<>();
        for (; i < lines.size() && lines.get(i).startsWith("|"); i++) {
          rows.add(lines.get(i));
        }
        table(rows, out);
      } else if (line.startsWith(">")) {
        out.append("<blockquote>\n");
        for (; i < lines.size() && lines.get(i).startsWith(">"); i++) {
          out.append("<p>").append(inline(lines.get(i).substring(1).strip())).append("</p>\n");
        }
        out.append("</blockquote>\n");
      } else if (line.startsWith("- ")) {
        out.append("<ul>\n");
        for (; i < lines.size() && lines.get(i).startsWith("- "); i++) {
          out.append("<li>").append(inline(lines.get(i).substring(2).strip())).append("</li>\n");
        }
        out.append("</ul>\n");
      } else {
        StringBuilder paragraph = new StringBuilder();
        for (; i < lines.size() && !lines.get(i).isBlank() && !startsBlock(lines.get(i)); i++) {
          paragraph.append(paragraph.isEmpty() ? "" : " ").append(lines.get(i).strip());
        }
        out.append("<p>").append(inline(paragraph.toString())).append("</p>\n");
      }
    }
    return out.toString();
  }

  private static boolean startsBlock(String line) {
    return line.startsWith("#") || line.startsWith("|") || line.startsWith(">") || line.startsWith("- ");
  }

  /** A header row, the alignment row ({@code ---:} is right-aligned), then body rows. */
  private static void table(List<String> rows, StringBuilder out) {
    List<String> head = cells(rows.get(0));
    List<String> align = rows.size() > 1 && rows.get(1).matches("[|:\\- ]+") ? cells(rows.get(1)) : List.of();
    out.append("<table>\n<thead><tr>");
    for (int c = 0; c < head.size(); c++) {
      out.append(cell("th", head.get(c), right(align, c)));
    }
    out.append("</tr></thead>\n<tbody>\n");
    for (int r = align.isEmpty() ? 1 : 2; r < rows.size(); r++) {
      List<String> row = cells(rows.get(r));
      out.append("<tr>");
      for (int c = 0; c < row.size(); c++) {
        out.append(cell("td", row.get(c), right(align, c)));
      }
      out.append("</tr>\n");
    }
    out.append("</tbody>\n</table>\n");
  }

  private static boolean right(List<String> align, int column) {
    return column < align.size() && align.get(column).endsWith(":");
  }

  private static String cell(String tag, String text, boolean right) {
    return "<" + tag + (right ? " class=\"num\"" : "") + ">" + inline(text) + "</" + tag + ">";
  }

  /** The cells of {@code | a | b |}, trimmed. */
  private static List<String> cells(String row) {
    String inner = row.strip();
    inner = inner.substring(1, inner.endsWith("|") && inner.length() > 1 ? inner.length() - 1 : inner.length());
    List<String> out = new ArrayList<>();
    for (String c : inner.split("\\|", -1)) {
      out.add(c.strip());
    }
    return out;
  }

  private static String inline(String text) {
    StringBuilder out = new StringBuilder();
    Matcher m = INLINE.matcher(text);
    int at = 0;
    while (m.find()) {
      out.append(Svg.esc(text.substring(at, m.start())));
      if (m.group(1) != null) {
        out.append("<code>").append(Svg.esc(m.group(1))).append("</code>");
      } else if (m.group(2) != null) {
        out.append("<b>").append(inline(m.group(2))).append("</b>");
      } else {
        out.append("<a href=\"").append(Svg.esc(m.group(4))).append("\">").append(Svg.esc(m.group(3))).append("</a>");
      }
      at = m.end();
    }
    return out.append(Svg.esc(text.substring(at))).toString();
  }
}
