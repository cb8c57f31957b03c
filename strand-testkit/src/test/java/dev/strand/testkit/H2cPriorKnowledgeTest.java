package dev.strand.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Error;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** Cleartext HTTP/2 with prior knowledge, seen frame by frame through a Netty client. */
@ExtendWith(NettyLeakDetectorExtension.class)
@Timeout(60)
class H2cPriorKnowledgeTest {

    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.builder().http2(true).maxConcurrentStreams(3).build();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void describesItself() {
        assertTrue(server.isHttp2());
        assertFalse(server.isTls());
        assertTrue(server.baseUri().toString().startsWith("http://127.0.0.1:"), server.baseUri().toString());
        assertTrue(server.toString().contains("h2c"), server.toString());
    }

    @Test
    void servesTheSameBodiesAsHttp11() throws Exception {
        try (H2Client c = new H2Client(server)) {
            H2Client.Response small = c.get("/small");
            assertEquals(200, small.status());
            assertEquals("application/json", small.headers.get("content-type").toString());
            assertArrayEquals(Payloads.SMALL, small.body.toByteArray());
            assertArrayEquals(Payloads.BIG, c.get("/big").body.toByteArray());
            assertArrayEquals(Payloads.bytes(300_000), c.get("/bytes/300000").body.toByteArray());
            assertArrayEquals(Payloads.bytes(20_000), c.get("/chunked/20000").body.toByteArray());
            assertEquals(404, c.get("/nope").status());
        }
    }

    @Test
    void advertisesMaxConcurrentStreams() throws Exception {
        try (H2Client c = new H2Client(server)) {
            H2Client.Settings s = assertInstanceOf(H2Client.Settings.class, c.nextOnConnection(10_000));
            assertEquals(3L, s.settings().maxConcurrentStreams());
        }
    }

    @Test
    void maxConcurrentStreamsDefaultsTo100() throws Exception {
        try (TestServer defaults = TestServer.builder().http2(true).build(); H2Client c = new H2Client(defaults)) {
            H2Client.Settings s = assertInstanceOf(H2Client.Settings.class, c.nextOnConnection(10_000));
            assertEquals(100L, s.settings().maxConcurrentStreams());
        }
    }

    @Test
    void http11StillServedOnTheSamePortWithTheCannedResponse() throws Exception {
        try (RawClient raw = new RawClient(server)) {
            RawClient.Response r = raw.get("/small");
            assertEquals("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 186\r\n",
                    r.raw.toString());
            assertArrayEquals(Payloads.SMALL, r.body);
        }
    }

    @Test
    void streamsAreIndependent() throws Exception {
        try (H2Client c = new H2Client(server)) {
            int slow = c.request("GET", "/delay/1000", null);
            H2Client.Response fast = c.get("/small");
            assertArrayEquals(Payloads.SMALL, fast.body.toByteArray());
            // The fast answer did not wait for the slow one, which is still coming.
            assertNull(c.next(slow, 0));
            assertArrayEquals(Payloads.SMALL, c.await(slow).body.toByteArray());
        }
    }

    @Test
    void respectsTheClientsWindowAndResumesWhenItOpens() throws Exception {
        int total = 1024 * 1024;
        int window = 65_535;
        try (H2Client c = new H2Client(server, window, false)) {
            int id = c.request("GET", "/bytes/" + total, null);
            java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
            while (body.size() < window) {
                H2Client.Event e = c.next(id, 10_000);
                if (e instanceof H2Client.Data d) {
                    body.writeBytes(d.bytes());
                } else {
                    assertInstanceOf(H2Client.Headers.class, e);
                }
            }
            assertEquals(window, body.size());
            assertNull(c.next(id, 300), "sent past the flow-control window");
            c.windowUpdate(id, body.size());
            boolean end = false;
            while (!end) {
                H2Client.Data d = assertInstanceOf(H2Client.Data.class, c.next(id, 10_000));
                body.writeBytes(d.bytes());
                if (d.bytes().length > 0) {
                    c.windowUpdate(id, d.bytes().length);
                }
                end = d.endStream();
            }
            assertArrayEquals(Payloads.bytes(total), body.toByteArray());
        }
    }

    @Test
    void trailersCarryTheBodysChecksum() throws Exception {
        try (H2Client c = new H2Client(server)) {
            H2Client.Response r = c.get("/trailers/100000");
            assertEquals(200, r.status());
            assertEquals("x-checksum", r.headers.get("trailer").toString());
            assertArrayEquals(Payloads.bytes(100_000), r.body.toByteArray());
            assertEquals(PatternInputStream.sha256(Payloads.bytes(100_000)), r.trailers.get("x-checksum").toString());
            H2Client.Response dflt = c.get("/trailers");
            assertEquals(1024, dflt.body.size());
            assertEquals(PatternInputStream.sha256(Payloads.bytes(1024)), dflt.trailers.get("x-checksum").toString());
        }
    }

    @Test
    void headSendsTheHeadersOnly() throws Exception {
        try (H2Client c = new H2Client(server)) {
            for (String path : new String[] {"/big", "/bytes/5000"}) {
                H2Client.Response r = c.await(c.request("HEAD", path, null));
                assertEquals(200, r.status());
                assertEquals(path.equals("/big") ? "96256" : "5000", r.headers.get("content-length").toString());
                assertEquals(0, r.body.size(), path);
            }
        }
    }

    @Test
    void endpointsSeeOnlyTheHeadersTheClientSent() throws Exception {
        try (H2Client c = new H2Client(server)) {
            String json = c.await(c.request("POST", "/echo", "hi".getBytes(StandardCharsets.UTF_8),
                    new DefaultHttp2Headers().add("x-test", "1"), true)).text();
            assertTrue(json.contains("\"x-test\": [\"1\"]"), json);
            assertTrue(json.contains("\"body\": \"hi\""), json);
            assertFalse(json.contains("x-http2"), json);
            assertFalse(json.contains("transfer-encoding"), json);
        }
    }

    @Test
    void anEarlyAnswerEndsTheRequestWithRstStreamNoError() throws Exception {
        try (H2Client c = new H2Client(server)) {
            int id = c.request("POST", "/echo", null,
                    new DefaultHttp2Headers().add("content-length", String.valueOf(BodyEndpoints.MAX_ECHO_BODY + 1)),
                    false);
            H2Client.Headers h = assertInstanceOf(H2Client.Headers.class, c.next(id, 10_000));
            assertEquals("413", h.headers().status().toString());
            H2Client.Reset rst = assertInstanceOf(H2Client.Reset.class, c.next(id, 10_000));
            assertEquals(Http2Error.NO_ERROR.code(), rst.errorCode());
            assertArrayEquals(Payloads.SMALL, c.get("/small").body.toByteArray(), "the connection lives on");
        }
    }

    @Test
    void rejectedExpectationIs417ThenRstStream() throws Exception {
        try (H2Client c = new H2Client(server)) {
            int id = c.request("POST", "/sink?reject=1", null,
                    new DefaultHttp2Headers().add("expect", "100-continue").add("content-length", "10"), false);
            H2Client.Headers h = assertInstanceOf(H2Client.Headers.class, c.next(id, 10_000));
            assertEquals("417", h.headers().status().toString());
            H2Client.Reset rst = assertInstanceOf(H2Client.Reset.class, c.next(id, 10_000));
            assertEquals(Http2Error.NO_ERROR.code(), rst.errorCode());
        }
    }

    @Test
    void dripAndLineStreamsWork() throws Exception {
        try (H2Client c = new H2Client(server)) {
            assertArrayEquals(Payloads.bytes(3), c.get("/drip?bytes=3&interval=10").body.toByteArray());
            assertEquals("{\"id\": 0, \"message\": \"line 0 of 1\"}\n", c.get("/stream/1").text());
        }
    }

    @Test
    void interimStatusesAreRefused() throws Exception {
        try (H2Client c = new H2Client(server)) {
            H2Client.Response r = c.get("/status/102");
            assertEquals(400, r.status());
            assertTrue(r.text().contains("HTTP/2"), r.text());
            assertEquals(204, c.get("/status/204").status());
        }
    }

    @Test
    void resetMidBodyIsRstStreamAfter1024Bytes() throws Exception {
        try (H2Client c = new H2Client(server)) {
            H2Client.Response r = c.get("/fault/reset-mid-body");
            assertEquals("100000", r.headers.get("content-length").toString());
            assertArrayEquals(Payloads.bytes(FaultEndpoints.RESET_AFTER_BYTES), r.body.toByteArray());
            assertEquals(Http2Error.INTERNAL_ERROR.code(), r.resetCode);
            assertTrue(c.isOpen(), "only the stream is reset");
        }
    }

    @Test
    void http11FramingFaultsAre404() throws Exception {
        try (H2Client c = new H2Client(server)) {
            for (String name : new String[] {"bad-chunk", "both-lengths"}) {
                H2Client.Response r = c.get("/fault/" + name);
                assertEquals(404, r.status());
                assertTrue(r.text().contains("no HTTP/2 form"), r.text());
            }
        }
    }

    @Test
    void wrongLengthEndsTheStreamShortOfItsContentLength() throws Exception {
        try (H2Client c = new H2Client(server)) {
            H2Client.Response r = c.get("/fault/wrong-length");
            assertEquals("1000", r.headers.get("content-length").toString());
            // Netty's client checks DATA against content-length and rejects the stream, which is the point.
            assertEquals(Http2Error.PROTOCOL_ERROR.code(), r.streamErrorCode);
            assertNull(r.resetCode, "the server did not reset it");
            assertTrue(c.isOpen());
        }
    }

    @Test
    void badStatusLineIsANonNumericStatus() throws Exception {
        try (H2Client c = new H2Client(server)) {
            H2Client.Response r = c.get("/fault/bad-status-line");
            // Netty's client either hands the malformed status over or rejects the stream; both prove it was sent.
            if (r.headers != null) {
                assertEquals("abc", r.headers.status().toString());
            } else {
                assertEquals(Http2Error.PROTOCOL_ERROR.code(), r.streamErrorCode);
            }
        }
    }

    @Test
    void closeAndCloseAfterHeadersDropTheConnection() throws Exception {
        try (H2Client c = new H2Client(server)) {
            H2Client.Response r = c.get("/fault/close");
            assertTrue(r.connectionClosed);
            assertNull(r.headers);
        }
        try (H2Client c = new H2Client(server)) {
            H2Client.Response r = c.get("/fault/close-after-headers");
            assertEquals("100", r.headers.get("content-length").toString());
            assertEquals(0, r.body.size());
            assertTrue(r.connectionClosed);
        }
    }

    @Test
    void acceptedConnectionsCountsH2cConnections() throws Exception {
        try (TestServer fresh = TestServer.builder().http2(true).build()) {
            try (H2Client a = new H2Client(fresh); H2Client b = new H2Client(fresh)) {
                a.get("/small");
                b.get("/small");
            }
            try (RawClient raw = new RawClient(fresh)) {
                raw.get("/small");
            }
            assertEquals(3, fresh.acceptedConnections());
            assertEquals(0, fresh.tlsHandshakes());
        }
    }
}
