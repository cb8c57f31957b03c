package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Timeout, Limits and Cookie: builders that start from the defaults, validation in build(), value equality. */
class ValueBuildersTest {
  @Test
  void timeoutBuilderStartsFromTheDefault() {
    assertEquals(Timeout.DEFAULT, Timeout.builder().build());
    Timeout t = Timeout.builder().read(Duration.ofSeconds(1)).call(Duration.ofMinutes(1)).build();
    assertEquals(Timeout.DEFAULT.withRead(Duration.ofSeconds(1)).withCall(Duration.ofMinutes(1)), t);
    assertEquals(t.hashCode(), t.toBuilder().build().hashCode());
    assertEquals(Duration.ofSeconds(5), t.connect());
    assertNull(Timeout.none().toBuilder().build().read());
    assertEquals("Timeout[connect=PT5S, read=PT1S, write=PT5S, pool=PT5S, call=PT1M]", t.toString());
  }

  @Test
  void timeoutRefusesANegativeLimit() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Timeout.builder().write(Duration.ofSeconds(-1)).build());
    assertEquals("timeout write must not be negative: PT-1S", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Timeout.DEFAULT.withCall(Duration.ofMillis(-1)));
  }

  @Test
  void limitsBuilderLetsThePerHostCapFollowTheTotal() {
    assertEquals(Limits.DEFAULT, Limits.builder().build());
    Limits l = Limits.builder().maxConnections(10).build();
    assertEquals(10, l.maxConnectionsPerHost());
    assertEquals(Limits.DEFAULT.withMaxConnections(10), l);
    Limits capped = l.toBuilder().maxConnectionsPerHost(2).maxConnections(50).build();
    assertEquals(2, capped.maxConnectionsPerHost());
    assertEquals(Limits.ofConnections(3), Limits.ofConnections(3).toBuilder().build());
    assertNotEquals(l, capped);
  }

  @Test
  void limitsRefuseOutOfRangeBounds() {
    assertEquals("maxConnections must be >= 1: 0",
        assertThrows(IllegalArgumentException.class, () -> Limits.builder().maxConnections(0).build()).getMessage());
    assertThrows(IllegalArgumentException.class, () -> Limits.builder().maxKeepAliveConnections(-1).build());
    assertThrows(IllegalArgumentException.class, () -> Limits.builder().maxConnectionsPerHost(0).build());
    assertThrows(IllegalArgumentException.class, () -> Limits.builder().keepAliveExpiry(Duration.ofSeconds(-1)).build());
    assertThrows(NullPointerException.class, () -> Limits.builder().keepAliveExpiry(null).build());
  }

  @Test
  void cookieBuilderDefaultsAndEquality() {
    Cookie c = Cookie.builder("sid", "abc").domain("example.com").build();
    assertEquals("/", c.path());
    assertNull(c.expires());
    assertTrue(c.hostOnly());
    assertEquals(c, c.toBuilder().build());
    Cookie d = c.toBuilder().expires(Instant.EPOCH).secure(true).hostOnly(false).build();
    assertNotEquals(c, d);
    assertEquals("Cookie[name=sid, value=abc, domain=example.com, path=/, expires=1970-01-01T00:00:00Z, secure=true, "
        + "httpOnly=false, hostOnly=false]", d.toString());
  }
}
