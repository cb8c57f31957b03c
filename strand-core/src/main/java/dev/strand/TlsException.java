package dev.strand;

import java.util.Objects;

/**
 * The TLS handshake (or the TLS layer of an open connection) failed. {@link #reason()} says why in
 * a form code can branch on; the message says it in words, naming the host and what to change.
 *
 * <p>A handshake that takes longer than {@link Tls#handshakeTimeout()} is a {@code TlsException}
 * with reason {@link Reason#HANDSHAKE_TIMEOUT}, not a {@link TimeoutException}.
 */
public class TlsException extends TransportException {
  /** Why the TLS layer failed. */
  public enum Reason {
    /** The server's certificate chain does not lead to a trusted CA (or it is self-signed). */
    UNKNOWN_CA,
    /** The certificate is valid but issued for other names than the host connected to. */
    HOSTNAME_MISMATCH,
    /** A certificate in the chain is past its "not after" date. */
    EXPIRED,
    /** A certificate in the chain is before its "not before" date (often a wrong clock). */
    NOT_YET_VALID,
    /**
     * The chain is valid, but no certificate in it has a public key pinned for the host
     * ({@link Tls.Builder#pin}); the message names the host, the pins and the chain's own.
     */
    PIN_MISMATCH,
    /** The handshake did not finish in time. */
    HANDSHAKE_TIMEOUT,
    /** The server asks for a client certificate and none (or one it rejects) was presented. */
    CLIENT_CERT_REQUIRED,
    /** No protocol version or cipher suite in common, or the peer does not speak TLS. */
    PROTOCOL,
    /** Anything else; the cause tells more. */
    OTHER
  }

  private final Reason reason;

  public TlsException(Reason reason, String message, Request request) {
    this(reason, message, request, null);
  }

  public TlsException(Reason reason, String message, Request request, Throwable cause) {
    super(message, request, cause);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  public Reason reason() {
    return reason;
  }

  /** False: the handshake would fail the same way again. */
  @Override
  public boolean isRetryable() {
    return false;
  }
}
