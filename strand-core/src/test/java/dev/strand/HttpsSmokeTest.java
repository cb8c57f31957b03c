package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(NettyLeakDetectorExtension.class)
class HttpsSmokeTest {
  @Test
  void smoke() {
    var pki = SharedTestPki.get();
    try (TestServer server = TestServer.builder().tls(pki.server().cert(), pki.server().key()).http2(true).build();
        Client h1 = Client.builder().tls(SharedTestPki.trustTestCa(Tls.Engine.AUTO)).build();
        Client h2 = Client.builder().tls(SharedTestPki.trustTestCa(Tls.Engine.AUTO)).version(Version.HTTP_2).build()) {
      Response r = h1.get(server.url("/small"));
      System.out.println(r + " " + h1.stats());
      assertEquals(Version.HTTP_1_1, r.version());
      Response r2 = h2.get(server.url("/small"));
      System.out.println(r2 + " " + h2.stats());
      assertEquals(Version.HTTP_2, r2.version());
      assertEquals(new String(Payloads.SMALL), r2.text());
      Response t = h2.get(server.url("/trailers"));
      System.out.println(t + " trailers " + t.trailers());
    }
  }
}
