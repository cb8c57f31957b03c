package dev.strand.internal;

import dev.strand.ProtocolException;
import dev.strand.Request;

/**
 * JSON through Jackson, which is an optional dependency: this class only touches Jackson types
 * inside {@link JacksonHolder}, so the core loads and runs without it.
 */
public final class Json {
  private static final boolean AVAILABLE = isPresent("com.fasterxml.jackson.databind.ObjectMapper");

  private Json() {}

  public static <T> T read(byte[] body, Class<T> type, Request request) {
    requireJackson();
    try {
      return JacksonHolder.MAPPER.readValue(body, type);
    } catch (java.io.IOException e) {
      throw new ProtocolException("response body is not valid JSON for " + type.getName() + ": "
          + e.getMessage(), request, e);
    }
  }

  public static byte[] write(Object value) {
    requireJackson();
    try {
      return JacksonHolder.MAPPER.writeValueAsBytes(value);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("cannot serialize " + value.getClass().getName() + " to JSON: "
          + e.getMessage(), e);
    }
  }

  private static void requireJackson() {
    if (!AVAILABLE) {
      throw new IllegalStateException("JSON support needs Jackson: add com.fasterxml.jackson.core:jackson-databind "
          + "to the class path (it is an optional dependency of strand-core)");
    }
  }

  private static boolean isPresent(String className) {
    try {
      Class.forName(className, false, Json.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private static final class JacksonHolder {
    static final com.fasterxml.jackson.databind.ObjectMapper MAPPER = new com.fasterxml.jackson.databind.ObjectMapper();
  }
}
