package dev.strand.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.InvalidUrlException;
import java.net.URI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Base URL merging follows httpx: the base path is a directory whatever its trailing slash. */
class UrlsTest {
  @ParameterizedTest(name = "{0} + {1} = {2}")
  @CsvSource({
      "http://h/api/,    users,         http://h/api/users",
      "http://h/api/,    /users,        http://h/api/users",
      "http://h/api,     /users,        http://h/api/users",
      "http://h/api,     users,         http://h/api/users",
      "http://h,         /users,        http://h/users",
      "http://h/,        users,         http://h/users",
      "http://h:8080/a/b, c/d?x=1&y=2,  http://h:8080/a/b/c/d?x=1&y=2",
      "https://h/api?k=v, /users,       https://h/api/users",
      "http://h/api,     '',            http://h/api/",
      "http://h/api,     ?page=2,       http://h/api/?page=2",
      "http://h/api,     //other/x,     http://other/x",
      "http://h/api,     /a%20b,        http://h/api/a%20b",
  })
  void merges(String base, String relative, String expected) {
    assertEquals(expected, Urls.resolve(URI.create(base), URI.create(relative)).toString());
  }

  @ParameterizedTest
  @CsvSource({"/users", "users", "?q=1"})
  void relativeWithoutBaseNamesTheUrl(String relative) {
    InvalidUrlException e = assertThrows(InvalidUrlException.class, () -> Urls.resolve(null, URI.create(relative)));
    assertEquals(relative, e.url());
    assertTrue(e.getMessage().contains(relative), e.getMessage());
  }
}
