package dev.strand.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Auth;
import dev.strand.Client;
import dev.strand.Response;
import dev.strand.testkit.HostilePeer;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.PeerConnection;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;
import javax.security.auth.Subject;
import org.ietf.jgss.GSSContext;
import org.ietf.jgss.GSSCredential;
import org.ietf.jgss.GSSManager;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link Auth#negotiate(Subject)} against an origin that asks for Negotiate: a scripted server that
 * accepts the token with the JDK's GSS-API and the service keytab of bin/test's KDC, and answers with the
 * client's name, so the token is checked by Kerberos itself.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
@Tag("peer")
class NegotiateOriginPeersTest {
  @Test
  void a401OfferingNegotiateIsAnsweredWithAKerberosToken() throws Exception {
    Kerberos.useTestRealm();
    Subject service = Kerberos.service(Peers.env("STRAND_KRB5_HTTP_PRINCIPAL"), Peers.env("STRAND_KRB5_HTTP_KEYTAB"));
    Subject alice = Kerberos.login(Peers.env("STRAND_KRB5_PRINCIPAL"), Peers.env("STRAND_KRB5_PASSWORD"));
    AtomicInteger challenged = new AtomicInteger();
    try (HostilePeer origin = new HostilePeer(c -> serve(c, service, challenged));
        Client client = Client.builder().auth(Auth.negotiate(alice)).build()) {
      Response r = client.get("http://localhost:" + origin.port() + "/private");
      assertEquals(200, r.status(), r.text());
      assertEquals(Peers.env("STRAND_KRB5_PRINCIPAL"), r.text());
      assertEquals(1, challenged.get());
    }
    // Without credentials the 401 is the answer, not an exception.
    try (HostilePeer origin = new HostilePeer(c -> serve(c, service, challenged));
        Client client = Client.builder().auth(Auth.negotiate(new Subject())).build()) {
      Response r = client.get("http://localhost:" + origin.port() + "/private");
      assertEquals(401, r.status());
      assertTrue(r.headers().first("WWW-Authenticate").startsWith("Negotiate"));
    }
  }

  private static void serve(PeerConnection c, Subject service, AtomicInteger challenged) throws Exception {
    String head;
    while ((head = c.readHead()) != null) {
      String auth = PeerConnection.header(head, "Authorization");
      if (auth == null || !auth.startsWith("Negotiate ")) {
        challenged.incrementAndGet();
        c.write("HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Negotiate\r\nContent-Length: 0\r\n\r\n");
        continue;
      }
      byte[] token = Base64.getDecoder().decode(auth.substring("Negotiate ".length()).strip());
      String name = Subject.callAs(service, () -> {
        GSSContext ctx = GSSManager.getInstance().createContext((GSSCredential) null);
        ctx.acceptSecContext(token, 0, token.length);
        String src = ctx.getSrcName().toString();
        ctx.dispose();
        return src;
      });
      c.write("HTTP/1.1 200 OK\r\nContent-Length: " + name.length() + "\r\n\r\n" + name);
    }
  }
}
