package dev.strand.internal.websocket;

import dev.strand.InvalidUrlException;
import java.net.URI;
import java.util.Locale;

/**
 * WebSocket URLs and request URLs: a {@link dev.strand.Request} holds {@code http}/{@code https},
 * so {@code ws}/{@code wss} map onto them on the way in, and back for the handshake and messages.
 */
public final class WebSocketUrls {
  private WebSocketUrls() {}

  /**
   * The request URL for a WebSocket URL: {@code ws://} becomes {@code http://}, {@code wss://}
   * {@code https://}; {@code http(s)} and relative URLs stay as they are.
   *
   * @throws InvalidUrlException for another scheme
   */
  public static String toRequestUrl(String url) {
    String text = url.strip();
    int colon = text.indexOf("://");
    if (colon < 0) {
      return text; // relative, or malformed: Request.get says which
    }
    String scheme = text.substring(0, colon).toLowerCase(Locale.ROOT);
    return switch (scheme) {
      case "ws" -> "http" + text.substring(colon);
      case "wss" -> "https" + text.substring(colon);
      case "http", "https" -> text;
      default -> throw new InvalidUrlException("invalid WebSocket URL \"" + url + "\": scheme must be ws, wss, "
          + "http or https, not " + text.substring(0, colon), url);
    };
  }

  /** The {@code ws}/{@code wss} form of an absolute request URL. */
  public static URI toWebSocketUrl(URI url) {
    String scheme = url.getScheme().toLowerCase(Locale.ROOT);
    String ws = scheme.equals("https") || scheme.equals("wss") ? "wss" : "ws";
    return URI.create(ws + url.toString().substring(url.getScheme().length()));
  }
}
