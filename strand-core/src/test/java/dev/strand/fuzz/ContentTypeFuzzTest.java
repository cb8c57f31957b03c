package dev.strand.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strand.Multipart;
import dev.strand.Response;
import dev.strand.internal.text.TextDecoding;
import dev.strand.internal.text.TextFuzzEntryPoints;
import java.nio.charset.StandardCharsets;

/**
 * Content-Type values as the body decoders read them (charset, BOM sniffing, JSON) and multipart boundaries as
 * the builder accepts them: a boundary it accepts is the one the Content-Type announces.
 */
class ContentTypeFuzzTest {
  private static final byte[] BODY = "\u00efhello".getBytes(StandardCharsets.UTF_8);

  @FuzzTest
  void contentType(byte[] value) {
    String contentType = Fuzzing.latin1(value);
    TextDecoding.choose(BODY, contentType, StandardCharsets.UTF_8);
    TextDecoding.choose(value, contentType, StandardCharsets.ISO_8859_1);
    TextFuzzEntryPoints.parameter(contentType, "charset");
    Response r;
    try {
      r = Response.builder(200).header("Content-Type", contentType).body(value).build();
    } catch (IllegalArgumentException notAField) {
      return;
    }
    r.charset();
    r.text();
  }

  @FuzzTest
  void multipartBoundary(byte[] value) {
    String boundary = Fuzzing.latin1(value);
    Multipart.Builder b = Multipart.builder();
    try {
      b.boundary(boundary);
    } catch (IllegalArgumentException refused) {
      return;
    }
    String announced = TextFuzzEntryPoints.parameter(b.field("a", "b").build().contentType(), "boundary");
    if (!boundary.equals(announced)) {
      throw new AssertionError("boundary " + boundary + " announced as " + announced);
    }
  }
}
