package dev.strand.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** requireClientAuth: no certificate, no handshake. */
@ExtendWith(NettyLeakDetectorExtension.class)
@Timeout(120)
class MutualTlsTest {

    private static HttpResponse<byte[]> get(HttpClient client, TestServer server) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(server.url("/small"))).build(),
                BodyHandlers.ofByteArray());
    }

    @Test
    void rejectsAClientWithoutACertificateAndAcceptsOneWith() throws Exception {
        for (boolean http2 : new boolean[] {false, true}) {
            try (TestServer server = Pki.tlsServer().requireClientAuth(Pki.get().clientCa().cert()).http2(http2)
                    .build()) {
                try (HttpClient anonymous = Pki.client(HttpClient.Version.HTTP_2, Pki.clientContext(false))) {
                    assertThrows(IOException.class, () -> get(anonymous, server));
                }
                assertEquals(0, server.tlsHandshakes(), "a failed handshake does not count");
                try (HttpClient withCert = Pki.client(HttpClient.Version.HTTP_2, Pki.clientContext(true))) {
                    HttpResponse<byte[]> r = get(withCert, server);
                    assertEquals(http2 ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1, r.version());
                    assertArrayEquals(Payloads.SMALL, r.body());
                }
                assertEquals(1, server.tlsHandshakes());
            }
        }
    }
}
