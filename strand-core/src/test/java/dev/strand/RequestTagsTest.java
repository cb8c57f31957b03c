package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class RequestTagsTest {
  private static final Request PLAIN = Request.get("http://127.0.0.1/");

  @Test
  void aTagIsFoundByItsTypeAndAbsentOnesAreNull() {
    Request r = PLAIN.toBuilder().tag(String.class, "trace-1").build();

    assertEquals("trace-1", r.tag(String.class));
    assertNull(r.tag(Integer.class));
    assertNull(PLAIN.tag(String.class));
  }

  @Test
  void aSecondTypeAddsTheSameTypeReplacesAndNullRemoves() {
    Request both = PLAIN.toBuilder().tag(String.class, "a").tag(Integer.class, 1).tag(String.class, "b").build();
    assertEquals("b", both.tag(String.class));
    assertEquals(1, both.tag(Integer.class));

    Request one = both.toBuilder().tag(String.class, null).build();
    assertNull(one.tag(String.class));
    assertEquals(1, one.tag(Integer.class));

    Request none = one.toBuilder().tag(Integer.class, null).tag(Long.class, null).build();
    assertNull(none.tag(Integer.class));
  }

  @Test
  void aCopyKeepsTheTagsAndChangingItLeavesTheOriginalAlone() {
    Request original = PLAIN.toBuilder().tag(String.class, "a").build();
    Request.Builder copy = original.toBuilder();

    Request changed = copy.tag(String.class, "b").tag(Integer.class, 2).build();

    assertEquals("a", original.tag(String.class));
    assertNull(original.tag(Integer.class));
    assertEquals("b", changed.tag(String.class));
    assertEquals("a", original.toBuilder().build().tag(String.class));
  }

  @Test
  void tagsFromAnotherRequestAreMergedAndWinOverThisBuildersOwn() {
    Request other = PLAIN.toBuilder().tag(String.class, "theirs").tag(Integer.class, 7).build();

    Request merged = PLAIN.toBuilder().tag(String.class, "mine").tag(Long.class, 3L).tags(other).build();

    assertEquals("theirs", merged.tag(String.class));
    assertEquals(7, merged.tag(Integer.class));
    assertEquals(3L, merged.tag(Long.class));
    assertEquals("theirs", PLAIN.toBuilder().tags(other).build().tag(String.class));
  }
}
