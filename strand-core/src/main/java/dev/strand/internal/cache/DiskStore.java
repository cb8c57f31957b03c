package dev.strand.internal.cache;

import dev.strand.Headers;
import dev.strand.Version;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Cache entries on disk, one file each, named by the SHA-256 of the URL, under a size cap enforced by
 * evicting the least recently used. Each file ends with the SHA-256 of what precedes it: a file that is
 * truncated, corrupt or of another format is a miss and is deleted, never served. Files are written
 * beside their place and moved in, so a crash leaves the old entry or the new one. Thread-safe.
 */
public final class DiskStore {
  private static final int MAGIC = 0x53544331; // "STC1"
  private static final String SUFFIX = ".entry";

  private final Path directory;
  private final long maxBytes;
  /** File name → size on disk, least recently used first. */
  private final LinkedHashMap<String, Long> index = new LinkedHashMap<>(16, 0.75f, true);
  private long size;

  public DiskStore(Path directory, long maxBytes) {
    this.directory = directory;
    this.maxBytes = maxBytes;
    try {
      Files.createDirectories(directory);
      try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
        for (Path f : files) {
          String name = f.getFileName().toString();
          if (name.endsWith(SUFFIX)) {
            long length = Files.size(f);
            index.put(name, length);
            size += length;
          } else if (name.endsWith(".tmp")) {
            Files.deleteIfExists(f); // a write cut off by a crash
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot use " + directory + " as an HTTP cache: " + e.getMessage(), e);
    }
  }

  /** The entry stored for {@code url}, or {@code null}; an unreadable entry is deleted. */
  CacheEntry get(String url) {
    String name = fileName(url);
    synchronized (this) {
      if (!index.containsKey(name)) {
        return null;
      }
    }
    Path file = directory.resolve(name);
    try {
      CacheEntry e = decode(Files.readAllBytes(file));
      if (e != null && e.url().equals(url)) {
        return e;
      }
    } catch (IOException | RuntimeException unreadable) {
      // a miss, and the file goes
    }
    remove(url);
    return null;
  }

  /** Stores {@code e} for its URL, evicting the least recently used entries beyond the cap. */
  void put(CacheEntry e) {
    byte[] bytes = encode(e);
    if (bytes.length > maxBytes) {
      return;
    }
    String name = fileName(e.url());
    Path file = directory.resolve(name);
    Path tmp = directory.resolve(name + "." + Thread.currentThread().threadId() + ".tmp");
    try {
      Files.write(tmp, bytes);
      try {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException notAtomic) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException failed) {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // nothing more to do: the cache only loses an entry
      }
      return;
    }
    synchronized (this) {
      Long old = index.put(name, (long) bytes.length);
      size += bytes.length - (old == null ? 0 : old);
      evict();
    }
  }

  void remove(String url) {
    String name = fileName(url);
    synchronized (this) {
      Long old = index.remove(name);
      if (old != null) {
        size -= old;
      }
    }
    try {
      Files.deleteIfExists(directory.resolve(name));
    } catch (IOException ignored) {
      // the index no longer has it; a later put overwrites it
    }
  }

  synchronized long size() {
    return size;
  }

  synchronized int count() {
    return index.size();
  }

  void clear() {
    String[] names;
    synchronized (this) {
      names = index.keySet().toArray(String[]::new);
      index.clear();
      size = 0;
    }
    for (String n : names) {
      try {
        Files.deleteIfExists(directory.resolve(n));
      } catch (IOException ignored) {
        // best effort
      }
    }
  }

  private void evict() {
    var it = index.entrySet().iterator();
    while (size > maxBytes && it.hasNext()) {
      Map.Entry<String, Long> oldest = it.next();
      it.remove();
      size -= oldest.getValue();
      try {
        Files.deleteIfExists(directory.resolve(oldest.getKey()));
      } catch (IOException ignored) {
        // gone from the index; the file is overwritten or cleared later
      }
    }
  }

  static String fileName(String url) {
    return HexFormat.of().formatHex(sha256(url.getBytes(StandardCharsets.UTF_8))) + SUFFIX;
  }

  static byte[] encode(CacheEntry e) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(e.body().length + 512);
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(MAGIC);
      out.writeUTF(e.url());
      writeHeaders(out, e.varyRequestHeaders());
      out.writeInt(e.status());
      out.writeUTF(e.reason() == null ? "" : e.reason());
      out.writeUTF(e.version().name());
      writeHeaders(out, e.headers());
      out.writeLong(e.requestMillis());
      out.writeLong(e.responseMillis());
      out.writeInt(e.body().length);
      out.write(e.body());
      out.flush();
      out.write(sha256(bytes.toByteArray()));
      return bytes.toByteArray();
    } catch (IOException impossible) {
      throw new UncheckedIOException(impossible);
    }
  }

  /** The entry in {@code file}, or {@code null} if it is not a whole, intact entry of this format. */
  static CacheEntry decode(byte[] file) throws IOException {
    if (file.length < 36) {
      return null;
    }
    byte[] content = Arrays.copyOf(file, file.length - 32);
    if (!MessageDigest.isEqual(sha256(content), Arrays.copyOfRange(file, file.length - 32, file.length))) {
      return null;
    }
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(content));
    if (in.readInt() != MAGIC) {
      return null;
    }
    String url = in.readUTF();
    Headers vary = readHeaders(in);
    int status = in.readInt();
    String reason = in.readUTF();
    Version version = version(in.readUTF());
    Headers headers = readHeaders(in);
    long requestMillis = in.readLong();
    long responseMillis = in.readLong();
    int length = in.readInt();
    // Checked before allocating: a length the file does not hold would reserve up to 2 GiB for nothing.
    if (version == null || vary == null || headers == null || length < 0 || length > in.available()) {
      return null;
    }
    byte[] body = new byte[length];
    in.readFully(body);
    if (in.available() != 0) {
      return null;
    }
    return new CacheEntry(url, vary, status, reason, version, headers, body, requestMillis, responseMillis);
  }

  private static void writeHeaders(DataOutputStream out, Headers headers) throws IOException {
    out.writeInt(headers.size());
    for (int i = 0; i < headers.size(); i++) {
      out.writeUTF(headers.name(i));
      out.writeUTF(headers.value(i));
    }
  }

  /** The headers, or {@code null} if a field is one Headers refuses (the file was not written by encode). */
  private static Headers readHeaders(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > 10_000) {
      throw new IOException("not a header count: " + n);
    }
    Headers.Builder b = Headers.builder();
    for (int i = 0; i < n; i++) {
      try {
        b.add(in.readUTF(), in.readUTF());
      } catch (IllegalArgumentException notAField) {
        return null;
      }
    }
    return b.build();
  }

  private static Version version(String name) {
    for (Version v : Version.values()) {
      if (v.name().equals(name)) {
        return v;
      }
    }
    // Names of the policies Version held before VersionPolicy was split from it: files written then stay readable.
    return switch (name) {
      case "HTTP_2_PRIOR_KNOWLEDGE" -> Version.HTTP_2;
      case "HTTP_3_FIRST", "HTTP_3_ALT_SVC" -> Version.HTTP_3;
      default -> null;
    };
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JDK", e);
    }
  }
}
