package dev.strand;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Downloads to a file, resuming where an earlier attempt stopped, as {@code curl -C -} does, but safely: a
 * resumed download asks for the rest only if the resource is unchanged.
 *
 * {@snippet :
 * Download.Result r = Download.toFile(client, Request.get("https://example.org/big.iso"), Path.of("big.iso"));
 * if (!r.complete()) {
 *   // an HTTP error status: r.status() says which; the file is untouched
 * }
 * // An exception (a lost connection, a timeout) leaves the bytes so far: call toFile again to resume.
 * }
 *
 * <p>The first attempt records the response's validator ({@code ETag}, else {@code Last-Modified}) in a sidecar
 * file next to the target, {@code NAME.strand-resume}, removed once the download completes. When the target
 * exists with N bytes, the request is sent with {@code Range: bytes=N-} and, if the sidecar has a validator,
 * {@code If-Range} with it. Then:
 * <ul>
 *   <li>206 whose {@code Content-Range} starts at N: the body is appended;
 *   <li>206 starting anywhere else: {@link ProtocolException}, the file untouched;
 *   <li>200: the resource changed (or the server ignores ranges): the file is rewritten from the start;
 *   <li>416 with {@code Content-Range: bytes *}{@code /N}: the file was already complete;
 *   <li>any other status: the file is left as it is and the result is not complete.
 * </ul>
 * Without a sidecar (a file from elsewhere) the range is asked for without {@code If-Range}, as curl does. The
 * request asks for {@code Accept-Encoding: identity} unless it sets an Accept-Encoding itself, since ranges
 * count encoded bytes and the file holds decoded ones.
 *
 * @implNote The body is written as it streams (a file of any size); the file is not synced to disk.
 */
public final class Download {
  private static final Pattern CONTENT_RANGE = Pattern.compile("bytes (\\d+)-(\\d+)/(\\d+|\\*)");
  private static final Pattern UNSATISFIED = Pattern.compile("bytes \\*/(\\d+)");

  private Download() {}

  /**
   * What one {@link #toFile} did.
   *
   * @param status the final response's status
   * @param bytesWritten body bytes written to the file by this call
   * @param resumedFrom the offset this call appended from ({@code 0} when it wrote from the start)
   * @param complete whether the file now holds the whole resource
   */
  public record Result(int status, long bytesWritten, long resumedFrom, boolean complete) {}

  /**
   * Downloads {@code request} (a GET) into {@code file}, resuming a partial file; see the class description.
   *
   * @throws HttpException if the transfer fails (the bytes received so far stay in the file, to resume)
   * @throws ProtocolException if the server answers the range with another range
   * @throws UncheckedIOException if the file cannot be written
   */
  public static Result toFile(Client client, Request request, Path file) {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(request, "request");
    Path sidecar = file.resolveSibling(file.getFileName() + ".strand-resume");
    long have;
    String validator;
    try {
      have = Files.exists(file) ? Files.size(file) : 0;
      validator = have > 0 && Files.exists(sidecar) ? Files.readString(sidecar, StandardCharsets.UTF_8).strip() : null;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    Request.Builder b = request.toBuilder();
    if (!request.headers().contains("Accept-Encoding")) {
      // Ranges count the bytes as sent: with a content coding, the file (decoded) and the offsets would disagree.
      b.setHeader("Accept-Encoding", "identity");
    }
    if (have > 0) {
      b.setHeader("Range", "bytes=" + have + "-");
      if (validator != null && !validator.isEmpty()) {
        b.setHeader("If-Range", validator);
      }
    }
    Request sent = b.build();
    try (StreamingResponse r = client.stream(sent)) {
      int status = r.status();
      if (status == 416) {
        Matcher m = UNSATISFIED.matcher(String.valueOf(r.headers().first("Content-Range")));
        boolean complete = have > 0 && m.matches() && Long.parseLong(m.group(1)) == have;
        if (complete) {
          deleteQuietly(sidecar);
        }
        return new Result(status, 0, have, complete);
      }
      if (status == 206) {
        Matcher m = CONTENT_RANGE.matcher(String.valueOf(r.headers().first("Content-Range")));
        if (!m.matches() || Long.parseLong(m.group(1)) != have || have == 0) {
          throw new ProtocolException("asked for bytes " + have + "- of " + sent + " but got the range \""
              + r.headers().first("Content-Range") + "\"", sent);
        }
        long written = write(r, file, true);
        boolean complete = m.group(3).equals("*") || Long.parseLong(m.group(3)) == have + written;
        if (complete) {
          deleteQuietly(sidecar);
        }
        return new Result(status, written, have, complete);
      }
      if (status != 200) {
        return new Result(status, 0, have, false);
      }
      String v = r.headers().first("ETag");
      if (v == null || v.startsWith("W/")) { // If-Range needs a strong validator
        v = r.headers().first("Last-Modified");
      }
      writeSidecar(sidecar, v);
      long written = write(r, file, false);
      deleteQuietly(sidecar);
      return new Result(status, written, 0, true);
    }
  }

  /** Writes the body to {@code file}, appended or from the start; the bytes reach the file as they arrive. */
  private static long write(StreamingResponse r, Path file, boolean append) {
    try (InputStream in = r.body();
        OutputStream out = append
            ? Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND)
            : Files.newOutputStream(file)) {
      return in.transferTo(out);
    } catch (IOException e) {
      if (e.getCause() instanceof HttpException he) {
        throw he; // the transfer failed: what arrived is in the file, to resume
      }
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  private static void writeSidecar(Path sidecar, String validator) {
    try {
      if (validator == null) {
        Files.deleteIfExists(sidecar);
      } else {
        Files.writeString(sidecar, validator + "\n", StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + sidecar, e);
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException ignored) {
      // A stale sidecar only costs an If-Range the server answers with the whole resource.
    }
  }
}
