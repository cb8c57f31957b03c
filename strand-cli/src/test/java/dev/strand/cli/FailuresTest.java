package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.ConnectException;
import dev.strand.ConnectTimeoutException;
import dev.strand.HttpException;
import dev.strand.InvalidUrlException;
import dev.strand.ProtocolException;
import dev.strand.ReadTimeoutException;
import dev.strand.Request;
import dev.strand.TlsException;
import dev.strand.TooManyRedirectsException;
import dev.strand.TransportException;
import java.net.UnknownHostException;
import java.security.cert.CertificateException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

class FailuresTest {
  private static final Request GET = Request.get("http://127.0.0.1:8080/never");

  @Test
  void readTimeoutIs28WithTheConfiguredSecondsAndTheRequest() {
    Failures.Failure f = Failures.of(new ReadTimeoutException("read timeout", GET), 2, 5);
    assertEquals(28, f.exitCode());
    assertEquals("read timed out after 5.0 s (GET http://127.0.0.1:8080/never)", f.message());
  }

  @Test
  void connectTimeoutUsesTheConnectLimit() {
    Failures.Failure f = Failures.of(new ConnectTimeoutException("x", GET), 0.25, 5);
    assertEquals(new Failures.Failure(28, "connect timed out after 0.3 s (GET http://127.0.0.1:8080/never)"), f);
  }

  @Test
  void unknownHostIs6AndRefusedIs7() {
    Request r = Request.get("http://no-such-host.invalid/");
    assertEquals(6, Failures.of(new ConnectException("x", r, new UnknownHostException("no-such-host.invalid")), 5, 5)
        .exitCode());
    Failures.Failure refused = Failures.of(
        new ConnectException("x", GET, new java.net.ConnectException("Connection refused")), 5, 5);
    assertEquals(new Failures.Failure(7,
        "cannot connect to 127.0.0.1:8080: Connection refused (GET http://127.0.0.1:8080/never)"), refused);
  }

  @Test
  void redirectsEmptyReplyAndProtocolErrors() {
    assertEquals(47, Failures.of(new TooManyRedirectsException("more than 20 redirects", GET), 5, 5).exitCode());
    assertEquals(52, Failures.of(
        new ProtocolException("server closed the connection without a response", GET), 5, 5).exitCode());
    assertEquals(56, Failures.of(new ProtocolException("invalid status line", GET), 5, 5).exitCode());
    assertEquals(56, Failures.of(new TransportException("connection reset", GET), 5, 5).exitCode());
  }

  @Test
  void tlsFailuresSplitIntoHandshakeAndCertificate() {
    HttpException handshake = new TransportException("tls", GET, new SSLHandshakeException("handshake_failure"));
    assertEquals(35, Failures.of(handshake, 5, 5).exitCode());
    SSLHandshakeException untrusted = new SSLHandshakeException("PKIX path building failed");
    untrusted.initCause(new CertificateException("unable to find valid certification path"));
    assertEquals(60, Failures.of(new TransportException("tls", GET, untrusted), 5, 5).exitCode());
  }

  @Test
  void tlsExceptionMapsByReason() {
    assertEquals(60, Failures.of(new TlsException(TlsException.Reason.UNKNOWN_CA, "untrusted", GET), 5, 5).exitCode());
    assertEquals(60, Failures.of(new TlsException(TlsException.Reason.HOSTNAME_MISMATCH, "name", GET), 5, 5).exitCode());
    assertEquals(60, Failures.of(new TlsException(TlsException.Reason.EXPIRED, "old", GET), 5, 5).exitCode());
    assertEquals(35, Failures.of(new TlsException(TlsException.Reason.PROTOCOL, "no common", GET), 5, 5).exitCode());
    assertEquals(35, Failures.of(new TlsException(TlsException.Reason.CLIENT_CERT_REQUIRED, "c", GET), 5, 5).exitCode());
    assertEquals(28, Failures.of(new TlsException(TlsException.Reason.HANDSHAKE_TIMEOUT, "slow", GET), 5, 5).exitCode());
  }

  @Test
  void messageIsNotRepeatedWhenItAlreadyNamesTheRequest() {
    Failures.Failure f = Failures.of(new TransportException("reset while reading GET http://127.0.0.1:8080/never", GET),
        5, 5);
    assertEquals("reset while reading GET http://127.0.0.1:8080/never", f.message());
  }

  @Test
  void badUrlIs3AndAnythingElseIsAnInternalError() {
    assertEquals(3, Failures.of(new InvalidUrlException("invalid URL \"x\"", "x"), 5, 5).exitCode());
    Failures.Failure f = Failures.of(new UnsupportedOperationException("TODO"), 5, 5);
    assertEquals(new Failures.Failure(1, "internal error: UnsupportedOperationException: TODO"), f);
  }
}
