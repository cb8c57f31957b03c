package dev.strand.jackson;

import dev.strand.JsonCodec;
import java.lang.reflect.Type;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Strand's {@link JsonCodec} on Jackson 3 ({@code tools.jackson}). Having this module on the class or module
 * path is all it takes: core finds it through {@link java.util.ServiceLoader} and prefers it to Jackson 2.
 * Use {@link #of(JsonMapper)} to register your own configured mapper as a service instead.
 */
public final class Jackson3Codec implements JsonCodec {
  private final JsonMapper mapper;

  /**
   * With a default {@link JsonMapper} that ignores properties a class does not have (an API adding a
   * field must not break its clients): the service core loads.
   */
  public Jackson3Codec() {
    this(JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build());
  }

  private Jackson3Codec(JsonMapper mapper) {
    this.mapper = mapper;
  }

  /** A codec on {@code mapper}, for a provider of your own. */
  public static Jackson3Codec of(JsonMapper mapper) {
    return new Jackson3Codec(mapper);
  }

  @Override
  public byte[] write(Object value) {
    try {
      return mapper.writeValueAsBytes(value);
    } catch (JacksonException e) {
      throw new IllegalArgumentException("cannot write " + value.getClass().getName() + " as JSON: "
          + e.getOriginalMessage(), e);
    }
  }

  @Override
  public <T> T read(byte[] json, Type type) {
    try {
      return mapper.readValue(json, mapper.getTypeFactory().constructType(type));
    } catch (JacksonException e) {
      throw new IllegalArgumentException("not valid JSON for " + type.getTypeName() + ": " + e.getOriginalMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "Jackson 3 (" + tools.jackson.databind.cfg.PackageVersion.VERSION + ")";
  }
}
