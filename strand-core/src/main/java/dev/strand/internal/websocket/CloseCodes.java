package dev.strand.internal.websocket;

/** The close status codes an endpoint may send (RFC 6455 7.4, and the IANA registry). */
final class CloseCodes {
  private CloseCodes() {}

  /**
   * @throws IllegalArgumentException for a code reserved for the protocol (1004, 1005, 1006, 1015),
   *     unassigned (below 1000, 1016 to 2999) or out of range (5000 and above)
   */
  static void checkSendable(int code) {
    boolean registered = code >= 1000 && code <= 1014 && code != 1004 && code != 1005 && code != 1006;
    boolean application = code >= 3000 && code <= 4999;
    if (!registered && !application) {
      throw new IllegalArgumentException("WebSocket close code " + code + " may not be sent: use 1000-1003, "
          + "1007-1014 or an application code 3000-4999");
    }
  }
}
