package dev.strand.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strand.internal.auth.Netrc;

/** {@code .netrc} files: any text parses to entries, and looking a host up in them never fails. */
class NetrcFileFuzzTest {
  @FuzzTest
  void parse(byte[] file) {
    Netrc netrc = Netrc.parse(Fuzzing.utf8(file));
    for (Netrc.Entry e : netrc.entries()) {
      if (e.machine() != null) {
        netrc.find(e.machine());
      }
    }
  }
}
