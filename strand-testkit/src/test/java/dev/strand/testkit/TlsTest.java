package dev.strand.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** HTTPS/1.1, and h2 negotiated by ALPN, through the JDK client. */
@ExtendWith(NettyLeakDetectorExtension.class)
@Timeout(120)
class TlsTest {

    private static TestServer https;
    private static TestServer h2;
    private static HttpClient client11;
    private static HttpClient client2;

    @BeforeAll
    static void start() {
        https = Pki.tlsServer().build();
        h2 = Pki.tlsServer().http2(true).build();
        client11 = Pki.client(HttpClient.Version.HTTP_1_1);
        client2 = Pki.client(HttpClient.Version.HTTP_2);
    }

    @AfterAll
    static void stop() {
        client11.close();
        client2.close();
        https.close();
        h2.close();
    }

    private static HttpResponse<byte[]> get(HttpClient client, TestServer server, String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(server.url(path))).build(), BodyHandlers.ofByteArray());
    }

    @Test
    void describesItself() {
        assertTrue(https.baseUri().toString().matches("https://127\\.0\\.0\\.1:\\d+"), https.baseUri().toString());
        assertTrue(https.isTls());
        assertFalse(https.isHttp2());
        assertTrue(h2.isTls() && h2.isHttp2());
        assertTrue(h2.toString().contains("TLS jdk, h2"), h2.toString());
    }

    @Test
    void https11SmallAndBig() throws Exception {
        HttpResponse<byte[]> small = get(client11, https, "/small");
        assertEquals(HttpClient.Version.HTTP_1_1, small.version());
        assertEquals(200, small.statusCode());
        assertArrayEquals(Payloads.SMALL, small.body());
        assertArrayEquals(Payloads.BIG, get(client11, https, "/big").body());
        // An h2-capable client still gets HTTP/1.1 from a server without http2.
        assertEquals(HttpClient.Version.HTTP_1_1, get(client2, https, "/small").version());
    }

    @Test
    void h2ByAlpnServesTheSameBodies() throws Exception {
        HttpResponse<byte[]> small = get(client2, h2, "/small");
        assertEquals(HttpClient.Version.HTTP_2, small.version());
        assertEquals("application/json", small.headers().firstValue("content-type").orElseThrow());
        assertArrayEquals(Payloads.SMALL, small.body());
        HttpResponse<byte[]> big = get(client2, h2, "/big");
        assertEquals(HttpClient.Version.HTTP_2, big.version());
        assertArrayEquals(Payloads.BIG, big.body());
        assertArrayEquals(Payloads.bytes(1_000_000), get(client2, h2, "/bytes/1000000").body());
        assertArrayEquals(Payloads.bytes(100_000), get(client2, h2, "/chunked/100000").body());
        String json = new String(get(client2, h2, "/headers").body(), StandardCharsets.UTF_8);
        assertFalse(json.contains("x-http2"), json);
    }

    @Test
    void h2ServerServesHttp11ToClientsThatAskForIt() throws Exception {
        HttpResponse<byte[]> r = get(client11, h2, "/small");
        assertEquals(HttpClient.Version.HTTP_1_1, r.version());
        assertArrayEquals(Payloads.SMALL, r.body());
    }

    @Test
    void h2Upload() throws Exception {
        HttpResponse<String> r = client2.send(HttpRequest.newBuilder(URI.create(h2.url("/echo")))
                .POST(HttpRequest.BodyPublishers.ofString("hello")).build(), BodyHandlers.ofString());
        assertEquals(HttpClient.Version.HTTP_2, r.version());
        assertTrue(r.body().contains("\"body\": \"hello\""), r.body());
    }

    @Test
    void countsCompletedHandshakesOnly() throws Exception {
        try (TestServer server = Pki.tlsServer().http2(true).build()) {
            for (HttpClient.Version v : HttpClient.Version.values()) {
                try (HttpClient c = Pki.client(v)) {
                    assertEquals(200, get(c, server, "/small").statusCode());
                }
            }
            assertEquals(2, server.tlsHandshakes());
            try (HttpClient untrusting = HttpClient.newHttpClient()) {
                assertThrows(IOException.class, () -> get(untrusting, server, "/small"));
            }
            assertEquals(2, server.tlsHandshakes());
            assertTrue(server.acceptedConnections() >= 3, "accepted " + server.acceptedConnections());
            server.resetStats();
            assertEquals(0, server.tlsHandshakes());
            assertEquals(0, server.acceptedConnections());
        }
    }

    @Test
    void acceptsAReadySslContext() throws Exception {
        SslContext ctx = SslContextBuilder.forServer(Pki.get().server().cert().toFile(),
                Pki.get().server().key().toFile()).build();
        try (TestServer server = TestServer.builder().tls(ctx).build()) {
            assertArrayEquals(Payloads.SMALL, get(client11, server, "/small").body());
        }
        // Without ALPN offering h2 the server could never speak it: refused rather than silently HTTP/1.1.
        assertThrows(IllegalArgumentException.class, () -> TestServer.builder().tls(ctx).http2(true).build());

        SslContext alpn = SslContextBuilder.forServer(Pki.get().server().cert().toFile(),
                Pki.get().server().key().toFile())
                .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, "h2", "http/1.1"))
                .build();
        try (TestServer server = TestServer.builder().tls(alpn).http2(true).build()) {
            assertEquals(HttpClient.Version.HTTP_2, get(client2, server, "/small").version());
        }
        // ...and with h2 offered but http2 off, clients would negotiate a protocol the server does not speak.
        assertThrows(IllegalArgumentException.class, () -> TestServer.builder().tls(alpn).build());
    }

    @Test
    void refusesTlsOptionsWithoutACertificate() {
        assertThrows(IllegalStateException.class,
                () -> TestServer.builder().requireClientAuth(Pki.caPem()).build());
        assertThrows(IllegalStateException.class, () -> TestServer.builder().sslProvider("openssl").build());
        assertThrows(IllegalArgumentException.class, () -> TestServer.builder().sslProvider("rustls"));
        assertThrows(java.io.UncheckedIOException.class,
                () -> TestServer.builder().tls(Pki.caPem(), Pki.caPem()).build());
    }

    @Test
    void openSslEngineServesH2() throws Exception {
        assumeTrue(OpenSsl.isAvailable(), "netty-tcnative not loadable here");
        try (TestServer server = Pki.tlsServer().sslProvider("openssl").http2(true).build()) {
            assertTrue(server.toString().contains("TLS openssl"), server.toString());
            HttpResponse<byte[]> r = get(client2, server, "/big");
            assertEquals(HttpClient.Version.HTTP_2, r.version());
            assertArrayEquals(Payloads.BIG, r.body());
        }
    }
}
