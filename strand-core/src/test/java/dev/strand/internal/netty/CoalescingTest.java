package dev.strand.internal.netty;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Host names against certificate names, as RFC 6125 matches them. */
class CoalescingTest {
  @Test
  void exactNamesMatchWithoutCase() {
    assertTrue(Coalescing.matches("API.example.com", "api.example.com"));
    assertFalse(Coalescing.matches("api.example.com", "www.example.com"));
  }

  @Test
  void aWildcardIsOneWholeLeftMostLabel() {
    assertTrue(Coalescing.matches("*.example.com", "a.example.com"));
    assertFalse(Coalescing.matches("*.example.com", "example.com"));
    assertFalse(Coalescing.matches("*.example.com", "a.b.example.com"));
    assertFalse(Coalescing.matches("*.com", "example.com"), "a wildcard over a top-level domain alone");
  }
}
