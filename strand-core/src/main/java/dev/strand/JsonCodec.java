package dev.strand;

import java.lang.reflect.Type;

/**
 * How Strand turns objects into JSON and back ({@link RequestBody#jsonOf}, {@link Response#json},
 * {@link ServerSentEvent#json}). Core finds one by itself: a codec a module provides through
 * {@link java.util.ServiceLoader} ({@code strand-jackson} provides Jackson 3's), else Jackson 2 when
 * {@code com.fasterxml.jackson.core:jackson-databind} is on the class path. Neither is a dependency of
 * core. Implement it to use another library and register it as a service.
 *
 * {@snippet :
 * record Item(int id, String name) {}
 * Item item = client.get("http://127.0.0.1:8080/small").json(Item.class);
 * List<Item> items = client.get(url).json(new TypeRef<List<Item>>() {});
 * }
 */
public interface JsonCodec {
  /** {@code value} as JSON bytes (UTF-8). @throws IllegalArgumentException if it cannot be written */
  byte[] write(Object value);

  /**
   * {@code json} read as {@code type} (a {@link Class} or any generic {@link Type}).
   *
   * @throws IllegalArgumentException if it is not valid JSON for {@code type}
   */
  <T> T read(byte[] json, Type type);

  /** The codec Strand uses: see the class comment. @throws IllegalStateException if there is none */
  static JsonCodec get() {
    return dev.strand.internal.json.JsonCodecs.get();
  }
}
