package dev.strand.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The link shaper against a plain echo (or sink) server: delay, rate, stall, order, no leaks. */
@ExtendWith(NettyLeakDetectorExtension.class)
class LinkShaperTest {
    private ServerSocket server;
    /** What the server does with each connection: echo by default; {@code sendBytes > 0} sends that many. */
    private volatile long sendBytes;

    @BeforeEach
    void start() throws IOException {
        server = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    Thread.ofVirtual().start(() -> serve(s));
                } catch (IOException closed) {
                    return;
                }
            }
        });
    }

    private void serve(Socket s) {
        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            if (sendBytes > 0) {
                in.read(); // a request byte, then the payload
                byte[] chunk = new byte[64 * 1024];
                for (long left = sendBytes; left > 0; left -= chunk.length) {
                    out.write(chunk, 0, (int) Math.min(chunk.length, left));
                }
                return;
            }
            in.transferTo(out);
        } catch (IOException ignored) {
            // the client went away
        }
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    private InetSocketAddress target() {
        return new InetSocketAddress("127.0.0.1", server.getLocalPort());
    }

    private static long roundTripNanos(Socket s) throws IOException {
        long t0 = System.nanoTime();
        s.getOutputStream().write(1);
        s.getOutputStream().flush();
        assertEquals(1, s.getInputStream().read());
        return System.nanoTime() - t0;
    }

    @Test
    void aRoundTripTakesTheConfiguredRtt() throws IOException {
        try (LinkShaper link = LinkShaper.builder(target()).rtt(Duration.ofMillis(80)).build();
             Socket s = new Socket("127.0.0.1", link.port())) {
            roundTripNanos(s); // connection set-up and class loading out of the measure
            long best = Long.MAX_VALUE;
            for (int i = 0; i < 5; i++) {
                best = Math.min(best, roundTripNanos(s));
            }
            double ms = best / 1e6;
            assertTrue(ms >= 80 && ms < 80 + 25, "round trip " + ms + " ms through an 80 ms link");
        }
    }

    @Test
    void theRateIsCappedWithinTwentyPercent() throws IOException {
        long bytes = 6L * 1024 * 1024;
        sendBytes = bytes;
        long rate = 40_000_000;
        try (LinkShaper link = LinkShaper.builder(target()).spec("rate=40mbit").build();
             Socket s = new Socket("127.0.0.1", link.port())) {
            s.getOutputStream().write(1);
            InputStream in = s.getInputStream();
            byte[] buf = new byte[64 * 1024];
            long got = 0;
            long t0 = System.nanoTime();
            for (int n; (n = in.read(buf)) > 0; ) {
                got += n;
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertEquals(bytes, got, "all of it, then the server's close");
            double measured = got * 8 / seconds;
            assertTrue(Math.abs(measured - rate) <= 0.2 * rate, "measured " + (long) measured + " bit/s for 40 Mbit/s");
        }
    }

    @Test
    void aStalledLinkForwardsNothingUntilResumed() throws IOException {
        try (LinkShaper link = LinkShaper.builder(target()).build();
             Socket s = new Socket("127.0.0.1", link.port())) {
            roundTripNanos(s);
            link.stall();
            s.setSoTimeout(300);
            s.getOutputStream().write(new byte[] {7, 8, 9});
            assertThrows(SocketTimeoutException.class, () -> s.getInputStream().read(), "nothing while stalled");
            link.resume();
            s.setSoTimeout(2000);
            assertArrayEquals(new byte[] {7, 8, 9}, s.getInputStream().readNBytes(3));
        }
    }

    @Test
    void jitterNeverReordersBytes() throws Exception {
        byte[] sent = new byte[2 * 1024 * 1024];
        new java.util.Random(3).nextBytes(sent);
        try (LinkShaper link = LinkShaper.builder(target()).spec("rtt=4ms, jitter=3ms, rate=400mbit").seed(9).build();
             Socket s = new Socket("127.0.0.1", link.port())) {
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    OutputStream out = s.getOutputStream();
                    for (int off = 0; off < sent.length; off += 1000) { // many small pieces, each with its own jitter
                        out.write(sent, off, Math.min(1000, sent.length - off));
                    }
                    out.flush();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            s.setSoTimeout(10_000);
            byte[] echoed = s.getInputStream().readNBytes(sent.length);
            writer.join();
            assertArrayEquals(sent, echoed);
        }
    }

    @Test
    void specsAreParsedAndBadOnesNamed() {
        assertEquals(Duration.ofMillis(50), LinkShaper.Builder.duration("50ms"));
        assertEquals(Duration.ofNanos(1500), LinkShaper.Builder.duration("1.5us"));
        assertEquals(200_000_000, LinkShaper.Builder.rate("200mbit"));
        assertEquals(1_500_000_000, LinkShaper.Builder.rate("1.5g"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LinkShaper.builder(target()).spec("rtt=50ms,loss=1%"));
        assertTrue(e.getMessage().contains("loss"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LinkShaper.builder(target()).spec("rate=fast"));
    }
}
