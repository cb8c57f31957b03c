package dev.strand;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * An immutable, ordered list of header fields. Names compare case-insensitively and keep the case
 * they were given; a name may repeat.
 *
 * {@snippet :
 * Headers h = Headers.of("Accept", "application/json", "X-Trace", "abc");
 * String accept = h.first("accept"); // "application/json"
 * }
 */
public final class Headers implements Iterable<Map.Entry<String, String>> {
  /** No headers. */
  public static final Headers EMPTY = new Headers(new String[0], 0);

  // Alternating name, value: one small array, no per-field objects.
  private final String[] namesAndValues;
  private final int size;

  private Headers(String[] namesAndValues, int size) {
    this.namesAndValues = namesAndValues;
    this.size = size;
  }

  /** Headers from alternating names and values: {@code of("A", "1", "B", "2")}. */
  public static Headers of(String... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("expected alternating names and values, got an odd count");
    }
    Builder b = builder();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      b.add(namesAndValues[i], namesAndValues[i + 1]);
    }
    return b.build();
  }

  /** Headers from a map; each list value adds one field per element. */
  public static Headers of(Map<String, ? extends List<String>> map) {
    Builder b = builder();
    map.forEach((name, values) -> values.forEach(v -> b.add(name, v)));
    return b.build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these fields, to derive a changed copy. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.source = this;
    b.namesAndValues = namesAndValues;
    b.size = size;
    return b;
  }

  /** Number of fields (a repeated name counts once per field). */
  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** Name of the field at {@code index}, as given. */
  public String name(int index) {
    Objects.checkIndex(index, size);
    return namesAndValues[index * 2];
  }

  /** Value of the field at {@code index}. */
  public String value(int index) {
    Objects.checkIndex(index, size);
    return namesAndValues[index * 2 + 1];
  }

  /** The first value of {@code name}, or {@code null}. */
  public String first(String name) {
    for (int i = 0; i < size; i++) {
      if (namesAndValues[i * 2].equalsIgnoreCase(name)) {
        return namesAndValues[i * 2 + 1];
      }
    }
    return null;
  }

  /** The last value of {@code name}, or {@code null}. */
  public String last(String name) {
    for (int i = size - 1; i >= 0; i--) {
      if (namesAndValues[i * 2].equalsIgnoreCase(name)) {
        return namesAndValues[i * 2 + 1];
      }
    }
    return null;
  }

  /** Every value of {@code name}, in order; empty if absent. */
  public List<String> all(String name) {
    List<String> out = null;
    for (int i = 0; i < size; i++) {
      if (namesAndValues[i * 2].equalsIgnoreCase(name)) {
        if (out == null) {
          out = new ArrayList<>(2);
        }
        out.add(namesAndValues[i * 2 + 1]);
      }
    }
    return out == null ? List.of() : Collections.unmodifiableList(out);
  }

  public boolean contains(String name) {
    return first(name) != null;
  }

  /** Calls {@code action} with each name and value, in order. */
  public void forEach(BiConsumer<String, String> action) {
    for (int i = 0; i < size; i++) {
      action.accept(namesAndValues[i * 2], namesAndValues[i * 2 + 1]);
    }
  }

  /** The fields grouped by name (case as first seen), in order of first appearance. */
  public Map<String, List<String>> toMap() {
    Map<String, List<String>> map = new LinkedHashMap<>();
    Map<String, String> canonical = new LinkedHashMap<>();
    for (int i = 0; i < size; i++) {
      String name = namesAndValues[i * 2];
      String key = canonical.computeIfAbsent(name.toLowerCase(java.util.Locale.ROOT), k -> name);
      map.computeIfAbsent(key, k -> new ArrayList<>(1)).add(namesAndValues[i * 2 + 1]);
    }
    return map;
  }

  @Override
  public Iterator<Map.Entry<String, String>> iterator() {
    return new Iterator<>() {
      int next;

      @Override
      public boolean hasNext() {
        return next < size;
      }

      @Override
      public Map.Entry<String, String> next() {
        if (next >= size) {
          throw new NoSuchElementException();
        }
        int i = next++;
        return Map.entry(namesAndValues[i * 2], namesAndValues[i * 2 + 1]);
      }
    };
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Headers other) || other.size != size) {
      return false;
    }
    for (int i = 0; i < size * 2; i++) {
      if (!namesAndValues[i].equals(other.namesAndValues[i])) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = 1;
    for (int i = 0; i < size * 2; i++) {
      h = 31 * h + namesAndValues[i].hashCode();
    }
    return h;
  }

  /** One {@code Name: value} per line, with the values of credential fields (Authorization, Proxy-Authorization, Cookie, Set-Cookie) shown as {@code <redacted>}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    forEach((n, v) -> sb.append(n).append(": ").append(isSecret(n) ? "<redacted>" : v).append('\n'));
    return sb.toString();
  }

  /** Fields whose values are credentials: {@link #toString} never shows them (as OkHttp's does not). */
  private static boolean isSecret(String name) {
    return name.equalsIgnoreCase("Authorization") || name.equalsIgnoreCase("Proxy-Authorization")
        || name.equalsIgnoreCase("Cookie") || name.equalsIgnoreCase("Set-Cookie");
  }

  /** Collects fields, checking each name and value as it is added. */
  public static final class Builder {
    private String[] namesAndValues = new String[16];
    private int size;
    /**
     * The headers sharing this builder's array, until its first change: those it was derived from, or
     * those it built last. {@link #build()} returns them as they are; a change copies the array first.
     * Most requests Strand derives (with a tag, for a retry or a redirect hop) keep their fields, and most
     * builders are dropped once built, so this saves a copy at each step.
     */
    private Headers source;

    private Builder() {}

    /** Takes a copy of the shared fields before the first change. */
    private void own() {
      if (source != null) {
        namesAndValues = Arrays.copyOf(namesAndValues, Math.max(8, size * 2 + 2));
        source = null;
      }
    }

    /**
     * Appends a field.
     *
     * @throws IllegalArgumentException if the name is not an HTTP token or the value holds CR, LF or NUL
     */
    public Builder add(String name, String value) {
      checkName(name);
      checkValue(name, value);
      own();
      if (size * 2 == namesAndValues.length) {
        namesAndValues = Arrays.copyOf(namesAndValues, namesAndValues.length * 2);
      }
      namesAndValues[size * 2] = name;
      namesAndValues[size * 2 + 1] = value;
      size++;
      return this;
    }

    /** Replaces every field named {@code name} with one field. */
    public Builder set(String name, String value) {
      remove(name);
      return add(name, value);
    }

    /**
     * Adds every field of {@code headers}. A builder with no fields yet shares theirs until its first change, as
     * {@link Headers#toBuilder()} does; {@code headers} never changes.
     */
    public Builder addAll(Headers headers) {
      if (size == 0 && !headers.isEmpty()) { // nothing of its own yet: share theirs, as toBuilder does
        namesAndValues = headers.namesAndValues;
        size = headers.size;
        source = headers;
        return this;
      }
      headers.forEach(this::add);
      return this;
    }

    /** Removes every field named {@code name}. */
    public Builder remove(String name) {
      own();
      int w = 0;
      for (int r = 0; r < size; r++) {
        if (!namesAndValues[r * 2].equalsIgnoreCase(name)) {
          namesAndValues[w * 2] = namesAndValues[r * 2];
          namesAndValues[w * 2 + 1] = namesAndValues[r * 2 + 1];
          w++;
        }
      }
      Arrays.fill(namesAndValues, w * 2, size * 2, null);
      size = w;
      return this;
    }

    public boolean contains(String name) {
      for (int i = 0; i < size; i++) {
        if (namesAndValues[i * 2].equalsIgnoreCase(name)) {
          return true;
        }
      }
      return false;
    }

    /** The fields so far. The result shares this builder's array, which a later change copies first. */
    public Headers build() {
      if (source != null) {
        return source;
      }
      if (size == 0) {
        return EMPTY;
      }
      source = new Headers(namesAndValues, size);
      return source;
    }
  }

  static void checkName(String name) {
    Objects.requireNonNull(name, "header name");
    if (!Tokens.isToken(name)) {
      throw new IllegalArgumentException("header name is not a valid HTTP token: \"" + Tokens.printable(name) + "\"");
    }
  }

  static void checkValue(String name, String value) {
    Objects.requireNonNull(value, () -> "value of header " + name);
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\r' || c == '\n' || c == 0 || c > 0xff) {
        throw new IllegalArgumentException(
            "header " + name + " has a forbidden character (CR, LF, NUL or non-Latin-1) at index " + i);
      }
    }
  }
}
