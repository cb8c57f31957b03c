package dev.strand;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;

/**
 * A generic type captured by subclassing, to read JSON into it: {@code new TypeRef<List<Item>>() {}}.
 *
 * @param <T> the type captured
 */
public abstract class TypeRef<T> {
  private final Type type;

  protected TypeRef() {
    Type superclass = getClass().getGenericSuperclass();
    if (!(superclass instanceof ParameterizedType p)) {
      throw new IllegalStateException("create a TypeRef as an anonymous subclass with its type argument: "
          + "new TypeRef<List<Item>>() {}");
    }
    this.type = p.getActualTypeArguments()[0];
  }

  /** The captured type. */
  public Type type() {
    return type;
  }

  @Override
  public String toString() {
    return "TypeRef<" + type.getTypeName() + ">";
  }
}
