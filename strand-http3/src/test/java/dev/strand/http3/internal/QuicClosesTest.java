package dev.strand.http3.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.HttpException;
import dev.strand.ProtocolException;
import dev.strand.Tls;
import dev.strand.TlsException;
import io.netty.handler.codec.quic.QuicConnectionCloseEvent;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A server's CONNECTION_CLOSE in words. Found against Caddy (no default SNI) at 127.0.0.1: its refusal, a
 * TLS alert without a reason phrase, made Netty's {@code reason()} throw a NullPointerException, and the
 * client reported that text (or a bare QuicClosedChannelException) instead of the alert.
 */
class QuicClosesTest {
  /** What quiche hands Netty: the constructor is package-private, and a close may carry no reason at all. */
  private static QuicConnectionCloseEvent close(boolean application, int error, byte[] reason) throws Exception {
    Constructor<QuicConnectionCloseEvent> c =
        QuicConnectionCloseEvent.class.getDeclaredConstructor(boolean.class, int.class, byte[].class);
    c.setAccessible(true);
    return c.newInstance(application, error, reason);
  }

  private static HttpException describe(QuicConnectionCloseEvent close, String host) {
    return QuicCloses.describe(close, host, 443, Tls.builder().build());
  }

  @Test
  void aTlsAlertWithoutAReasonPhraseNamesTheAlert() throws Exception {
    HttpException e = describe(close(false, 0x100 + 112, null), "127.0.0.1");
    assertEquals(TlsException.class, e.getClass(), e.toString());
    assertEquals("TLS handshake with 127.0.0.1:443 failed: the server refused it with TLS alert unrecognized_name "
        + "(112): it has no certificate for the server name asked; none was sent, since 127.0.0.1 is an IP address "
        + "(TLS sends no server name, SNI, for one): use the host name in the URL, resolved to this address if need be",
        e.getMessage());
  }

  @Test
  void anUnrecognizedNameAtAHostNameSaysTheServerWantedAnother() throws Exception {
    HttpException e = describe(close(false, 0x100 + 112, new byte[0]), "example.test");
    assertTrue(e.getMessage().endsWith("it wanted another name than example.test"), e.getMessage());
  }

  /** Go's crypto/tls (Caddy, quic-go) answers internal_error when its certificate lookup fails for no name. */
  @Test
  void internalErrorAtAnIpAddressMentionsTheMissingServerName() throws Exception {
    HttpException e = describe(close(false, 0x100 + 80, null), "127.0.0.1");
    assertEquals(TlsException.class, e.getClass());
    assertTrue(e.getMessage().contains("TLS alert internal_error (80)")
        && e.getMessage().contains("127.0.0.1 is an IP address"), e.getMessage());
  }

  @Test
  void noApplicationProtocolIsAProtocolRefusal() throws Exception {
    TlsException e = (TlsException) describe(close(false, 0x100 + 120, null), "example.test");
    assertEquals(TlsException.Reason.PROTOCOL, e.reason());
    assertTrue(e.getMessage().contains("no_application_protocol (120): it does not offer HTTP/3"), e.getMessage());
  }

  @Test
  void certificateRequiredSaysHowToPresentOne() throws Exception {
    TlsException e = (TlsException) describe(close(false, 0x100 + 116, null), "example.test");
    assertEquals(TlsException.Reason.CLIENT_CERT_REQUIRED, e.reason(), e.getMessage());
    assertTrue(e.getMessage().contains("clientCertificate"), e.getMessage());
  }

  @Test
  void anApplicationCloseNamesTheHttp3CodeAndTheReason() throws Exception {
    HttpException e = describe(close(true, 0x102, "overloaded".getBytes(StandardCharsets.UTF_8)), "example.test");
    assertEquals(ProtocolException.class, e.getClass());
    assertEquals("QUIC connection closed by the server example.test:443: H3_INTERNAL_ERROR (0x102): overloaded",
        e.getMessage());
  }

  @Test
  void aTransportCloseWithoutAReasonIsNotANullPointerException() throws Exception {
    HttpException e = describe(close(false, 0x2, null), "example.test");
    assertEquals("QUIC connection closed by the server example.test:443: QUIC transport error 0x2", e.getMessage());
  }
}
