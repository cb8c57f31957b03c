package dev.strand;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The one rule every replay follows: RFC 9110's idempotent methods, or an Idempotency-Key. */
class RequestIdempotencyTest {

  @ParameterizedTest
  @ValueSource(strings = {"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE", "QUERY"})
  void rfc9110sIdempotentMethodsAre(String method) {
    assertTrue(Request.builder(method, "http://h/").build().isIdempotent());
  }

  @ParameterizedTest
  @ValueSource(strings = {"POST", "PATCH", "CONNECT", "get", "PROPFIND"})
  void otherMethodsAreNotAsTheyStand(String method) {
    assertFalse(Request.builder(method, "http://h/").build().isIdempotent(), "methods are case-sensitive");
  }

  @ParameterizedTest
  @ValueSource(strings = {"POST", "PATCH"})
  void anIdempotencyKeyMakesAWriteIdempotent(String method) {
    assertTrue(Request.builder(method, "http://h/").header("idempotency-key", "\"k-1\"").build().isIdempotent());
  }
}
