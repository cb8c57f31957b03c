package dev.strand.internal.text;

import dev.strand.Request;
import dev.strand.RequestBody;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** Writes a request as a POSIX-shell {@code curl} command line; see {@link Request#toCurl(boolean)}. */
public final class CurlCommand {
  /** The file a body that cannot be written inline is read from: the user supplies it. */
  public static final String BODY_FILE = "request-body.bin";
  static final String REDACTED = "REDACTED";

  private CurlCommand() {}

  public static String of(Request request, boolean includeSecrets) {
    StringBuilder sb = new StringBuilder("curl");
    RequestBody body = request.body();
    String method = request.method();
    if (method.equals("HEAD")) {
      sb.append(" --head"); // -X HEAD would wait for a body that never comes
    } else if (!(method.equals("GET") && body == null) && !(method.equals("POST") && body != null)) {
      sb.append(" -X ").append(method.matches("[A-Za-z0-9._-]+") ? method : quote(method));
    }
    sb.append(' ').append(quote(url(request.url(), includeSecrets)));
    request.headers().forEach((name, value) -> {
      if (name.equalsIgnoreCase("Content-Length") || name.equalsIgnoreCase("Transfer-Encoding")) {
        return; // curl frames the body itself
      }
      String shown = includeSecrets ? value : redact(name, value);
      // "Name;" is curl's spelling of a field with an empty value ("Name:" would remove it).
      sb.append(" -H ").append(quote(shown.isEmpty() ? name + ";" : name + ": " + shown));
    });
    if (body == null) {
      return sb.toString();
    }
    if (!request.headers().contains("Content-Type")) {
      // Without it, curl would send its own application/x-www-form-urlencoded; "Content-Type:" removes that.
      String type = body.contentType();
      sb.append(" -H ").append(quote(type == null ? "Content-Type:" : "Content-Type: " + type));
    }
    String text = text(body.bufferedBytes());
    if (text == null) {
      sb.append(" --data-binary ").append(quote("@" + BODY_FILE));
    } else if (text.startsWith("@")) {
      sb.append(" --data-raw ").append(quote(text)); // --data-binary would read "@..." as a file name
    } else {
      sb.append(" --data-binary ").append(quote(text));
    }
    return sb.toString();
  }

  /** The body as text when it is in memory, valid UTF-8 and free of control characters other than tab, CR, LF. */
  static String text(byte[] bytes) {
    if (bytes == null) {
      return null;
    }
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
        return null;
      }
    }
    return text;
  }

  private static String url(URI url, boolean includeSecrets) {
    String userInfo = url.getRawUserInfo();
    if (includeSecrets || userInfo == null) {
      return url.toString();
    }
    int colon = userInfo.indexOf(':');
    if (colon < 0) {
      return url.toString(); // a user name alone is no secret
    }
    String redacted = userInfo.substring(0, colon + 1) + REDACTED;
    String s = url.toString();
    int at = s.indexOf(userInfo + "@");
    return s.substring(0, at) + redacted + s.substring(at + userInfo.length());
  }

  private static String redact(String name, String value) {
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.equals("authorization") || lower.equals("proxy-authorization")) {
      int space = value.indexOf(' ');
      // The scheme tells a reader what kind of credentials to put back; the rest is the secret.
      return space > 0 ? value.substring(0, space) + " " + REDACTED : REDACTED;
    }
    if (lower.equals("cookie")) {
      return REDACTED;
    }
    return value;
  }

  /** {@code s} as one POSIX shell word: single quotes, each {@code '} written as {@code '\''}. */
  public static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }
}
