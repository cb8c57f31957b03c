package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JsonPrinterTest {
  @Test
  void indentsTwoSpacesAndKeepsTokensExactly() {
    String in = "{\"id\":42,\"x\":-1.50e+3,\"s\":\"a\\\"b\\u00e9\",\"t\":[true,false,null],\"e\":{},\"a\":[]}";
    String expected = """
        {
          "id": 42,
          "x": -1.50e+3,
          "s": "a\\"b\\u00e9",
          "t": [
            true,
            false,
            null
          ],
          "e": {},
          "a": []
        }
        """;
    assertEquals(expected, JsonPrinter.format(in, false));
  }

  @Test
  void coloursKeysStringsNumbersAndLiterals() {
    String out = JsonPrinter.format("{\"k\": \"v\", \"n\": 1, \"b\": true}", true);
    assertTrue(out.contains(JsonPrinter.KEY + "\"k\"" + JsonPrinter.RESET), out);
    assertTrue(out.contains(JsonPrinter.STRING + "\"v\"" + JsonPrinter.RESET), out);
    assertTrue(out.contains(JsonPrinter.NUMBER + "1" + JsonPrinter.RESET), out);
    assertTrue(out.contains(JsonPrinter.LITERAL + "true" + JsonPrinter.RESET), out);
  }

  @Test
  void invalidJsonIsRefusedSoTheBodyIsPrintedAsIs() {
    for (String bad : new String[] {"", "{", "{\"a\" 1}", "[1,]", "01", "1.", "tru", "\"\u0001\"", "{} x", "[1 2]",
        "{1: 2}", "\"\\x\"", "-"}) {
      assertNull(JsonPrinter.format(bad, false), bad);
    }
    assertNull(JsonPrinter.format("[".repeat(10_000), false), "deep nesting is refused, not a stack overflow");
  }

  @Test
  void scalarsAndWhitespaceAroundAreFine() {
    assertEquals("\"hi\"\n", JsonPrinter.format("  \"hi\"\r\n", false));
    assertEquals("0\n", JsonPrinter.format("0", false));
  }

  @Test
  void recognisesJsonContentTypes() {
    assertTrue(JsonPrinter.isJson("application/json"));
    assertTrue(JsonPrinter.isJson("Application/JSON; charset=utf-8"));
    assertTrue(JsonPrinter.isJson("application/problem+json"));
    assertFalse(JsonPrinter.isJson("text/plain"));
    assertFalse(JsonPrinter.isJson(null));
  }
}
