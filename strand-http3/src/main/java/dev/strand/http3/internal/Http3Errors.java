package dev.strand.http3.internal;

import io.netty.handler.codec.http3.Http3ErrorCode;

/** HTTP/3 error codes (RFC 9114 section 8.1) by name, for messages. */
final class Http3Errors {
  private Http3Errors() {}

  /** {@code "H3_REQUEST_CANCELLED (0x10c)"}, or {@code "error code 0x..."} for a code HTTP/3 does not define. */
  static String name(long code) {
    for (Http3ErrorCode c : Http3ErrorCode.values()) {
      if (c.code() == code) {
        return c.name() + " (0x" + Long.toHexString(code) + ")";
      }
    }
    return "error code 0x" + Long.toHexString(code);
  }
}
