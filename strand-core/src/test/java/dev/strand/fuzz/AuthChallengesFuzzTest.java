package dev.strand.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strand.internal.auth.AuthFuzzEntryPoints;
import java.util.List;

/** WWW-Authenticate and Proxy-Authenticate values (one per line): parsed, and Digest answers its strongest. */
class AuthChallengesFuzzTest {
  @FuzzTest
  void wwwAuthenticate(byte[] fields) {
    List<String> values = Fuzzing.latin1(fields).lines().toList();
    AuthFuzzEntryPoints.challenges(values);
    AuthFuzzEntryPoints.digestAnswer(values, "GET", "/a?b=c");
  }
}
