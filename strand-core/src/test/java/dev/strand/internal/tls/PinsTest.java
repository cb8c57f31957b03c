package dev.strand.internal.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Host patterns and pin formats, as OkHttp's CertificatePinner and curl's --pinnedpubkey read them. */
class PinsTest {
  private static final String A = "sha256/" + "A".repeat(43) + "=";

  @ParameterizedTest(name = "{0} vs {1}: {2}")
  @CsvSource({
      "example.com,        example.com,       true",
      "example.com,        EXAMPLE.com.,      true",
      "example.com,        a.example.com,     false",
      "*.example.com,      a.example.com,     true",
      "*.example.com,      example.com,       false",
      "*.example.com,      a.b.example.com,   false",
      "**.example.com,     example.com,       true",
      "**.example.com,     a.b.example.com,   true",
      "**.example.com,     badexample.com,    false",
      "**,                 anything.test,     true",
      "127.0.0.1,          127.0.0.1,         true",
      "[::1],              ::1,               true",
  })
  void hostPatterns(String pattern, String host, boolean matches) {
    assertEquals(matches, Pins.matches(Pins.pattern(pattern), host));
  }

  @Test
  void curlsDoubleSlashIsTheSamePin() {
    assertEquals(A, Pins.canonical("sha256//" + A.substring(7)));
    assertEquals(A, Pins.canonical(A));
  }

  @Test
  void aHashWhoseBase64StartsWithASlashIsNotTakenForCurlsForm() {
    String slash = "sha256//" + "A".repeat(42) + "=";
    assertEquals(slash, Pins.canonical(slash));
    assertEquals(slash, Pins.canonical("sha256///" + "A".repeat(42) + "="));
  }

  @Test
  void badPinsAndPatternsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> Pins.canonical("sha1/" + A.substring(7)));
    assertThrows(IllegalArgumentException.class, () -> Pins.canonical("sha256/AAAA"));
    assertThrows(IllegalArgumentException.class, () -> Pins.canonical("sha256/!!!"));
    assertThrows(IllegalArgumentException.class, () -> Pins.pattern("a.*.example.com"));
    assertThrows(IllegalArgumentException.class, () -> Pins.pattern("*."));
  }

  @Test
  void pinsOfAllMatchingPatternsAddUp() {
    String b = "sha256/" + "B".repeat(43) + "=";
    Pins pins = new Pins(Map.of("**.example.com", List.of(A), "api.example.com", List.of(b)));
    assertEquals(Set.of(A, b), pins.forHost("api.example.com"));
    assertEquals(Set.of(A), pins.forHost("www.example.com"));
    assertEquals(Set.of(), pins.forHost("other.test"));
  }
}
