package dev.strand.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.FaultProxy.Fault;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Each fault at probability 1, seen from a raw socket; a proxy with no faults relays byte for byte. */
@ExtendWith(NettyLeakDetectorExtension.class)
class FaultProxyTest {
    private static final String GET_SMALL = "GET /small HTTP/1.1\r\nHost: t\r\n\r\n";
    private static TestServer server;
    private static byte[] direct;

    @BeforeAll
    static void start() throws IOException {
        server = TestServer.start();
        try (Socket s = connect(server.port())) {
            direct = exchange(s, GET_SMALL, 2);
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void withoutFaultsRelaysExactly() throws IOException {
        try (FaultProxy proxy = FaultProxy.builder(server).build(); Socket s = connect(proxy.port())) {
            assertEquals(new String(direct, StandardCharsets.ISO_8859_1),
                    new String(exchange(s, GET_SMALL, 2), StandardCharsets.ISO_8859_1));
            assertEquals(0, proxy.injected().values().stream().mapToLong(Long::longValue).sum());
        }
    }

    @Test
    void resetAbortsTheConnection() throws IOException {
        try (FaultProxy proxy = FaultProxy.builder(server).reset(1).build(); Socket s = connect(proxy.port())) {
            assertThrows(SocketException.class, () -> exchange(s, GET_SMALL, 5));
            assertEquals(1, proxy.injected(Fault.RESET));
        }
    }

    @Test
    void truncateSendsLessThenCloses() throws IOException {
        try (FaultProxy proxy = FaultProxy.builder(server).truncate(1).build(); Socket s = connect(proxy.port())) {
            byte[] got = exchange(s, GET_SMALL, 5);
            assertTrue(got.length < direct.length, got.length + " bytes");
            assertEquals(1, proxy.injected(Fault.TRUNCATE));
        }
    }

    @Test
    void strayBytesFollowACompleteResponse() throws IOException {
        try (FaultProxy proxy = FaultProxy.builder(server).strayBytes(1).build(); Socket s = connect(proxy.port())) {
            s.getOutputStream().write(GET_SMALL.getBytes(StandardCharsets.US_ASCII));
            byte[] got = readFor(s.getInputStream(), direct.length + 1, 2);
            assertEquals(new String(direct, StandardCharsets.ISO_8859_1),
                    new String(got, 0, direct.length, StandardCharsets.ISO_8859_1));
            assertTrue(got.length > direct.length, "no stray bytes");
            assertEquals(1, proxy.injected(Fault.STRAY_BYTES));
        }
    }

    @Test
    void earlyCloseAnswersNothing() throws IOException {
        try (FaultProxy proxy = FaultProxy.builder(server).earlyClose(1).build(); Socket s = connect(proxy.port())) {
            assertEquals(0, exchange(s, GET_SMALL, 5).length);
            assertEquals(1, proxy.injected(Fault.EARLY_CLOSE));
        }
    }

    @Test
    void delayHoldsButDelivers() throws IOException {
        try (FaultProxy proxy = FaultProxy.builder(server).delay(1, 30).build(); Socket s = connect(proxy.port())) {
            s.getOutputStream().write(GET_SMALL.getBytes(StandardCharsets.US_ASCII));
            byte[] got = readFor(s.getInputStream(), direct.length, 5);
            assertEquals(direct.length, got.length);
            assertTrue(proxy.injected(Fault.DELAY) >= 1);
        }
    }

    @Test
    void closingDuringADelayReleasesTheHeldChunk() throws Exception {
        FaultProxy proxy = FaultProxy.builder(server).delay(1, 5_000).build();
        try (Socket s = connect(proxy.port())) {
            s.getOutputStream().write(GET_SMALL.getBytes(StandardCharsets.US_ASCII));
            long until = System.nanoTime() + 5_000_000_000L;
            while (proxy.injected(Fault.DELAY) == 0 && System.nanoTime() < until) {
                Thread.sleep(5);
            }
            assertEquals(1, proxy.injected(Fault.DELAY));
            proxy.close(); // the extension fails the test if the held response chunk leaks
        }
    }

    @Test
    void perConnectionInjectsOnceAndRefusesBeyondTheBound() throws IOException {
        try (FaultProxy proxy = FaultProxy.builder(server).perConnection().strayBytes(1).maxConnections(1).build();
                Socket s = connect(proxy.port())) {
            s.getOutputStream().write((GET_SMALL + GET_SMALL).getBytes(StandardCharsets.US_ASCII));
            readFor(s.getInputStream(), Integer.MAX_VALUE, 1);
            assertEquals(1, proxy.injected(Fault.STRAY_BYTES));
            try (Socket second = connect(proxy.port())) {
                assertEquals(-1, second.getInputStream().read());
            }
            assertEquals(1, proxy.refused());
        }
    }

    @Test
    void neighbouringConnectionsDrawIndependently() {
        int[] buckets = new int[5];
        for (int n = 0; n < 100; n++) {
            buckets[(int) (new java.util.Random(FaultProxy.connectionSeed(42, n)).nextDouble() * 5)]++;
        }
        for (int b : buckets) {
            assertTrue(b >= 8 && b <= 35, java.util.Arrays.toString(buckets));
        }
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        s.setTcpNoDelay(true);
        s.setSoTimeout(300);
        return s;
    }

    /** Sends {@code request}, then reads until the peer closes or {@code seconds} pass. */
    private static byte[] exchange(Socket s, String request, int seconds) throws IOException {
        s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        return readFor(s.getInputStream(), Integer.MAX_VALUE, seconds);
    }

    /**
     * Reads up to {@code max} bytes, until the end of the stream, {@code seconds}, or 300 ms without a byte
     * once some have come.
     */
    private static byte[] readFor(InputStream in, int max, int seconds) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        byte[] buf = new byte[8192];
        while (out.size() < max && System.nanoTime() < deadline) {
            int n;
            try {
                n = in.read(buf);
            } catch (SocketTimeoutException e) {
                if (out.size() > 0) {
                    break;
                }
                continue;
            }
            if (n < 0) {
                break;
            }
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }
}
