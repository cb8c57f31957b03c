package dev.strand.cli;

import dev.strand.ResponseHead;
import dev.strand.Version;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * curl's {@code -w/--write-out}: the format with {@code %{variable}}, {@code %header{name}},
 * {@code \n}, {@code \t}, {@code \r}, {@code \\} and {@code %%} replaced, written to stdout until
 * {@code %{stderr}} switches to stderr. An unknown variable is warned about and left out, as in curl.
 */
final class WriteOut {
  private WriteOut() {}

  /** The outcome a variable may ask for: exit code and message ("" on success). */
  record Outcome(int exitCode, String message) {}

  static void write(String format, TransferFacts facts, Outcome outcome, java.io.OutputStream stdout, PrintStream err)
      throws java.io.IOException {
    ByteArrayOutputStream toStdout = new ByteArrayOutputStream();
    StringBuilder toStderr = new StringBuilder();
    boolean stderr = false;
    StringBuilder piece = new StringBuilder();
    int i = 0;
    while (i < format.length()) {
      char c = format.charAt(i);
      if (c == '\\' && i + 1 < format.length()) {
        char e = format.charAt(i + 1);
        piece.append(switch (e) {
          case 'n' -> "\n";
          case 'r' -> "\r";
          case 't' -> "\t";
          case '\\' -> "\\";
          default -> "\\" + e;
        });
        i += 2;
      } else if (c == '%' && format.startsWith("%%", i)) {
        piece.append('%');
        i += 2;
      } else if (c == '%' && format.startsWith("%{", i) && format.indexOf('}', i) > 0) {
        int end = format.indexOf('}', i);
        String name = format.substring(i + 2, end);
        i = end + 1;
        if (name.equals("stderr") || name.equals("stdout")) {
          flush(piece, stderr, toStdout, toStderr);
          stderr = name.equals("stderr");
          continue;
        }
        String value = variable(name, facts, outcome);
        if (value == null) {
          err.println("strand: unknown --write-out variable: '" + name + "'");
        } else {
          piece.append(value);
        }
      } else if (c == '%' && format.startsWith("%header{", i) && format.indexOf('}', i) > 0) {
        int end = format.indexOf('}', i);
        String header = facts.last == null ? null : facts.last.headers().first(format.substring(i + 8, end));
        piece.append(header == null ? "" : header);
        i = end + 1;
      } else {
        piece.append(c);
        i++;
      }
    }
    flush(piece, stderr, toStdout, toStderr);
    stdout.write(toStdout.toByteArray());
    stdout.flush();
    err.print(toStderr);
    err.flush();
  }

  private static void flush(StringBuilder piece, boolean stderr, ByteArrayOutputStream out, StringBuilder err) {
    if (stderr) {
      err.append(piece);
    } else {
      out.writeBytes(piece.toString().getBytes(StandardCharsets.UTF_8));
    }
    piece.setLength(0);
  }

  /** A variable's value, or {@code null} if there is no such variable. */
  static String variable(String name, TransferFacts f, Outcome outcome) {
    ResponseHead head = f.last;
    long total = (f.endNanos == 0 ? System.nanoTime() : f.endNanos) - f.startNanos;
    return switch (name) {
      case "http_code", "response_code" -> head == null ? "000" : String.format(Locale.ROOT, "%03d", head.status());
      case "http_version" -> head == null ? "0" : version(head.version());
      case "url_effective" -> f.lastRequest != null ? f.lastRequest.url().toString() : "";
      case "url" -> f.lastRequest != null && f.redirects == 0 ? f.lastRequest.url().toString() : "";
      case "redirect_url" -> f.redirectUrl == null ? "" : f.redirectUrl;
      case "content_type" -> head == null || head.headers().first("Content-Type") == null ? ""
          : head.headers().first("Content-Type");
      case "num_redirects" -> Integer.toString(f.redirects);
      case "num_connects" -> Integer.toString(f.connects);
      case "num_headers" -> head == null ? "0" : Integer.toString(head.headers().size());
      case "size_download" -> Long.toString(f.downloaded);
      case "size_upload" -> Long.toString(f.uploaded);
      case "size_header" -> head == null ? "0" : Long.toString(headerSize(head));
      case "speed_download" -> Long.toString(total <= 0 ? 0 : (long) (f.downloaded / (total / 1e9)));
      case "speed_upload" -> Long.toString(total <= 0 ? 0 : (long) (f.uploaded / (total / 1e9)));
      case "time_total" -> String.format(Locale.ROOT, "%.6f", total / 1e9);
      case "time_namelookup" -> f.seconds(f.dnsNanos);
      case "time_connect" -> f.seconds(f.connectNanos);
      case "time_appconnect" -> f.seconds(f.tlsNanos);
      case "time_pretransfer" -> f.seconds(Math.max(f.tlsNanos, f.connectNanos));
      case "time_starttransfer" -> f.seconds(f.firstByteNanos);
      case "remote_ip" -> f.remote == null ? "" : f.remote.getAddress().getHostAddress();
      case "remote_port" -> f.remote == null ? "0" : Integer.toString(f.remote.getPort());
      case "scheme" -> f.lastRequest == null ? "" : f.lastRequest.url().getScheme().toUpperCase(Locale.ROOT);
      case "method" -> f.lastRequest == null ? "" : f.lastRequest.method();
      case "exitcode" -> Integer.toString(outcome.exitCode());
      case "errormsg" -> outcome.message();
      case "filename_effective" -> f.fileName == null ? "" : f.fileName;
      case "ssl_verify_result" -> "0";
      default -> null;
    };
  }

  private static String version(Version v) {
    return switch (v) {
      case HTTP_1_0 -> "1";
      case HTTP_1_1 -> "1.1";
      case HTTP_2 -> "2";
      case HTTP_3 -> "3";
    };
  }

  /** The head's size as HTTP/1.1 would carry it: status line, fields, CRLFs. */
  private static long headerSize(ResponseHead head) {
    long size = ("HTTP/1.1 " + head.status() + " " + (head.reason() == null ? "" : head.reason()) + "\r\n").length() + 2;
    for (int i = 0; i < head.headers().size(); i++) {
      size += head.headers().name(i).length() + 2 + head.headers().value(i).length() + 2;
    }
    return size;
  }
}
