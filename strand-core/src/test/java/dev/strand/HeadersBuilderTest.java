package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A builder derived from headers shares their fields until its first change, and never changes them. */
class HeadersBuilderTest {
  private final Headers original = Headers.of("Accept", "text/plain", "X-Trace", "a", "X-Trace", "b");

  @Test
  void anUnchangedCopyIsTheSameHeaders() {
    assertSame(original, original.toBuilder().build());
  }

  @Test
  void addingToACopyLeavesTheOriginalAlone() {
    Headers.Builder b = original.toBuilder();
    Headers changed = b.add("X-Extra", "1").build();
    assertEquals(4, changed.size());
    assertEquals("1", changed.first("X-Extra"));
    assertEquals(3, original.size());
    assertEquals(null, original.first("X-Extra"));
    // Two copies from one original, changed differently, do not see each other.
    Headers other = original.toBuilder().add("X-Other", "2").build();
    assertEquals(null, other.first("X-Extra"));
    assertEquals(null, changed.first("X-Other"));
  }

  @Test
  void removingFromACopyLeavesTheOriginalAlone() {
    Headers removed = original.toBuilder().remove("X-Trace").build();
    assertEquals(List.of(), removed.all("X-Trace"));
    assertEquals(List.of("a", "b"), original.all("X-Trace"));
    Headers set = original.toBuilder().set("Accept", "*/*").build();
    assertEquals("*/*", set.first("Accept"));
    assertEquals("text/plain", original.first("Accept"));
  }

  @Test
  void allAddedToAnEmptyBuilderAreSharedUntilItChanges() {
    Headers.Builder b = Headers.builder().addAll(original);
    assertSame(original, b.build());
    Headers changed = b.add("X-Extra", "1").set("Accept", "*/*").build();
    assertEquals(List.of("X-Trace", "a", "X-Trace", "b", "X-Extra", "1", "Accept", "*/*"), flat(changed));
    assertEquals(List.of("Accept", "text/plain", "X-Trace", "a", "X-Trace", "b"), flat(original));
    // Added to a builder with fields of its own, they are appended.
    Headers appended = Headers.builder().add("Host", "h").addAll(original).build();
    assertEquals(List.of("Host", "h", "Accept", "text/plain", "X-Trace", "a", "X-Trace", "b"), flat(appended));
  }

  private static List<String> flat(Headers h) {
    List<String> out = new java.util.ArrayList<>();
    h.forEach((n, v) -> {
      out.add(n);
      out.add(v);
    });
    return out;
  }
}
