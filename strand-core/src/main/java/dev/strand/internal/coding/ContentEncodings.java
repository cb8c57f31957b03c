package dev.strand.internal.coding;

import dev.strand.Headers;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.spi.StreamingResponses;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * Which Content-Encodings the client decodes, and the decoding view of a response. gzip
 * ({@code x-gzip}) and deflate always; brotli ({@code br}) when brotli4j is on the class path (a native
 * library that then fails to load fails the body with a ProtocolException), zstd when zstd-jni is and
 * loads; only those are advertised. A response with any other coding keeps its body and
 * Content-Encoding as received, and {@link #undecodable} says why for the text view to refuse it.
 */
public final class ContentEncodings {
  private static final boolean ZSTD = isPresent("com.github.luben.zstd.ZstdInputStreamNoFinalizer")
      && ZstdDecoder.available();

  // Its native library is loaded by the first br body rather than here: on JDK 24+ loading it from the
  // class path prints a warning unless native access is granted, which the CLI does not (see bin/strand).
  private static final boolean BROTLI = isPresent("com.aayushatharva.brotli4j.Brotli4jLoader");

  /** The Accept-Encoding value the client sends when decompression is on. */
  public static final String ACCEPT_ENCODING = "gzip, deflate" + (BROTLI ? ", br" : "") + (ZSTD ? ", zstd" : "");

  private ContentEncodings() {}

  /**
   * {@code response} with its body decoded, and without Content-Encoding and Content-Length (which
   * described the encoded body), if it has a Content-Encoding this client decodes; else unchanged.
   * Responses without a body (HEAD, 204, 304) are left untouched.
   */
  public static StreamingResponse decode(StreamingResponse response, Request request) {
    String encoding = response.headers().first("Content-Encoding");
    if (encoding == null || request.method().equals("HEAD") || response.status() == 204
        || response.status() == 304 || response.status() < 200) {
      return response;
    }
    String[] codings = codings(encoding);
    if (codings == null) {
      return response;
    }
    Headers headers = response.headers().toBuilder().remove("Content-Encoding").remove("Content-Length").build();
    if (codings.length == 0) { // only "identity"
      return StreamingResponses.withBody(response, headers, StreamingResponses.body(response));
    }
    return StreamingResponses.withBody(response, headers, new DecodingResponseBody(StreamingResponses.body(response), codings, request));
  }

  /** The codings in the order they were applied, without identity; null if one is not supported. */
  static String[] codings(String header) {
    int count = 0;
    String[] out = new String[2];
    int start = 0;
    while (start <= header.length()) {
      int comma = header.indexOf(',', start);
      int end = comma < 0 ? header.length() : comma;
      String token = header.substring(start, end).strip().toLowerCase(Locale.ROOT);
      start = end + 1;
      if (token.isEmpty() || token.equals("identity")) {
        continue;
      }
      if (token.equals("x-gzip")) {
        token = "gzip";
      }
      if (!decodable(token)) {
        return null;
      }
      if (count == out.length) {
        out = java.util.Arrays.copyOf(out, count * 2);
      }
      out[count++] = token;
    }
    return java.util.Arrays.copyOf(out, count);
  }

  /** A decoder for one coding over {@code source}. */
  static Decoder decoder(String coding, ChunkSource source) {
    return switch (coding) {
      case "gzip" -> InflateDecoder.gzip(source);
      case "deflate" -> InflateDecoder.deflate(source);
      case "zstd" -> {
        try {
          yield new ZstdDecoder(source);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      case "br" -> {
        try {
          yield new BrotliDecoder(source);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      default -> throw new IllegalArgumentException(coding);
    };
  }

  private static boolean decodable(String token) {
    return token.equals("gzip") || token.equals("deflate") || (BROTLI && token.equals("br"))
        || (ZSTD && token.equals("zstd"));
  }

  /**
   * Why a body that still has this Content-Encoding is not text, naming each coding left; {@code null}
   * for none (absent, or only {@code identity}). A body keeps its Content-Encoding when a coding is
   * unknown, its library is missing, or decompression is off.
   */
  public static String undecodable(String contentEncoding) {
    if (contentEncoding == null) {
      return null;
    }
    StringBuilder missing = new StringBuilder();
    StringBuilder kept = new StringBuilder();
    for (String part : contentEncoding.split(",")) {
      String token = part.strip().toLowerCase(Locale.ROOT);
      if (token.isEmpty() || token.equals("identity")) {
        continue;
      }
      if (decodable(token.equals("x-gzip") ? "gzip" : token)) {
        kept.append(kept.isEmpty() ? "" : ", ").append(token);
        continue;
      }
      missing.append(missing.isEmpty() ? "" : "; ").append(token).append(switch (token) {
        case "br" -> " needs com.aayushatharva.brotli4j:brotli4j on the class path";
        case "zstd" -> " needs com.github.luben:zstd-jni on the class path";
        default -> " is a coding this client does not decode";
      });
    }
    if (!missing.isEmpty()) {
      return missing.toString();
    }
    return kept.isEmpty() ? null : kept + " left encoded: decompression is off (Client.Builder.decompress)";
  }

  static boolean zstdAvailable() {
    return ZSTD;
  }

  static boolean brotliAvailable() {
    return BROTLI;
  }

  private static boolean isPresent(String className) {
    try {
      Class.forName(className, false, ContentEncodings.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
