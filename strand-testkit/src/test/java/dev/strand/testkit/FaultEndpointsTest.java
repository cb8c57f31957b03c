package dev.strand.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each fault sends exactly the promised bytes, then closes; checked on the wire. */
@ExtendWith(NettyLeakDetectorExtension.class)
@Timeout(30)
class FaultEndpointsTest {

    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String fault(String name) throws IOException {
        try (RawClient raw = new RawClient(server)) {
            raw.send("GET /fault/" + name + " HTTP/1.1\r\nHost: t\r\n\r\n");
            return new String(raw.readToEnd(), StandardCharsets.ISO_8859_1);
        }
    }

    static Stream<Arguments> rawFaults() {
        return Stream.of(
                Arguments.of("close-after-headers",
                        "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 100\r\n\r\n"),
                Arguments.of("wrong-length",
                        "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 1000\r\n\r\n0123456789"),
                Arguments.of("bad-status-line", "HTTP/1.1 abc Bad\r\n\r\n"),
                Arguments.of("bad-chunk", "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n"
                        + "transfer-encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n"),
                Arguments.of("both-lengths", "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 5\r\n"
                        + "transfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rawFaults")
    void sendsExactBytesThenCloses(String name, String expected) throws IOException {
        assertEquals(expected, fault(name));
    }

    @Test
    void closeSendsNothing() throws IOException {
        assertEquals("", fault("close"));
    }

    @Test
    void hugeHeaders() throws IOException {
        String all = fault("huge-headers");
        int end = all.indexOf("\r\n\r\n");
        assertTrue(end > 128 * 1024, "header section is " + end + " bytes");
        assertEquals(all.length(), end + 4, "no body");
        assertTrue(all.startsWith("HTTP/1.1 200 OK\r\nx-filler-0: fff"));
        assertTrue(all.endsWith("\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"));
    }

    @Test
    void resetMidBody() throws IOException {
        String head = "HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ncontent-length: 100000\r\n\r\n";
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        try (RawClient raw = new RawClient(server)) {
            raw.send("GET /fault/reset-mid-body HTTP/1.1\r\nHost: t\r\n\r\n");
            SocketException reset = assertThrows(SocketException.class, () -> {
                byte[] buf = new byte[8192];
                for (int n; (n = raw.in.read(buf)) >= 0; ) {
                    got.write(buf, 0, n);
                }
            });
            assertTrue(reset.getMessage().contains("reset"), reset.getMessage());
        }
        byte[] bytes = got.toByteArray();
        // What arrives before the RST is a prefix of head + 1024 body bytes: the RST may overtake some of it.
        byte[] promised = (head + new String(Payloads.bytes(1024), StandardCharsets.ISO_8859_1))
                .getBytes(StandardCharsets.ISO_8859_1);
        assertTrue(bytes.length <= promised.length);
        assertArrayEquals(Arrays.copyOf(promised, bytes.length), bytes);
    }
}
