package dev.strand.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The testkit's {@code /echo} answer: method, path, query, headers (name to list), body, bodyLength. */
record Echo(JsonNode json) {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  static Echo parse(String text) {
    try {
      return new Echo(MAPPER.readTree(text));
    } catch (IOException e) {
      throw new UncheckedIOException("not /echo JSON: " + text, e);
    }
  }

  String method() {
    return json.path("method").asText();
  }

  String query() {
    return json.path("query").asText();
  }

  String body() {
    return json.path("body").asText();
  }

  /** First value of a request header, matched case-insensitively; null if absent. */
  String header(String name) {
    var fields = json.path("headers").properties();
    for (var e : fields) {
      if (e.getKey().equalsIgnoreCase(name)) {
        JsonNode v = e.getValue();
        return v.isArray() ? v.get(0).asText() : v.asText();
      }
    }
    return null;
  }
}
