package dev.strand;

import dev.strand.internal.client.HstsStore;
import java.nio.file.Path;
import java.util.Objects;

/**
 * HTTP Strict Transport Security (RFC 6797), opt-in with {@link Client.Builder#hsts}: once a host has answered
 * over https with {@code Strict-Transport-Security: max-age=N}, later {@code http://} requests to it (and, with
 * {@code includeSubDomains}, to its subdomains) go to {@code https://} instead, for N seconds. The header is
 * ignored over http and from IP literals; {@code max-age=0} forgets the host. An upgraded URL's port 80 becomes
 * 443; any other explicit port is kept (as curl does).
 *
 * {@snippet :
 * Client client = Client.builder().hsts(Hsts.file(Path.of("hsts.txt"))).build();
 * }
 */
public final class Hsts {
  private final HstsStore store;

  private Hsts(HstsStore store) {
    this.store = store;
  }

  /** Known hosts kept in memory, for the clients that share this instance. */
  public static Hsts inMemory() {
    return new Hsts(HstsStore.inMemory());
  }

  /**
   * Known hosts kept in {@code file}, in curl's {@code --hsts} format (lines {@code [.]host "YYYYMMDD HH:MM:SS"}
   * in UTC or {@code "unlimited"}, a leading dot for includeSubDomains, {@code #} comments), so curl and Strand
   * can share one.
   *
   * @implNote The file is read now, when this is called (a missing file is an empty cache), and rewritten (to a
   *     temporary file, then moved into place) after each change, so nothing is lost if the client is not closed.
   * @throws java.io.UncheckedIOException if the file exists but cannot be read
   */
  public static Hsts file(Path file) {
    return new Hsts(HstsStore.file(Objects.requireNonNull(file, "file")));
  }

  HstsStore store() {
    return store;
  }
}
