package dev.strand.internal.json;

import dev.strand.JsonCodec;
import java.io.IOException;
import java.lang.reflect.Type;

/**
 * Jackson 2, an optional dependency of core: this class is loaded only once {@link JsonCodecs} has seen
 * {@code ObjectMapper} on the class path, so core runs without it.
 */
final class Jackson2Codec implements JsonCodec {
  /** Properties a class does not have are ignored: an API adding a field must not break its clients. */
  private final com.fasterxml.jackson.databind.ObjectMapper mapper = new com.fasterxml.jackson.databind.ObjectMapper()
      .disable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  @Override
  public byte[] write(Object value) {
    try {
      return mapper.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot write " + value.getClass().getName() + " as JSON: " + e.getMessage(), e);
    }
  }

  @Override
  public <T> T read(byte[] json, Type type) {
    try {
      return mapper.readValue(json, mapper.getTypeFactory().constructType(type));
    } catch (IOException e) {
      throw new IllegalArgumentException("not valid JSON for " + type.getTypeName() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "Jackson 2 (" + com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION + ")";
  }
}
