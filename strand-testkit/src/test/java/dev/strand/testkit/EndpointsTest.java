package dev.strand.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(NettyLeakDetectorExtension.class)
@Timeout(30)
class EndpointsTest {

    private static TestServer server;
    private static HttpClient client;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    private static HttpResponse<byte[]> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(server.url(path))).build(), BodyHandlers.ofByteArray());
    }

    private static HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return client.send(b.build(), BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(server.url(path)));
    }

    @Test
    void small() throws Exception {
        HttpResponse<byte[]> r = get("/small");
        assertEquals(200, r.statusCode());
        assertEquals("application/json", r.headers().firstValue("content-type").orElseThrow());
        assertEquals(Payloads.SMALL.length, r.headers().firstValueAsLong("content-length").orElseThrow());
        assertArrayEquals(Payloads.SMALL, r.body());
    }

    @Test
    void smallIsExactlyThePreEncodedResponse() throws IOException {
        try (RawClient raw = new RawClient(server)) {
            RawClient.Response r = raw.get("/small");
            assertEquals("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 186\r\n",
                    r.raw.toString());
            assertArrayEquals(Payloads.SMALL, r.body);
        }
    }

    @Test
    void big() throws Exception {
        HttpResponse<byte[]> r = get("/big");
        assertEquals(200, r.statusCode());
        assertEquals("application/octet-stream", r.headers().firstValue("content-type").orElseThrow());
        assertEquals(96256, r.body().length);
        assertArrayEquals(Payloads.BIG, r.body());
    }

    @Test
    void bytes() throws Exception {
        HttpResponse<byte[]> r = get("/bytes/200000");
        assertEquals(200, r.statusCode());
        assertEquals(200000, r.headers().firstValueAsLong("content-length").orElseThrow());
        assertArrayEquals(Payloads.bytes(200000), r.body());
        assertArrayEquals(new byte[0], get("/bytes/0").body());
    }

    @Test
    void badNumberIs400() throws Exception {
        assertEquals(400, get("/bytes/-1").statusCode());
        assertEquals(400, get("/bytes/abc").statusCode());
        assertEquals(400, get("/status/99").statusCode());
        assertEquals(400, get("/redirect/0").statusCode());
    }

    @Test
    void delay() throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<byte[]> r = get("/delay/300");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(200, r.statusCode());
        assertArrayEquals(Payloads.SMALL, r.body());
        assertTrue(ms >= 290, "answered after " + ms + " ms");
    }

    @Test
    void status() throws IOException {
        try (RawClient raw = new RawClient(server)) {
            RawClient.Response created = raw.get("/status/201");
            assertEquals("HTTP/1.1 201 Created", created.raw.toString().lines().findFirst().orElseThrow());
            assertEquals("0", created.header("content-length"));
            RawClient.Response noContent = raw.get("/status/204");
            assertEquals(204, noContent.status);
            assertEquals("No Content", noContent.reason);
            assertNull(noContent.header("content-length"));
            RawClient.Response notModified = raw.get("/status/304");
            assertEquals(304, notModified.status);
            assertNull(notModified.header("content-length"));
            RawClient.Response error = raw.get("/status/503");
            assertEquals("Service Unavailable", error.reason);
            assertEquals("0", error.header("content-length"));
            // Still in sync after bodiless responses:
            assertArrayEquals(Payloads.SMALL, raw.get("/small").body);
        }
    }

    @Test
    void redirects() throws Exception {
        HttpResponse<byte[]> three = get("/redirect/3");
        assertEquals(302, three.statusCode());
        assertEquals("/redirect/2", three.headers().firstValue("location").orElseThrow());
        assertEquals("/echo", get("/redirect/1").headers().firstValue("location").orElseThrow());

        try (HttpClient following = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NORMAL).build()) {
            HttpResponse<String> end = following.send(request("/redirect/3").build(), BodyHandlers.ofString());
            assertEquals(200, end.statusCode());
            assertEquals(URI.create(server.url("/echo")), end.uri());
            assertTrue(end.body().startsWith("{\"method\": \"GET\", \"path\": \"/echo\""), end.body());
        }

        HttpResponse<byte[]> to = get("/redirect-to?url=" + "http%3A%2F%2Fexample.com%2Fa%3Fb%3Dc" + "&status=307");
        assertEquals(307, to.statusCode());
        assertEquals("http://example.com/a?b=c", to.headers().firstValue("location").orElseThrow());
        assertEquals(302, get("/redirect-to?url=/small").statusCode());
        assertEquals(400, get("/redirect-to").statusCode());
    }

    @Test
    void headersKeepNamesAsReceived() throws IOException {
        try (RawClient raw = new RawClient(server)) {
            RawClient.Response r = raw.get("/headers", "X-Custom: a", "x-custom: b", "Accept: */*");
            assertEquals(200, r.status);
            assertEquals("application/json", r.header("content-type"));
            assertEquals("{\"headers\": {\"Host\": [\"test\"], \"X-Custom\": [\"a\", \"b\"], \"Accept\": [\"*/*\"]}}",
                    r.text());
        }
    }

    @Test
    void echoExactJson() throws IOException {
        try (RawClient raw = new RawClient(server)) {
            raw.send("POST /echo?x=1&y=%20 HTTP/1.1\r\nHost: test\r\nContent-Length: 11\r\n\r\nhello \"you\"");
            RawClient.Response r = raw.read();
            assertEquals(200, r.status);
            assertEquals("{\"method\": \"POST\", \"path\": \"/echo\", \"query\": \"x=1&y=%20\", \"headers\": "
                    + "{\"Host\": [\"test\"], \"Content-Length\": [\"11\"]}, \"body\": \"hello \\\"you\\\"\", "
                    + "\"bodyLength\": 11}", r.text());
        }
    }

    @Test
    void echoChunkedQueryMethodAndUtf8() throws IOException {
        try (RawClient raw = new RawClient(server)) {
            byte[] utf8 = "h\u00e9".getBytes(StandardCharsets.UTF_8);
            raw.send("QUERY /echo HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n"
                    + Integer.toHexString(utf8.length) + "\r\n");
            raw.send(utf8);
            raw.send("\r\n0\r\n\r\n");
            RawClient.Response r = raw.read();
            assertEquals(200, r.status);
            String json = r.text();
            assertTrue(json.startsWith("{\"method\": \"QUERY\", \"path\": \"/echo\", \"query\": \"\""), json);
            assertTrue(json.endsWith("\"body\": \"abh\u00e9\", \"bodyLength\": 5}"), json);
        }
    }

    @Test
    void echoViaJdkClient() throws Exception {
        HttpResponse<String> r = send(request("/echo").method("PUT", BodyPublishers.ofString("payload")));
        assertEquals(200, r.statusCode());
        assertTrue(r.body().contains("\"method\": \"PUT\""), r.body());
        assertTrue(r.body().endsWith("\"body\": \"payload\", \"bodyLength\": 7}"), r.body());
        HttpResponse<String> empty = send(request("/echo").DELETE());
        assertTrue(empty.body().endsWith("\"body\": \"\", \"bodyLength\": 0}"), empty.body());
    }

    @Test
    void sinkHashesStreamedBody() throws Exception {
        byte[] body = Payloads.bytes(10 * 1024 * 1024 + 3);
        HttpResponse<String> r = send(request("/sink").POST(BodyPublishers.ofByteArray(body)));
        assertEquals(200, r.statusCode());
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        assertEquals("{\"bytes\": " + body.length + ", \"sha256\": \"" + sha + "\"}", r.body());
    }

    @Test
    void sinkWithJdkExpectContinue() throws Exception {
        HttpResponse<String> r = send(request("/sink").expectContinue(true)
                .POST(BodyPublishers.ofString("abc")));
        assertEquals(200, r.statusCode());
        assertTrue(r.body().startsWith("{\"bytes\": 3, \"sha256\": \"ba7816bf"), r.body());
    }

    @Test
    void gzip() throws Exception {
        HttpResponse<byte[]> r = get("/gzip");
        assertEquals("gzip", r.headers().firstValue("content-encoding").orElseThrow());
        assertEquals("application/json", r.headers().firstValue("content-type").orElseThrow());
        byte[] plain;
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(r.body()))) {
            plain = in.readAllBytes();
        }
        assertArrayEquals(Payloads.GZIP_JSON, plain);
        assertTrue(new String(plain, StandardCharsets.UTF_8).startsWith("{\"gzipped\": true, "));
        assertTrue(plain.length > 2048 && r.body().length < plain.length);
    }

    @Test
    void deflate() throws Exception {
        HttpResponse<byte[]> r = get("/deflate");
        assertEquals("deflate", r.headers().firstValue("content-encoding").orElseThrow());
        byte[] plain;
        try (InputStream in = new InflaterInputStream(new ByteArrayInputStream(r.body()))) {
            plain = in.readAllBytes();
        }
        assertArrayEquals(Payloads.DEFLATE_JSON, plain);
        assertTrue(new String(plain, StandardCharsets.UTF_8).startsWith("{\"deflated\": true, "));
    }

    @Test
    void chunked() throws IOException {
        try (RawClient raw = new RawClient(server)) {
            RawClient.Response r = raw.get("/chunked/20000");
            assertEquals("chunked", r.header("transfer-encoding"));
            assertNull(r.header("content-length"));
            assertEquals(List.of(8192, 8192, 3616), r.chunkSizes);
            assertArrayEquals(Payloads.bytes(20000), r.body);
            assertEquals(List.of(), raw.get("/chunked/0").chunkSizes);
        }
    }

    @Test
    void streamOneChunkPerLine() throws IOException {
        try (RawClient raw = new RawClient(server)) {
            RawClient.Response r = raw.get("/stream/3");
            assertEquals("chunked", r.header("transfer-encoding"));
            assertEquals(3, r.chunkSizes.size());
            assertEquals("{\"id\": 0, \"message\": \"line 0 of 3\"}\n{\"id\": 1, \"message\": \"line 1 of 3\"}\n"
                    + "{\"id\": 2, \"message\": \"line 2 of 3\"}\n", r.text());
        }
    }

    @Test
    void cookies() throws Exception {
        HttpResponse<byte[]> set = get("/cookies/set?a=1&b=two");
        assertEquals(302, set.statusCode());
        assertEquals("/cookies", set.headers().firstValue("location").orElseThrow());
        assertEquals(List.of("a=1; Path=/", "b=two; Path=/"), set.headers().allValues("set-cookie"));

        try (HttpClient withJar = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .cookieHandler(new CookieManager()).followRedirects(HttpClient.Redirect.NORMAL).build()) {
            HttpResponse<String> r = withJar.send(request("/cookies/set?a=1&b=two").build(), BodyHandlers.ofString());
            assertEquals("{\"cookies\": {\"a\": \"1\", \"b\": \"two\"}}", r.body());
        }
        assertEquals("{\"cookies\": {}}", new String(get("/cookies").body(), StandardCharsets.UTF_8));
    }

    @Test
    void basicAuth() throws Exception {
        String good = "Basic " + Base64.getEncoder().encodeToString("ann:s3cret".getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> ok = send(request("/basic-auth/ann/s3cret").header("Authorization", good));
        assertEquals(200, ok.statusCode());
        assertEquals("{\"authenticated\": true, \"user\": \"ann\"}", ok.body());

        String bad = "Basic " + Base64.getEncoder().encodeToString("ann:nope".getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> denied = send(request("/basic-auth/ann/s3cret").header("Authorization", bad));
        assertEquals(401, denied.statusCode());
        assertEquals("Basic realm=\"strand\"", denied.headers().firstValue("www-authenticate").orElseThrow());
        assertEquals(401, get("/basic-auth/ann/s3cret").statusCode());
    }

    @Test
    void bearer() throws Exception {
        HttpResponse<String> ok = send(request("/bearer").header("Authorization", "Bearer abc.def"));
        assertEquals(200, ok.statusCode());
        assertEquals("{\"authenticated\": true, \"token\": \"abc.def\"}", ok.body());
        HttpResponse<byte[]> denied = get("/bearer");
        assertEquals(401, denied.statusCode());
        assertEquals("Bearer", denied.headers().firstValue("www-authenticate").orElseThrow());
    }

    @Test
    void drip() throws IOException {
        try (RawClient raw = new RawClient(server)) {
            long t0 = System.nanoTime();
            RawClient.Response r = raw.get("/drip?bytes=5&delay=100&interval=50");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals("5", r.header("content-length"));
            assertArrayEquals(Payloads.bytes(5), r.body);
            assertTrue(ms >= 290, "dripped in " + ms + " ms");
            assertEquals("10", raw.request("HEAD", "/drip?interval=1").header("content-length"));
            assertArrayEquals(Payloads.bytes(3), raw.get("/drip?bytes=3&interval=1").body);
        }
    }

    @Test
    void stats() throws Exception {
        String json = new String(get("/stats").body(), StandardCharsets.UTF_8);
        assertTrue(json.matches("\\{\"accepted\": \\d+, \"open\": \\d+, \"held\": \\d+, \"cpuNanos\": \\d+}"), json);
    }

    /** {@code cpuNanos} is the process's CPU time: it grows while the server works. */
    @Test
    void statsCountTheProcessCpuTime() throws Exception {
        long before = cpuNanos();
        long end = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        long after = before;
        while (after == before && System.nanoTime() < end) {
            for (int i = 0; i < 50; i++) {
                get("/big");
            }
            after = cpuNanos();
        }
        assertTrue(before > 0, "cpuNanos " + before);
        assertTrue(after > before, "cpuNanos did not grow: " + before + " then " + after);
    }

    private static long cpuNanos() throws Exception {
        String json = new String(get("/stats").body(), StandardCharsets.UTF_8);
        return Long.parseLong(json.replaceAll(".*\"cpuNanos\": (-?\\d+).*", "$1"));
    }

    /** {@code held} counts the responses a {@code /delay} holds back: up while one waits, down once it is sent. */
    @Test
    void statsCountTheResponsesADelayHolds() throws Exception {
        int before = held();
        var pending = client.sendAsync(request("/delay/1500").build(), BodyHandlers.ofByteArray());
        long end = System.nanoTime() + Duration.ofSeconds(1).toNanos();
        int during = held();
        while (during == before && System.nanoTime() < end) {
            Thread.sleep(10);
            during = held();
        }
        assertEquals(before + 1, during);
        assertEquals(200, pending.get().statusCode());
        assertEquals(before, held());
    }

    private static int held() throws Exception {
        String json = new String(get("/stats").body(), StandardCharsets.UTF_8);
        return Integer.parseInt(json.replaceAll(".*\"held\": (\\d+).*", "$1"));
    }

    @Test
    void unknownPathIs404() throws Exception {
        HttpResponse<byte[]> r = get("/nope/nothing");
        assertEquals(404, r.statusCode());
        assertTrue(r.body().length > 0);
        assertEquals(404, get("/").statusCode());
        assertEquals(404, get("/fault/unknown").statusCode());
    }
}
