package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.internal.dns.DnsMessage;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The DNS wire format of DNS over HTTPS: a query as RFC 8484 gives it, answers parsed, malformed ones refused by name. */
class DnsMessageTest {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void aQueryIsRfc8484sExample() throws Exception {
    // RFC 8484 §4.1.1: "www.example.com", type A, ID 0, RD set.
    assertEquals("00000100000100000000000003777777076578616d706c6503636f6d0000010001",
        HEX.formatHex(DnsMessage.query("www.example.com", DnsMessage.TYPE_A)));
  }

  @Test
  void answersWithCompressedNamesAndCnamesGiveTheirAddressesAndSmallestTtl() throws Exception {
    // www.example.com CNAME web.example.com (ttl 600); web.example.com A 192.0.2.7 (ttl 300), A 192.0.2.8 (ttl 120).
    String header = "0000" + "8180" + "0001" + "0003" + "0000" + "0000";
    String question = "03777777076578616d706c6503636f6d00" + "0001" + "0001";
    String cname = "c00c" + "0005" + "0001" + "00000258" + "0006" + "03776562c010";
    String a1 = "c02d" + "0001" + "0001" + "0000012c" + "0004" + "c0000207";
    String a2 = "c02d" + "0001" + "0001" + "00000078" + "0004" + "c0000208";
    DnsMessage.Answer answer = DnsMessage.parse(HEX.parseHex(header + question + cname + a1 + a2));
    assertEquals(List.of(InetAddress.getByName("192.0.2.7"), InetAddress.getByName("192.0.2.8")), answer.addresses());
    assertEquals(120, answer.ttlSeconds());
  }

  @Test
  void malformedAnswersAreRefusedNamingTheFault() {
    String ok = "0000818000010000000000000377777700" + "0001" + "0001";
    assertMalformed("it ends at byte 5", "0000818000");
    assertMalformed("its ID is 4660", "1234" + ok.substring(4));
    assertMalformed("it is a query", "00000100" + ok.substring(8));
    assertMalformed("truncated (TC set)", "00008380" + ok.substring(8));
    assertMalformed("compression pointers loop", "000081800001000000000000" + "c00c" + "00010001");
    assertMalformed("an A record of 3 bytes",
        "0000818000000001000000000377777700" + "0001" + "0001" + "00000010" + "0003" + "010203");
    assertMalformed("a label of unknown type", "000081800001000000000000" + "80" + "00010001");
  }

  @Test
  void anInvalidNameIsNotQueried() {
    UnknownHostException e = assertThrows(UnknownHostException.class,
        () -> DnsMessage.query("a..b", DnsMessage.TYPE_A));
    assertTrue(e.getMessage().contains("not a valid DNS name"), e.getMessage());
  }

  private static void assertMalformed(String expected, String hex) {
    UnknownHostException e = assertThrows(UnknownHostException.class, () -> DnsMessage.parse(HEX.parseHex(hex)));
    assertTrue(e.getMessage().startsWith("malformed DNS answer: ") && e.getMessage().contains(expected),
        "expected \"" + expected + "\" in: " + e.getMessage());
  }
}
