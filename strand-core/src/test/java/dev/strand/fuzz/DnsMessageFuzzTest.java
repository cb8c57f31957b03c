package dev.strand.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strand.internal.dns.DnsMessage;
import java.net.UnknownHostException;

/**
 * DNS answers (as DNS over HTTPS delivers them, name compression included): addresses with a TTL, or an
 * UnknownHostException (the resolver's contract, which the client turns into ConnectException).
 */
class DnsMessageFuzzTest {
  @FuzzTest
  void answer(byte[] message) {
    try {
      DnsMessage.Answer a = DnsMessage.parse(message);
      if (a.ttlSeconds() < 0) {
        throw new AssertionError("negative TTL " + a.ttlSeconds());
      }
    } catch (UnknownHostException expected) {
      // a malformed or failed answer
    }
  }
}
