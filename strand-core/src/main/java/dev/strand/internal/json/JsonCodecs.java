package dev.strand.internal.json;

import dev.strand.JsonCodec;
import dev.strand.ProtocolException;
import dev.strand.Request;
import java.lang.reflect.Type;
import java.util.ServiceLoader;

/** Finds the {@link JsonCodec} once: a service first (strand-jackson's Jackson 3), else Jackson 2 if present. */
public final class JsonCodecs {
  private JsonCodecs() {}

  private static final class Holder {
    static final JsonCodec CODEC = find();
  }

  public static JsonCodec get() {
    JsonCodec codec = Holder.CODEC;
    if (codec == null) {
      throw new IllegalStateException("JSON mapping needs a codec: add dev.strand:strand-jackson (Jackson 3), or "
          + "com.fasterxml.jackson.core:jackson-databind (Jackson 2), to the class path");
    }
    return codec;
  }

  /** {@code body} read as {@code type}; invalid JSON is the server's fault, a {@link ProtocolException}. */
  public static <T> T read(byte[] body, Type type, Request request) {
    try {
      return get().read(body, type);
    } catch (IllegalArgumentException e) {
      throw new ProtocolException("response body is " + e.getMessage() + " (" + request + ")", request, e);
    }
  }

  private static JsonCodec find() {
    for (JsonCodec c : ServiceLoader.load(JsonCodec.class, JsonCodecs.class.getClassLoader())) {
      return c;
    }
    try {
      Class.forName("com.fasterxml.jackson.databind.ObjectMapper", false, JsonCodecs.class.getClassLoader());
      return new Jackson2Codec();
    } catch (ClassNotFoundException | LinkageError absent) {
      return null;
    }
  }
}
