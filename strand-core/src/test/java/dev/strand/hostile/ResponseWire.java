package dev.strand.hostile;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One generated HTTP/1.1 response as bytes on the wire: a head, a body in one of three framings, the
 * places where the server splits its writes, and optionally a point where it stops and closes.
 *
 * @param framing how the body's end is marked
 * @param status a final status that has a body (no 1xx, 204, 304 or redirects)
 * @param body the body the framing carries
 * @param chunkSizes sizes of chunks, used in turn (the last one repeats) until the body is out
 * @param flags {@link #LOWER_CASE_NAMES}, {@link #EXTENSIONS}, {@link #TRAILERS}, {@link #INTERIM},
 *     {@link #UPPER_HEX}, {@link #CONNECTION_CLOSE}, {@link #STRAY_AFTER}, {@link #LOOSE_SPELLING}
 * @param splits positions (each taken modulo the length) where one write ends and the next begins
 * @param cutAt where the server stops and closes, as a fraction of the length; negative: it does not
 */
record ResponseWire(Framing framing, int status, byte[] body, List<Integer> chunkSizes, int flags,
    List<Integer> splits, double cutAt) {

  enum Framing { CONTENT_LENGTH, CHUNKED, CLOSE_DELIMITED }

  static final int LOWER_CASE_NAMES = 1;
  static final int EXTENSIONS = 2;
  static final int TRAILERS = 4;
  static final int INTERIM = 8;
  static final int UPPER_HEX = 16;
  static final int CONNECTION_CLOSE = 32;
  /**
   * After a whole Content-Length or chunked response, a second response nobody asked for: the client must
   * not take it for the answer to its next request.
   */
  static final int STRAY_AFTER = 64;
  /** Optional whitespace (spaces and tabs) around header values, and {@code Chunked} in mixed case. */
  static final int LOOSE_SPELLING = 128;
  static final String STRAY_RESPONSE = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nstray";

  static final String TRAILER_NAME = "X-Checksum";

  boolean has(int flag) {
    return (flags & flag) != 0;
  }

  /** The trailer's value when {@link #TRAILERS} applies (chunked only), else null. */
  String trailerValue() {
    return framing == Framing.CHUNKED && has(TRAILERS) ? "len-" + body.length : null;
  }

  /** The whole response, interim response included. */
  byte[] bytes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    write(out, head());
    if (framing == Framing.CHUNKED) {
      writeChunks(out);
    } else {
      out.writeBytes(body);
    }
    return out.toByteArray();
  }

  /** Bytes up to the end of the final response's head: a cut before it leaves no response at all. */
  int headLength() {
    return head().getBytes(StandardCharsets.ISO_8859_1).length;
  }

  /** Where the server stops (the whole length when it does not cut). */
  int cut() {
    int length = bytes().length;
    return cutAt < 0 ? length : (int) (cutAt * length);
  }

  /** True when {@link #STRAY_AFTER} applies: a whole response whose end the framing marks. */
  boolean strays() {
    return has(STRAY_AFTER) && cutAt < 0 && framing != Framing.CLOSE_DELIMITED;
  }

  /** True when the server closes the connection after this response (cut, or close-delimited). */
  boolean serverCloses() {
    return cutAt >= 0 || framing == Framing.CLOSE_DELIMITED || has(CONNECTION_CLOSE);
  }

  /** The bytes to send, cut, in the pieces the server writes one by one. */
  List<byte[]> pieces() {
    byte[] all = bytes();
    int end = cut();
    List<Integer> at = new ArrayList<>();
    for (int s : splits) {
      if (end > 0) {
        at.add(Math.floorMod(s, end));
      }
    }
    if (strays()) {
      // In the same write as the response's last bytes: sent later, it could not be told from an answer.
      byte[] stray = STRAY_RESPONSE.getBytes(StandardCharsets.US_ASCII);
      all = java.util.Arrays.copyOf(all, all.length + stray.length);
      System.arraycopy(stray, 0, all, end, stray.length);
      end = all.length;
    }
    at.add(end);
    at.sort(null);
    List<byte[]> out = new ArrayList<>();
    int from = 0;
    for (int to : at) {
      if (to > from) {
        out.add(java.util.Arrays.copyOfRange(all, from, to));
        from = to;
      }
    }
    return out;
  }

  private String head() {
    StringBuilder h = new StringBuilder();
    if (has(INTERIM)) {
      h.append("HTTP/1.1 100 Continue\r\n\r\n");
    }
    h.append("HTTP/1.1 ").append(status).append(' ').append(status < 400 ? "OK" : "Something Else").append("\r\n");
    header(h, "Content-Type", "application/octet-stream");
    header(h, "X-Generated", "yes");
    switch (framing) {
      case CONTENT_LENGTH -> header(h, "Content-Length", Integer.toString(body.length));
      case CHUNKED -> {
        header(h, "Transfer-Encoding", has(LOOSE_SPELLING) ? "Chunked" : "chunked");
        if (has(TRAILERS)) {
          header(h, "Trailer", TRAILER_NAME);
        }
      }
      case CLOSE_DELIMITED -> { }
    }
    if (has(CONNECTION_CLOSE) || framing == Framing.CLOSE_DELIMITED && has(LOWER_CASE_NAMES)) {
      header(h, "Connection", "close");
    }
    return h.append("\r\n").toString();
  }

  private void header(StringBuilder h, String name, String value) {
    String ows = has(LOOSE_SPELLING) ? " \t" : "";
    h.append(has(LOWER_CASE_NAMES) ? name.toLowerCase(java.util.Locale.ROOT) : name).append(":").append(ows)
        .append(' ').append(value).append(ows).append("\r\n");
  }

  private void writeChunks(ByteArrayOutputStream out) {
    int at = 0;
    int i = 0;
    while (at < body.length) {
      int size = Math.min(chunkSizes.get(Math.min(i, chunkSizes.size() - 1)), body.length - at);
      String hex = Integer.toHexString(size);
      write(out, (has(UPPER_HEX) ? "0" + hex.toUpperCase(java.util.Locale.ROOT) : hex)
          + (has(EXTENSIONS) ? ";ext" + i + "=\"v\"" : "") + "\r\n");
      out.write(body, at, size);
      write(out, "\r\n");
      at += size;
      i++;
    }
    write(out, "0" + (has(EXTENSIONS) ? ";last" : "") + "\r\n");
    if (trailerValue() != null) {
      write(out, TRAILER_NAME + ": " + trailerValue() + "\r\n");
    }
    write(out, "\r\n");
  }

  private static void write(ByteArrayOutputStream out, String s) {
    out.writeBytes(s.getBytes(StandardCharsets.ISO_8859_1));
  }

  @Override
  public String toString() {
    return framing + " " + status + " body " + body.length + " B, chunks " + chunkSizes + ", flags " + flags
        + ", splits " + splits + ", cut " + (cutAt < 0 ? "none" : cut() + "/" + bytes().length + " (head "
        + headLength() + ")");
  }
}
