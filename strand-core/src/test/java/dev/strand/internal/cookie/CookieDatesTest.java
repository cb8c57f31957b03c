package dev.strand.internal.cookie;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The cookie-date algorithm of RFC 6265 5.1.1 accepts the formats servers actually send. */
class CookieDatesTest {
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "Sun, 06 Nov 1994 08:49:37 GMT  | 1994-11-06T08:49:37Z",
      "Sunday, 06-Nov-94 08:49:37 GMT | 1994-11-06T08:49:37Z",
      "Sun Nov  6 08:49:37 1994       | 1994-11-06T08:49:37Z",
      "Thu, 01-Jan-2037 1:2:3 GMT     | 2037-01-01T01:02:03Z",
      "01 jan 69 00:00:00             | 2069-01-01T00:00:00Z",
      "Wed, 31 Dec 1969 23:59:59 UTC  | 1969-12-31T23:59:59Z",
  })
  void parses(String text, String expected) {
    assertEquals(Instant.parse(expected).toEpochMilli(), CookieDates.parse(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "tomorrow", "Sun, 06 Nov 1994", "31 Feb 2020 00:00:00", "06 Nov 1600 00:00:00",
      "06 Nov 1994 24:00:00", "32 Nov 1994 00:00:00"})
  void rejects(String text) {
    assertEquals(Long.MIN_VALUE, CookieDates.parse(text));
  }
}
