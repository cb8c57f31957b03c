package dev.strand.internal.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The Alt-Svc cache at explicit times: parsing, max-age, clear, persist, and the broken back-off. */
class AltServicesTest {
  private static final Origin ORIGIN = new Origin("https", "example.com", 443);
  private static final long S = TimeUnit.SECONDS.toNanos(1);

  @Test
  void keepsTheFirstH3AlternativeOnTheSameHost() {
    AltServices a = new AltServices();
    a.received(ORIGIN, List.of("h3-29=\":8443\", h3=\":8444\"; ma=100, h2=\":443\""), 0);
    assertEquals(ORIGIN.http3(8444), a.http3For(ORIGIN, 99 * S));
    assertNull(a.http3For(ORIGIN, 100 * S), "ma= is in seconds and the entry expires with it");
  }

  @Test
  void ignoresOtherHostsAndBadPorts() {
    AltServices a = new AltServices();
    a.received(ORIGIN, List.of("h3=\"other.example:443\", h3=\":0\", h3=\":99999\", h3=\":x\""), 0);
    assertNull(a.http3For(ORIGIN, 0));
    a.received(ORIGIN, List.of("h3=\"EXAMPLE.com:8443\""), 0);
    assertEquals(ORIGIN.http3(8443), a.http3For(ORIGIN, 0), "the origin's own host, any case");
  }

  @Test
  void defaultsToADayAndClearRemoves() {
    AltServices a = new AltServices();
    a.received(ORIGIN, List.of("h3=\":443\""), 0);
    assertEquals(ORIGIN.http3(443), a.http3For(ORIGIN, 86_399 * S));
    assertNull(a.http3For(ORIGIN, 86_400 * S));
    a.received(ORIGIN, List.of("h3=\":443\""), 0);
    a.received(ORIGIN, List.of("clear"), 1);
    assertNull(a.http3For(ORIGIN, 2));
  }

  @Test
  void networkChangeKeepsOnlyPersistedEntries() {
    Origin other = new Origin("https", "other.example", 443);
    AltServices a = new AltServices();
    a.received(ORIGIN, List.of("h3=\":443\"; persist=1"), 0);
    a.received(other, List.of("h3=\":443\""), 0);
    a.networkChanged();
    assertEquals(ORIGIN.http3(443), a.http3For(ORIGIN, 1));
    assertNull(a.http3For(other, 1));
    assertTrue(a.entry(ORIGIN).persist());
  }

  @Test
  void aFailureClearsTheEntryAndBacksOffDoublingUntilASuccess() {
    AltServices a = new AltServices();
    Origin quic = ORIGIN.http3(443);
    a.received(ORIGIN, List.of("h3=\":443\""), 0);
    a.failed(quic, 0);
    assertNull(a.http3For(ORIGIN, 1), "cleared on QUIC failure");
    a.received(ORIGIN, List.of("h3=\":443\""), 1);
    assertNull(a.http3For(ORIGIN, 299 * S), "broken for 5 minutes");
    assertEquals(quic, a.http3For(ORIGIN, 300 * S));
    a.failed(quic, 300 * S);
    a.received(ORIGIN, List.of("h3=\":443\""), 300 * S);
    assertTrue(a.isBroken(quic, 899 * S), "10 minutes after the second failure");
    assertFalse(a.isBroken(quic, 900 * S));
    a.succeeded(quic);
    a.failed(quic, 1000 * S);
    assertFalse(a.isBroken(quic, 1300 * S), "the count started over after a success");
  }
}
