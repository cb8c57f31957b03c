package dev.strand.flink.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link UrlTemplate}: parsing, its errors, and filling in percent-encoded values. */
class UrlTemplateTest {

    @Test
    void fillsEachPlaceholderWithItsEncodedValue() {
        UrlTemplate t = UrlTemplate.parse("http://h:8080/users/{id}/orders?lang={ lang }&id={id}");

        assertEquals(List.of("id", "lang"), List.copyOf(t.columns()));
        Map<String, String> values = Map.of("id", "a b/c", "lang", "de&x=ü");
        assertEquals("http://h:8080/users/a%20b%2Fc/orders?lang=de%26x%3D%C3%BC&id=a%20b%2Fc",
                t.expand(values::get));
    }

    @Test
    void aTemplateWithoutPlaceholdersIsItsText() {
        UrlTemplate t = UrlTemplate.parse("https://h/ingest");
        assertEquals(List.of(), List.copyOf(t.columns()));
        assertEquals("https://h/ingest", t.expand(name -> {
            throw new AssertionError(name);
        }));
    }

    @Test
    void malformedTemplatesAreRejectedSayingWhy() {
        assertEquals("the placeholder at index 15 is not closed by '}'", message("http://h/users/{id"));
        assertEquals("'}' at index 17 closes no placeholder", message("http://h/users/id}"));
        assertEquals("the placeholder at index 15 needs one column name: \"{}\"", message("http://h/users/{}"));
        assertEquals("the placeholder at index 9 needs one column name: \"{a{b}\"", message("http://h/{a{b}"));
        assertEquals("not an absolute http(s) URL", message("/users/{id}"));
        assertEquals("not an absolute http(s) URL", message("ftp://h/{id}"));
        assertEquals("not a URL: Illegal character in path at index 10: http://h/a b/x", message("http://h/a b/{id}"));
    }

    private static String message(String template) {
        return assertThrows(IllegalArgumentException.class, () -> UrlTemplate.parse(template)).getMessage();
    }
}
