package dev.strand.internal.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Tls;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;

/** The public {@link Tls} value: defaults, validation, equality, and its loud insecure mode. */
class TlsSettingsTest {
  private static final Path CA = Path.of("/etc/myapp/ca.pem");

  @Test
  void systemDefaults() {
    Tls t = Tls.system();
    assertTrue(t.verify());
    assertTrue(t.trustSystem());
    assertEquals(List.of(), t.trustPem());
    assertEquals(List.of("TLSv1.3", "TLSv1.2"), t.protocols());
    assertEquals(Tls.Engine.AUTO, t.engine());
    assertNull(t.handshakeTimeout());
    assertNull(t.sslContext());
    assertEquals(Tls.system(), Tls.builder().build());
  }

  @Test
  void equalSettingsAreEqualAndToBuilderRoundTrips() {
    Tls a = Tls.builder().trustPem(CA).clientPkcs12(Path.of("c.p12"), "pw".toCharArray())
        .protocols("TLSv1.3").engine(Tls.Engine.JDK).handshakeTimeout(Duration.ofSeconds(2)).build();
    Tls b = Tls.builder().trustPem(CA).clientPkcs12(Path.of("c.p12"), "pw".toCharArray())
        .protocols("TLSv1.3").engine(Tls.Engine.JDK).handshakeTimeout(Duration.ofSeconds(2)).build();
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertEquals(a, a.toBuilder().build());
    assertNotEquals(a, a.toBuilder().trustSystem(false).build());
    assertNotEquals(a, a.toBuilder().clientPkcs12(Path.of("c.p12"), "other".toCharArray()).build());
  }

  @Test
  void thePasswordIsCopiedAndNeverPrinted() {
    char[] password = "hunter2".toCharArray();
    Tls t = Tls.builder().clientPkcs12(Path.of("c.p12"), password).build();
    password[0] = 'X';
    assertEquals("hunter2", new String(t.clientPkcs12Password()));
    t.clientPkcs12Password()[0] = 'Y';
    assertEquals("hunter2", new String(t.clientPkcs12Password()));
    assertFalse(t.toString().contains("hunter2"), t.toString());
    assertTrue(t.toString().contains("c.p12"), t.toString());
  }

  @Test
  void contradictorySettingsAreRejectedAtBuild() throws Exception {
    SSLContext jdk = SSLContext.getDefault();
    assertThrows(IllegalStateException.class, () -> Tls.builder().sslContext(jdk).trustPem(CA).build());
    assertThrows(IllegalStateException.class,
        () -> Tls.builder().sslContext(jdk).engine(Tls.Engine.OPENSSL).build());
    assertThrows(IllegalStateException.class, () -> Tls.builder().clientCertificate(CA, CA)
        .clientPkcs12(CA, new char[0]).build());
    IllegalStateException nothing = assertThrows(IllegalStateException.class,
        () -> Tls.builder().trustSystem(false).build());
    assertTrue(nothing.getMessage().contains("nothing would be trusted"), nothing.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Tls.builder().protocols("SSLv3"));
    assertThrows(IllegalArgumentException.class, () -> Tls.builder().protocols());
    assertThrows(IllegalArgumentException.class, () -> Tls.builder().handshakeTimeout(Duration.ZERO));
    assertTrue(Tls.builder().trustSystem(false).trustPem(CA).build().trustPem().contains(CA));
  }

  @Test
  void insecureVerifiesNothingAndSaysSoOnce() {
    Tls t = Tls.insecure();
    assertFalse(t.verify());
    assertTrue(t.toString().contains("INSECURE"), t.toString());
    assertTrue(InsecureWarning.GLOBAL.warned());
    assertFalse(InsecureWarning.GLOBAL.warn(), "the JVM-wide warning is logged once");

    RecordingLogger log = new RecordingLogger();
    InsecureWarning warning = new InsecureWarning(log);
    assertTrue(warning.warn());
    assertFalse(warning.warn());
    assertEquals(List.of("WARNING " + InsecureWarning.MESSAGE), log.records);
  }

  /** A {@code System.Logger} that keeps what it is told. */
  static final class RecordingLogger implements System.Logger {
    final List<String> records = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public String getName() {
      return "recording";
    }

    @Override
    public boolean isLoggable(Level level) {
      return true;
    }

    @Override
    public void log(Level level, java.util.ResourceBundle bundle, String msg, Throwable thrown) {
      records.add(level + " " + msg);
    }

    @Override
    public void log(Level level, java.util.ResourceBundle bundle, String format, Object... params) {
      records.add(level + " " + (params == null || params.length == 0
          ? format : java.text.MessageFormat.format(format, params)));
    }
  }
}
