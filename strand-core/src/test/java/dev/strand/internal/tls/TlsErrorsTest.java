package dev.strand.internal.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Request;
import dev.strand.TlsException;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import java.net.ConnectException;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.Test;

/**
 * What {@link TlsHandshakeTest} cannot provoke for real. Every reason that a real failure can
 * produce is asserted there, on both engines.
 */
class TlsErrorsTest {
  @Test
  void onlyTlsFailuresAreRecognised() {
    assertFalse(TlsErrors.isTlsFailure(new ConnectException("Connection refused")));
    assertFalse(TlsErrors.isTlsFailure(new IOException("Connection reset by peer")));
    assertTrue(TlsErrors.isTlsFailure(new DecoderException(new SSLException("odd"))));
  }

  @Test
  void anUnrecognisedFailureIsOtherAndKeepsTheEngineMessage() {
    Request r = Request.get("https://example.com/");
    SSLException odd = new SSLException("engine hiccup", new IllegalStateException("deep cause"));
    TlsException e = TlsErrors.translate(odd, "example.com", 443, null, r);
    assertEquals(TlsException.Reason.OTHER, e.reason());
    assertEquals("TLS handshake with example.com:443 failed: deep cause", e.getMessage());
    assertSame(odd, e.getCause());
    assertSame(r, e.request());
    assertSame(e, TlsErrors.translate(e, "other", 1, null, null), "already translated");
  }

  @Test
  void commonNameOfDistinguishedNames() {
    assertEquals("Strand Test CA", TlsErrors.commonName("CN=Strand Test CA,O=Strand"));
    assertEquals("a,b", TlsErrors.commonName("O=x,CN=a\\,b"));
    assertEquals("O=NoCn", TlsErrors.commonName("O=NoCn"));
  }
}
