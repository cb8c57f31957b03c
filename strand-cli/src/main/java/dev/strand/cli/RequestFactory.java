package dev.strand.cli;

import dev.strand.Multipart;
import dev.strand.Request;
import dev.strand.RequestBody;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Builds the {@link Request} that the options describe. Files are streamed, never read whole. */
final class RequestFactory {
  private RequestFactory() {}

  /**
   * The URL to request: curl's default of {@code http://} when no scheme is given; {@code ws://} and
   * {@code wss://} (for {@code --ws}) as the {@code http://} and {@code https://} URLs of their handshake.
   */
  static String url(String given) {
    String lower = given.toLowerCase(java.util.Locale.ROOT);
    if (lower.startsWith("ws://") || lower.startsWith("wss://")) {
      return "http" + given.substring(2);
    }
    return given.contains("://") ? given : "http://" + given;
  }

  static Request build(Options o) throws CliException {
    Request.Builder b;
    String url = url(o.url);
    if (o.get && !o.data.isEmpty()) {
      url = withQuery(url, new String(DataParts.join(o.data), StandardCharsets.UTF_8));
    }
    if (o.uploadFile != null) {
      url = withFileName(url, o.uploadFile);
    }
    if (!o.params.isEmpty()) {
      // --url-query reads as --data-urlencode does, and a leading + keeps the rest as it is (curl's rule).
      List<Options.Data> pieces = new java.util.ArrayList<>();
      for (String param : o.params) {
        pieces.add(param.startsWith("+") ? new Options.Data(Options.DataKind.RAW, param.substring(1))
            : new Options.Data(Options.DataKind.URLENCODE, param));
      }
      url = withQuery(url, new String(DataParts.join(pieces), StandardCharsets.UTF_8));
    }
    try {
      b = Request.builder(o.effectiveMethod(), url);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    if (o.range != null) {
      b.header("Range", "bytes=" + o.range);
    }
    boolean hasAccept = false;
    for (String header : o.headers) {
      int colon = header.indexOf(':');
      String name = header.substring(0, colon).strip();
      String value = header.substring(colon + 1).strip();
      hasAccept |= name.equalsIgnoreCase("Accept");
      try {
        if (value.isEmpty()) {
          b.removeHeader(name);
        } else {
          b.header(name, value);
        }
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
    }
    String literalCookies = literalCookies(o.cookies);
    if (literalCookies != null) {
      b.header("Cookie", literalCookies);
    }
    if (!o.data.isEmpty() && !o.get) {
      b.body(DataParts.body(o.data));
    } else if (o.uploadFile != null) {
      b.body(o.uploadFile.equals("-") ? RequestBody.ofInputStream(System.in, null)
          : RequestBody.ofFile(readable(o.uploadFile), null));
      b.expectContinue(true); // as curl's -T: the server may refuse before the file is sent
    } else if (!o.json.isEmpty()) {
      b.body(body(o.json, "", "application/json"));
      if (!hasAccept) {
        b.header("Accept", "application/json");
      }
    } else if (!o.form.isEmpty()) {
      b.body(multipart(o.form));
    }
    return b.build();
  }

  /** {@code url} with {@code query} added to its query string (-G). */
  static String withQuery(String url, String query) {
    if (query.isEmpty()) {
      return url;
    }
    int hash = url.indexOf('#');
    String base = hash < 0 ? url : url.substring(0, hash);
    String fragment = hash < 0 ? "" : url.substring(hash);
    return base + (base.indexOf('?') < 0 ? "?" : base.endsWith("?") || base.endsWith("&") ? "" : "&") + query + fragment;
  }

  /** -T: a URL whose path is empty or ends with / gets the uploaded file's name, as in curl. */
  static String withFileName(String url, String file) {
    if (file.equals("-")) {
      return url;
    }
    int scheme = url.indexOf("://");
    int pathStart = url.indexOf('/', scheme < 0 ? 0 : scheme + 3);
    int queryStart = url.indexOf('?');
    boolean noPath = pathStart < 0 || (queryStart >= 0 && pathStart > queryStart);
    String name = Path.of(file).getFileName().toString();
    String encoded = java.net.URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
    if (noPath) {
      return queryStart < 0 ? url + "/" + encoded : url.substring(0, queryStart) + "/" + encoded + url.substring(queryStart);
    }
    String path = queryStart < 0 ? url.substring(pathStart) : url.substring(pathStart, queryStart);
    if (!path.endsWith("/")) {
      return url;
    }
    return queryStart < 0 ? url + encoded : url.substring(0, queryStart) + encoded + url.substring(queryStart);
  }

  /**
   * The {@code -b} values that are cookies rather than file names (curl tells them apart by a "="),
   * joined into one Cookie value; null for none. Such a header is sent instead of the jar's cookies.
   */
  static String literalCookies(List<String> values) {
    StringBuilder sb = new StringBuilder();
    for (String v : values) {
      if (v.indexOf('=') >= 0) {
        sb.append(sb.isEmpty() ? "" : "; ").append(v.strip());
      }
    }
    return sb.isEmpty() ? null : sb.toString();
  }

  /** One {@code @FILE} streams from disk, {@code @-} from stdin; several values are joined in memory, as curl does. */
  private static RequestBody body(List<String> values, String separator, String contentType) throws CliException {
    if (values.size() == 1 && values.get(0).equals("@-")) {
      return RequestBody.ofInputStream(System.in, contentType);
    }
    if (values.size() == 1 && values.get(0).startsWith("@")) {
      return RequestBody.ofFile(readable(values.get(0).substring(1)), contentType);
    }
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        all.writeBytes(separator.getBytes(StandardCharsets.US_ASCII));
      }
      String v = values.get(i);
      try {
        if (v.equals("@-")) {
          all.writeBytes(System.in.readAllBytes());
        } else if (v.startsWith("@")) {
          all.writeBytes(Files.readAllBytes(readable(v.substring(1))));
        } else {
          all.writeBytes(v.getBytes(StandardCharsets.UTF_8));
        }
      } catch (IOException e) {
        throw new CliException(Failures.READ_ERROR, "cannot read " + v.substring(1) + ": " + e.getMessage());
      }
    }
    return RequestBody.of(all.toByteArray(), contentType);
  }

  /** {@code name=value}, {@code name=@FILE}, with optional {@code ;type=MIME} and {@code ;filename=NAME} after a file. */
  private static RequestBody multipart(List<String> fields) throws CliException {
    Multipart.Builder m = Multipart.builder();
    for (String field : fields) {
      int eq = field.indexOf('=');
      String name = field.substring(0, eq);
      String value = field.substring(eq + 1);
      if (!value.startsWith("@")) {
        m.field(name, value);
        continue;
      }
      String[] parts = value.substring(1).split(";");
      Path file = readable(parts[0]);
      String type = null;
      String fileName = file.getFileName() == null ? "file" : file.getFileName().toString();
      for (int i = 1; i < parts.length; i++) {
        String p = parts[i].strip();
        if (p.startsWith("type=")) {
          type = p.substring(5);
        } else if (p.startsWith("filename=")) {
          fileName = p.substring(9);
        } else {
          throw new UsageException("-F " + name + ": unknown attribute \"" + p + "\" (use ;type= or ;filename=)");
        }
      }
      try {
        m.file(name, file, fileName, type);
      } catch (IllegalArgumentException e) {
        throw new UsageException("-F " + name + ": " + e.getMessage());
      }
    }
    return m.build();
  }

  static Path readable(String name) throws CliException {
    Path p = Path.of(name);
    if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
      String why = Files.exists(p) ? (Files.isDirectory(p) ? "is a directory" : "not readable") : "no such file";
      throw new CliException(Failures.READ_ERROR, "cannot read " + name + ": " + why);
    }
    return p;
  }
}
