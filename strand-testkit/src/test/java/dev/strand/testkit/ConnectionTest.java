package dev.strand.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** Keep-alive, pipelining, HEAD, Expect, and the server's lifecycle. */
@ExtendWith(NettyLeakDetectorExtension.class)
@Timeout(60)
class ConnectionTest {

    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @BeforeEach
    void reset() {
        server.resetStats();
    }

    @Test
    void describesItself() {
        assertEquals("127.0.0.1", server.host());
        assertTrue(server.port() > 0);
        assertEquals(URI.create("http://127.0.0.1:" + server.port()), server.baseUri());
        assertEquals("http://127.0.0.1:" + server.port() + "/small", server.url("/small"));
        String expected = System.getProperty("os.name").startsWith("Linux") ? "epoll" : "nio";
        assertEquals(expected, server.transportName());
    }

    @Test
    void keepAliveReusesOneConnection() throws IOException {
        try (RawClient raw = new RawClient(server)) {
            assertArrayEquals(Payloads.SMALL, raw.get("/small").body);
            assertArrayEquals(Payloads.BIG, raw.get("/big").body);
            assertArrayEquals(Payloads.bytes(100_000), raw.get("/bytes/100000").body);
            assertArrayEquals(Payloads.bytes(100), raw.get("/chunked/100").body);
            assertEquals(404, raw.get("/missing").status);
            raw.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabc");
            assertTrue(raw.read().text().endsWith("\"bodyLength\": 3}"));
            assertArrayEquals(Payloads.SMALL, raw.get("/small").body);
            assertEquals(1, server.acceptedConnections());
            assertEquals(1, server.openConnections());
        }
        awaitOpenConnections(0);
        assertEquals(1, server.acceptedConnections());
        server.resetStats();
        assertEquals(0, server.acceptedConnections());
    }

    @Test
    void headSendsHeadersOnly() throws IOException {
        try (RawClient raw = new RawClient(server)) {
            RawClient.Response small = raw.request("HEAD", "/small");
            assertEquals(200, small.status);
            assertEquals("186", small.header("content-length"));
            assertEquals("96256", raw.request("HEAD", "/big").header("content-length"));
            assertEquals("5000000000", raw.request("HEAD", "/bytes/5000000000").header("content-length"));
            RawClient.Response chunked = raw.request("HEAD", "/chunked/100");
            assertEquals("chunked", chunked.header("transfer-encoding"));
            RawClient.Response echo = raw.request("HEAD", "/echo");
            assertTrue(Integer.parseInt(echo.header("content-length")) > 0);
            assertEquals("gzip", raw.request("HEAD", "/gzip").header("content-encoding"));
            // Had any body been sent, this would read it instead of the next response.
            assertArrayEquals(Payloads.SMALL, raw.get("/small").body);
        }
    }

    @Test
    void connectionCloseIsHonoured() throws IOException {
        try (RawClient raw = new RawClient(server)) {
            RawClient.Response r = raw.get("/small", "Connection: close");
            assertEquals("close", r.header("connection"));
            assertArrayEquals(Payloads.SMALL, r.body);
            assertTrue(raw.atEof());
        }
        try (RawClient raw = new RawClient(server)) {
            RawClient.Response r = raw.get("/bytes/300000", "Connection: close");
            assertArrayEquals(Payloads.bytes(300_000), r.body);
            assertTrue(raw.atEof());
        }
    }

    @Test
    void http10() throws IOException {
        try (RawClient raw = new RawClient(server)) {
            raw.send("GET /small HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            RawClient.Response kept = raw.read();
            assertEquals("keep-alive", kept.header("connection"));
            assertArrayEquals(Payloads.SMALL, kept.body);
            raw.send("GET /small HTTP/1.0\r\n\r\n");
            RawClient.Response closed = raw.read();
            assertEquals("close", closed.header("connection"));
            assertTrue(raw.atEof());
        }
    }

    @Test
    void pipelinedRequestsAnswerInOrder() throws IOException {
        try (RawClient raw = new RawClient(server)) {
            raw.send("GET /delay/150 HTTP/1.1\r\nHost: t\r\n\r\n"
                    + "GET /bytes/70000 HTTP/1.1\r\nHost: t\r\n\r\n"
                    + "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nhi"
                    + "GET /stream/2 HTTP/1.1\r\nHost: t\r\n\r\n"
                    + "GET /status/204 HTTP/1.1\r\nHost: t\r\n\r\n"
                    + "GET /small HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
            assertArrayEquals(Payloads.SMALL, raw.read().body);
            assertArrayEquals(Payloads.bytes(70000), raw.read().body);
            assertTrue(raw.read().text().endsWith("\"body\": \"hi\", \"bodyLength\": 2}"));
            assertEquals(2, raw.read().chunkSizes.size());
            assertEquals(204, raw.read().status);
            assertArrayEquals(Payloads.SMALL, raw.read().body);
            assertTrue(raw.atEof());
        }
    }

    @Test
    void expectContinueOnSink() throws IOException {
        try (RawClient raw = new RawClient(server)) {
            raw.send("POST /sink HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n");
            RawClient.Response cont = raw.read();
            assertEquals(100, cont.status);
            assertEquals("HTTP/1.1 100 Continue\r\n", cont.raw.toString());
            raw.send("abc");
            RawClient.Response r = raw.read();
            assertEquals(200, r.status);
            assertEquals("{\"bytes\": 3, \"sha256\": "
                    + "\"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\"}", r.text());
            assertArrayEquals(Payloads.SMALL, raw.get("/small").body);
        }
    }

    @Test
    void expectContinueRejected() throws IOException {
        try (RawClient raw = new RawClient(server)) {
            raw.send("POST /sink?reject=1 HTTP/1.1\r\nHost: t\r\nContent-Length: 1000000\r\n"
                    + "Expect: 100-continue\r\n\r\n");
            RawClient.Response r = raw.read();
            assertEquals(417, r.status);
            assertEquals("close", r.header("connection"));
            assertTrue(raw.atEof());
        }
        try (RawClient raw = new RawClient(server)) {
            raw.send("POST /sink HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nExpect: something-else\r\n\r\n");
            assertEquals(417, raw.read().status);
        }
    }

    @Test
    void echoTooLargeIs413() throws IOException {
        try (RawClient raw = new RawClient(server)) {
            raw.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 16777217\r\nExpect: 100-continue\r\n\r\n");
            RawClient.Response r = raw.read();
            assertEquals(413, r.status);
            assertEquals("close", r.header("connection"));
            assertTrue(raw.atEof());
        }
        try (RawClient raw = new RawClient(server)) {
            // Chunked: the size is only known once it is exceeded.
            raw.send("POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n");
            byte[] chunk = ("100000\r\n" + "a".repeat(0x100000) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            try {
                for (int i = 0; i < 17; i++) {
                    raw.send(chunk);
                }
            } catch (IOException serverClosedWhileWeWrote) {
                // expected once the server has answered 413 and closed
            }
            assertEquals(413, raw.read().status);
        }
    }

    @Test
    void neverAnswers() throws IOException {
        try (RawClient raw = new RawClient(server)) {
            raw.socket.setSoTimeout(500);
            raw.send("GET /never HTTP/1.1\r\nHost: t\r\n\r\n");
            assertThrows(SocketTimeoutException.class, raw.in::read);
            assertEquals(1, server.openConnections());
        }
        awaitOpenConnections(0);
    }

    @Test
    void malformedRequestIs400() throws IOException {
        try (RawClient raw = new RawClient(server)) {
            raw.send("GET /small HTTP/1.1\r\nHost: t\r\nContent-Length: nope\r\n\r\n");
            RawClient.Response r = raw.read();
            assertEquals(400, r.status);
            assertTrue(raw.atEof());
        }
    }

    @Test
    void absoluteFormTarget() throws IOException {
        try (RawClient raw = new RawClient(server)) {
            assertArrayEquals(Payloads.SMALL, raw.get("http://example.com/small").body);
        }
    }

    @Test
    void hugeBodyStreamsWithBackpressure() throws Exception {
        long n = 256L * 1024 * 1024;
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpResponse<InputStream> r = client.send(
                    HttpRequest.newBuilder(URI.create(server.url("/bytes/" + n))).build(),
                    BodyHandlers.ofInputStream());
            assertEquals(n, r.headers().firstValueAsLong("content-length").orElseThrow());
            long total = 0;
            byte[] buf = new byte[256 * 1024];
            try (InputStream in = r.body()) {
                for (int k; (k = in.read(buf)) > 0; ) {
                    for (int i = 0; i < k; i += 4099) { // spot-check the sequence
                        assertEquals(Payloads.at(total + i), buf[i]);
                    }
                    total += k;
                }
            }
            assertEquals(n, total);
        }
    }

    @Test
    void slowReaderDoesNotBlockOthers() throws Exception {
        try (RawClient slow = new RawClient(server); RawClient fast = new RawClient(server)) {
            slow.send("GET /bytes/1000000000 HTTP/1.1\r\nHost: t\r\n\r\n");
            Thread.sleep(100); // server fills the socket buffers and waits for writability
            for (int i = 0; i < 20; i++) {
                assertArrayEquals(Payloads.SMALL, fast.get("/small").body);
            }
        }
    }

    @Test
    void closeReleasesThePort() throws Exception {
        TestServer other = TestServer.builder().host("127.0.0.1").port(0).ioThreads(2).build();
        int port = other.port();
        try (RawClient raw = new RawClient(other)) {
            assertArrayEquals(Payloads.SMALL, raw.get("/small").body);
            other.close();
            assertTrue(raw.atEof(), "open connections are closed too");
        }
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            assertEquals(port, s.getLocalPort());
        }
        other.close(); // idempotent
    }

    @Test
    void fixedPort() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        try (TestServer fixed = TestServer.builder().port(port).build(); RawClient raw = new RawClient(fixed)) {
            assertEquals(port, fixed.port());
            assertNull(raw.get("/small").header("connection"));
        }
    }

    private static void awaitOpenConnections(int expected) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (server.openConnections() != expected && System.nanoTime() < deadline) {
            Thread.yield();
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
        assertEquals(expected, server.openConnections());
    }
}
