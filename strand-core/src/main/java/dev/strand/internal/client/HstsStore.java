package dev.strand.internal.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Known HSTS hosts (RFC 6797), optionally kept in a file in curl's {@code --hsts} format. Plain code with the clock
 * passed in. Thread-safe: one lock, held for map updates and the file write that follows each change.
 */
public final class HstsStore {
  static final long UNLIMITED = Long.MAX_VALUE;
  private static final DateTimeFormatter CURL_TIME = DateTimeFormatter.ofPattern("yyyyMMdd HH:mm:ss", Locale.ROOT);

  private record Entry(long expiresMillis, boolean subdomains) {}

  private final Map<String, Entry> hosts = new LinkedHashMap<>();
  private final Path file;

  private HstsStore(Path file) {
    this.file = file;
  }

  public static HstsStore inMemory() {
    return new HstsStore(null);
  }

  /** A store backed by {@code file} (read now if it exists; rewritten after each change). */
  public static HstsStore file(Path file) {
    HstsStore store = new HstsStore(file);
    if (Files.exists(file)) {
      try {
        store.parse(Files.readAllLines(file, StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read HSTS file " + file, e);
      }
    }
    return store;
  }

  /** curl's lines: {@code [.]host "YYYYMMDD HH:MM:SS"} (UTC) or {@code "unlimited"}; {@code #} comments. */
  void parse(List<String> lines) {
    for (String raw : lines) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int space = line.indexOf(' ');
      if (space < 0) {
        continue;
      }
      String host = line.substring(0, space).toLowerCase(Locale.ROOT);
      String when = line.substring(space + 1).strip().replace("\"", "");
      boolean subdomains = host.startsWith(".");
      if (subdomains) {
        host = host.substring(1);
      }
      long expires;
      if (when.equals("unlimited")) {
        expires = UNLIMITED;
      } else {
        try {
          expires = LocalDateTime.parse(when, CURL_TIME).toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (RuntimeException e) {
          continue; // curl skips a line it cannot read
        }
      }
      if (!host.isEmpty()) {
        hosts.put(host, new Entry(expires, subdomains));
      }
    }
  }

  /** The https URL to use instead of an http {@code url} to a known host, else {@code null}. */
  public synchronized URI upgrade(URI url, long nowMillis) {
    if (!"http".equalsIgnoreCase(url.getScheme()) || url.getHost() == null || !known(url.getHost(), nowMillis)) {
      return null;
    }
    // RFC 6797 8.3: port 80 becomes 443; any other explicit port is kept, as curl keeps it.
    int port = url.getPort() == 80 ? -1 : url.getPort();
    try {
      return new URI("https", url.getRawUserInfo() == null ? null : url.getUserInfo(), url.getHost(), port,
          url.getPath(), url.getQuery(), url.getFragment());
    } catch (URISyntaxException e) {
      return null;
    }
  }

  private boolean known(String rawHost, long nowMillis) {
    String host = rawHost.toLowerCase(Locale.ROOT);
    Entry exact = hosts.get(host);
    if (exact != null && exact.expiresMillis() > nowMillis) {
      return true;
    }
    for (int dot = host.indexOf('.'); dot >= 0; dot = host.indexOf('.', dot + 1)) {
      Entry parent = hosts.get(host.substring(dot + 1));
      if (parent != null && parent.subdomains() && parent.expiresMillis() > nowMillis) {
        return true;
      }
    }
    return false;
  }

  /** Records a {@code Strict-Transport-Security} value received over https from {@code url}'s host. */
  public void record(URI url, String header, long nowMillis) {
    if (header == null || !"https".equalsIgnoreCase(url.getScheme()) || url.getHost() == null
        || isIpLiteral(url.getHost())) {
      return;
    }
    long maxAge = -1;
    boolean subdomains = false;
    for (String part : header.split(";")) {
      String d = part.strip();
      int eq = d.indexOf('=');
      String name = (eq < 0 ? d : d.substring(0, eq)).strip().toLowerCase(Locale.ROOT);
      if (name.equals("max-age") && eq >= 0) {
        try {
          maxAge = Long.parseLong(d.substring(eq + 1).strip().replace("\"", ""));
        } catch (NumberFormatException e) {
          return; // an invalid directive voids the header (RFC 6797 6.1)
        }
      } else if (name.equals("includesubdomains")) {
        subdomains = true;
      }
    }
    if (maxAge < 0) {
      return;
    }
    String host = url.getHost().toLowerCase(Locale.ROOT);
    synchronized (this) {
      Entry before = hosts.get(host);
      Entry after = maxAge == 0 ? null
          : new Entry(maxAge > (UNLIMITED - nowMillis) / 1000 ? UNLIMITED : nowMillis + maxAge * 1000, subdomains);
      if (after == null) {
        hosts.remove(host);
      } else {
        hosts.put(host, after);
      }
      if (file != null && !java.util.Objects.equals(before, after)) {
        save();
      }
    }
  }

  private static boolean isIpLiteral(String host) {
    return host.startsWith("[") || host.indexOf(':') >= 0 || host.matches("[0-9.]+");
  }

  private void save() {
    List<String> lines = new ArrayList<>();
    lines.add("# Your HSTS cache. https://curl.se/docs/hsts.html");
    lines.add("# This file was generated by Strand! Edit at your own risk.");
    hosts.forEach((host, e) -> lines.add((e.subdomains() ? "." : "") + host + " \"" + (e.expiresMillis() == UNLIMITED
        ? "unlimited" : CURL_TIME.format(LocalDateTime.ofEpochSecond(e.expiresMillis() / 1000, 0, ZoneOffset.UTC)))
        + "\""));
    try {
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.write(tmp, lines, StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      // The cache in memory still works; the file catches up on the next change.
    }
  }
}
